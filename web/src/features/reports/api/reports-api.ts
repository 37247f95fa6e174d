import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import type { ApiEntity } from '../../../lib/portal/entities';

export type MonthlyReport = ApiEntity<'node--monthly_position_report'>;
export type AnnualReport = ApiEntity<'node--annual_position_report'>;

export const reportKeys = {
  /** A season's published monthly reports (the dashboard's newest report is lib/query-keys.ts: newestReportKey). */
  monthly: (seasonId: string) => ['monthly-position-reports', seasonId] as const,
  annual: ['annual-position-reports'] as const,
};

export function monthlyReportsParams(seasonId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_reporting_period.field_season.id', seasonId)
    .addFilter('field_publish_to_portal', '1')
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(['field_reporting_period', 'field_position_report_pdf'])
    .addPageLimit(100);
}

export function annualReportsParams() {
  return new DrupalJsonApiParams()
    .addSort('field_season.field_season_start_date', 'DESC')
    .addInclude(['field_season', 'field_position_report_pdf'])
    .addPageLimit(100);
}

export const fetchMonthlyReports = (seasonId: string, signal?: AbortSignal) =>
  jsonApi.getAll<MonthlyReport>('/jsonapi/node/monthly_position_report', monthlyReportsParams(seasonId), signal);
export const fetchAnnualReports = (signal?: AbortSignal) =>
  jsonApi.getAll<AnnualReport>('/jsonapi/node/annual_position_report', annualReportsParams(), signal);
