/**
 * The newest report's query. Apart from position-reports.ts (a hook) so that the benchmark reads it as the app does.
 */
import { DrupalJsonApiParams } from '../jsonapi/params';

/** The newest monthly position report published to the portal, with its period and PDF. */
export function newestReportParams() {
  return new DrupalJsonApiParams()
    .addFilter('field_publish_to_portal', '1')
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(['field_reporting_period', 'field_position_report_pdf'])
    .addPageLimit(1);
}
