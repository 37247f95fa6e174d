/**
 * The query the form page reads a monthly form with. Apart from forms-api.ts (the fetch client) so that the
 * benchmark (bench/deadline.ts) sends the very same request.
 */
import { DrupalJsonApiParams } from '../../../lib/jsonapi/params';
import type { MonthlyBundle } from '../../../lib/portal/packages';

export type RowBundle = 'pecans_purchased_non_us' | 'export_by_country';
export const ROWS_OF: Record<
  MonthlyBundle,
  { bundle: RowBundle; field: 'field_purchased_outside_us' | 'field_exports_by_country' } | null
> = {
  apc_form_1: null,
  apc_form_2: { bundle: 'pecans_purchased_non_us', field: 'field_purchased_outside_us' },
  apc_form_3: { bundle: 'export_by_country', field: 'field_exports_by_country' },
};
export const PDF_FIELD: Record<MonthlyBundle, 'field_form_1_pdf' | 'field_form_2_pdf' | 'field_form_3_pdf'> = {
  apc_form_1: 'field_form_1_pdf',
  apc_form_2: 'field_form_2_pdf',
  apc_form_3: 'field_form_3_pdf',
};

/** One form with its period (and season), package, PDF and rows. */
export function formParams(bundle: MonthlyBundle): DrupalJsonApiParams {
  const include: string[] = ['field_reporting_period', 'field_reporting_forms_package', PDF_FIELD[bundle]];
  const rows = ROWS_OF[bundle];
  if (rows) include.push(rows.field);
  return new DrupalJsonApiParams().addInclude(include);
}
