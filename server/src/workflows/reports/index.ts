/** Position reports and analytics: industry aggregates under the confidentiality rule, rendered and stored. */
export { MIN_CONTRIBUTING_HANDLERS, publishFigure, type Aggregate, type PublishedFigure } from './confidentiality.js';
export * from './aggregates.js';
export {
  generateMonthlyPositionReport,
  publishMonthlyPositionReport,
  reviseMonthlyPositionReport,
  generateAnnualPositionReport,
  monthlyPositionFigures,
  annualPositionFigures,
  monthlyReportInput,
  annualReportInput,
  type GeneratedMonthlyReport,
  type GeneratedAnnualReport,
} from './position-reports.js';
export {
  generateIndustryAnalytics,
  generateHandlerAnalytics,
  generateAllHandlerAnalytics,
  industrySeasonFigures,
  industryAnalyticsInput,
  handlerAnalyticsMonths,
  type GeneratedIndustryAnalytics,
  type GeneratedHandlerAnalytics,
} from './analytics.js';
export type { StoredDocument } from './documents.js';
