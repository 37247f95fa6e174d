// Single modules of the contract, not its index: the dashboard reads these, and the index brings zod and the schemas.
import type { CertifiedForm1Month } from '@pecan/contract/compute/form-1-stale';
import {
  FORM_1_CARRIED_FIELDS,
  FORM_1_MONTH_FIGURE_FIELDS,
  form1MonthFigures,
  type Form1CarriedField,
  type Form1Entered,
  type Form1MonthFigures,
} from '@pecan/contract/compute/form-1';
import { FORM_1_NO_CHANGE_CARRIED } from '@pecan/contract/forms/fields';
import type { VarietyRow } from '@pecan/contract/forms/value-schemas';
import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { attr, one, type ApiEntity, type AttributeNameOf } from '../../../lib/portal/entities';

type Form1 = ApiEntity<'node--apc_form_1'>;
/** A pounds field of form 1 by its contract name (`receipts_native` for `field_receipts_native`). */
type Form1Pounds = Unprefixed<AttributeNameOf<Form1, number>>;
type Unprefixed<K> = K extends `field_${infer Name}` ? Name : never;

/**
 * The handler's current certified forms 1 of the given months, or of every month from `from` on, with the fields the
 * contract's form 1 computations read in the browser: the live figures of a draft (its season to date and previous
 * month) and the stale year-to-date flags. A superseded version or a draft is never read, as on the server.
 */
export function certifiedForm1Params(handlerId: string, months: { in: string[] } | { from: string }) {
  const params = new DrupalJsonApiParams()
    .addFilter('field_form_status', 'certified')
    .addFilter('field_handler.id', handlerId);
  if ('in' in months) params.addFilter('field_reporting_period.field_period_month', months.in, 'IN');
  else params.addFilter('field_reporting_period.field_period_month', months.from, '>=');
  return params
    .addFields('node--apc_form_1', [
      ...[...FORM_1_MONTH_FIGURE_FIELDS, ...FORM_1_CARRIED_FIELDS, ...FORM_1_NO_CHANGE_CARRIED].map(
        (f) => `field_${f}`,
      ),
      'field_reporting_period',
      'field_reporting_forms_package',
    ])
    .addFields('node--reporting_period', ['field_period_month'])
    .addInclude(['field_reporting_period'])
    .addPageLimit(50);
}

/** A certified month as the contract reads it, with the package it belongs to (an amendment is added to it). */
export type CertifiedForm1InPackage = CertifiedForm1Month & {
  packageId: string | null;
  stocks: Record<string, number>;
};

export async function getCertifiedForm1(
  handlerId: string,
  months: { in: string[] } | { from: string },
  signal?: AbortSignal,
): Promise<CertifiedForm1InPackage[]> {
  if ('in' in months && months.in.length === 0) return [];
  const forms = await jsonApi.getAll<Form1>(
    '/jsonapi/node/apc_form_1',
    certifiedForm1Params(handlerId, months),
    signal,
  );
  return forms.map(certifiedMonthOf).filter((m): m is CertifiedForm1InPackage => m !== null);
}

function certifiedMonthOf(form: Form1): CertifiedForm1InPackage | null {
  const month = attr(one(form, 'field_reporting_period'), 'field_period_month');
  if (!month) return null;
  const lb = (name: Form1Pounds) => attr(form, `field_${name}`) ?? 0;
  // The carried and stock fields are named by the contract's lists, not here: read by those names.
  const listed = (name: string) => {
    const v = (form as Record<string, unknown>)[`field_${name}`];
    return typeof v === 'number' ? v : 0;
  };
  const entered: Form1Entered = {
    receipts_by_variety: (attr(form, 'field_receipts_by_variety') as VarietyRow[] | null) ?? [],
    receipts_native: lb('receipts_native'),
    receipts_substandard: lb('receipts_substandard'),
    shipments_inshell: lb('shipments_inshell'),
    shipments_shelled: lb('shipments_shelled'),
    interhandler_shipped: lb('interhandler_shipped'),
    interhandler_received: lb('interhandler_received'),
  };
  const carried = Object.fromEntries(FORM_1_CARRIED_FIELDS.map((f) => [f, listed(f)])) as Record<
    Form1CarriedField,
    number
  >;
  const stocks = Object.fromEntries(FORM_1_NO_CHANGE_CARRIED.map((f) => [f, listed(f)]));
  return {
    id: form.id,
    month,
    entered,
    carried,
    stocks,
    packageId: one(form, 'field_reporting_forms_package')?.id ?? null,
  };
}

export const figuresByMonth = (months: readonly CertifiedForm1Month[]): Map<string, Form1MonthFigures> =>
  new Map(months.map((m) => [m.month, form1MonthFigures(m.entered)]));

/** The stocks (inventory, commitments, under contract) by month: what "No change since last month" carries. */
export const stocksByMonth = (months: readonly CertifiedForm1InPackage[]): Map<string, Record<string, number>> =>
  new Map(months.map((m) => [m.month, m.stocks]));
