/**
 * The queries of the analytics page. Apart from analytics-api.ts (the fetch client) so that the benchmark
 * (bench/run.ts) sends the very same requests.
 */
import { DrupalJsonApiParams } from '../../../lib/jsonapi/params';

/** The industry's analytics of every season, with their spreadsheet and season. */
export function industryAnalyticsParams() {
  return new DrupalJsonApiParams().addInclude(['field_industry_analytics_xlsx', 'field_season']).addPageLimit(100);
}

/** GET /jsonapi/node/handler/{id} for the handler's own analytics, with their spreadsheets and seasons. */
export function ownAnalyticsParams() {
  return new DrupalJsonApiParams()
    .addInclude([
      'field_handler_analytics',
      'field_handler_analytics.field_analytics_xlsx',
      'field_handler_analytics.field_season',
    ])
    .addFields('node--handler', ['title', 'field_handler_analytics']);
}

/** The handler's own certified form 1 figures of the given seasons (for the charts). */
export function form1FiguresParams(handlerId: string, seasonIds: string[]) {
  return new DrupalJsonApiParams()
    .addFilter('field_form_status', 'certified')
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_reporting_period.field_season.id', seasonIds, 'IN')
    .addFields('node--apc_form_1', [
      'field_receipts_total',
      'field_shipments_inshell',
      'field_inventory_inshell',
      'field_reporting_period',
    ])
    .addFields('node--reporting_period', ['field_period_month', 'field_season'])
    .addInclude(['field_reporting_period'])
    .addPageLimit(100);
}
