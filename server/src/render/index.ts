/**
 * Document rendering: pure functions from plain data (as the workflows assemble it from the database) to PDF and
 * XLSX bytes. Nothing here reads the database; every date printed comes from the input.
 */
export { renderFormPdf, type FormPdfInput, type FormPdfBundle, type FormCertification } from './form-pdf.js';
export { renderInvoicePdf, type InvoicePdfInput, type InvoiceLine, type AssessmentType } from './invoice-pdf.js';
export {
  renderMonthlyPositionReportPdf,
  type MonthlyPositionReportInput,
  type PeriodFigures,
} from './monthly-position-report-pdf.js';
export { renderAnnualPositionReportPdf, type AnnualPositionReportInput } from './annual-position-report-pdf.js';
export type { ExportCountryFigures } from './position-report-common.js';
export {
  renderIndustryAnalyticsWorkbook,
  type IndustryAnalyticsInput,
  type IndustryMonth,
} from './industry-analytics-xlsx.js';
export {
  renderHandlerAnalyticsWorkbook,
  type HandlerAnalyticsInput,
  type HandlerAnalyticsMonth,
  type HandlerMetric,
} from './handler-analytics-xlsx.js';
export { type Figure, type HandlerRef } from './common.js';
export { pdfSafe } from './format.js';
