/**
 * The fields of every APC form and sub-record, one table per form, in the order a handler fills them in.
 * This is the single list the database migration, the server's resource definitions, the zod schemas and the
 * web app's form editors are built from. Names are the domain brief's (../shared/domain/apc-reporting.md);
 * on the API each is `field_` + name.
 *
 * kind:
 * - pounds: whole pounds, an integer >= 0
 * - money: US dollars, a decimal string with two places on the API, integer cents in the database
 * - ratio: a decimal string with four places (e.g. shell-out yield "0.4800"), integer ten-thousandths in the database
 * - price: US dollars a pound to four places ("2.3475"), integer ten-thousandths of a dollar in the database
 * - date: YYYY-MM-DD; month: YYYY-MM
 * - bool, text
 * - varietyList: [{ variety, pounds }] stored as JSON text
 * - transferList: [{ receiving_handler, pecan_type, pounds }] stored as JSON text (form 1's inter-handler shipments)
 * entry: 'entered' by the handler, or 'computed' by the server (a write that sets it is refused with 422).
 */
export type FieldKind =
  'pounds' | 'money' | 'ratio' | 'price' | 'date' | 'month' | 'bool' | 'text' | 'varietyList' | 'transferList';
export type FieldEntry = 'entered' | 'computed';

export interface FieldDef {
  name: string;
  kind: FieldKind;
  entry: FieldEntry;
  /** Unit shown beside the input, e.g. 'lb inshell'. */
  unit?: string;
  /** May stay empty on a draft; certification still accepts it empty (e.g. an optional date). */
  optional?: boolean;
  /**
   * A question the handler answers (a yes/no): it starts unanswered (null), a draft may be saved without the
   * answer, certification needs one. Nothing is answered for the handler.
   */
  question?: boolean;
}

const entered = (name: string, kind: FieldKind, unit?: string, optional = false): FieldDef => ({
  name,
  kind,
  entry: 'entered',
  unit,
  optional,
});
const computed = (name: string, kind: FieldKind, unit?: string): FieldDef => ({ name, kind, entry: 'computed', unit });

/** Form 1: summary report of receipts, shipments and inventory for one month (986.177(a)). */
export const FORM_1_FIELDS: FieldDef[] = [
  entered('date_completed', 'date', undefined, true),
  entered('no_change_flag', 'bool'),
  entered('receipts_by_variety', 'varietyList', 'lb inshell'),
  entered('receipts_native', 'pounds', 'lb inshell'),
  entered('receipts_substandard', 'pounds', 'lb inshell'),
  computed('receipts_improved', 'pounds', 'lb inshell'),
  computed('receipts_total', 'pounds', 'lb inshell'),
  computed('receipts_ytd_improved', 'pounds', 'lb inshell'),
  computed('receipts_ytd_native', 'pounds', 'lb inshell'),
  computed('receipts_ytd_substandard', 'pounds', 'lb inshell'),
  computed('assessment_due', 'money', 'USD'),
  // 986.177(a)(6)-(7): each flow on its own basis, for the month, the previous month and the season to date.
  entered('shipments_inshell', 'pounds', 'lb inshell'),
  computed('shipments_inshell_prev_month', 'pounds', 'lb inshell'),
  computed('shipments_inshell_ytd', 'pounds', 'lb inshell'),
  entered('shipments_shelled', 'pounds', 'lb shelled'),
  computed('shipments_shelled_prev_month', 'pounds', 'lb shelled'),
  computed('shipments_shelled_ytd', 'pounds', 'lb shelled'),
  // 986.162, 986.26: each transfer by receiving handler and type, so the assessment can follow form 4.
  entered('interhandler_shipments', 'transferList', 'lb inshell'),
  computed('interhandler_shipped', 'pounds', 'lb inshell'),
  computed('interhandler_shipped_prev_month', 'pounds', 'lb inshell'),
  computed('interhandler_shipped_ytd', 'pounds', 'lb inshell'),
  entered('interhandler_received', 'pounds', 'lb inshell'),
  computed('interhandler_received_prev_month', 'pounds', 'lb inshell'),
  computed('interhandler_received_ytd', 'pounds', 'lb inshell'),
  // 986.177(a)(8)-(10): stocks at month end, inshell and shelled apart; carried forward by "no change".
  entered('inventory_inshell', 'pounds', 'lb inshell'),
  entered('inventory_shelled', 'pounds', 'lb shelled'),
  entered('committed_domestic', 'pounds', 'lb inshell'),
  entered('committed_domestic_shelled', 'pounds', 'lb shelled'),
  entered('committed_export', 'pounds', 'lb inshell'),
  entered('committed_export_shelled', 'pounds', 'lb shelled'),
  entered('under_contract_from_handlers', 'pounds', 'lb inshell'),
  entered('under_contract_shelled', 'pounds', 'lb shelled'),
];

/**
 * What "No change since last month" carries forward from the previous month's current certified form 1: the stocks
 * at month end (inventory, commitments, purchases under contract). The month's flows stay empty (0): nothing moved.
 */
export const FORM_1_NO_CHANGE_CARRIED = [
  'inventory_inshell',
  'inventory_shelled',
  'committed_domestic',
  'committed_domestic_shelled',
  'committed_export',
  'committed_export_shelled',
  'under_contract_from_handlers',
  'under_contract_shelled',
] as const;

/** Form 2: pecans purchased outside the US, and inshell pecans shelled in Mexico (986.177(b)). */
export const FORM_2_FIELDS: FieldDef[] = [
  entered('date_completed', 'date', undefined, true),
  entered('no_change_flag', 'bool'),
  entered('mexico_ship_date', 'date', undefined, true),
  entered('mexico_inshell_lb', 'pounds', 'lb inshell'),
  entered('mexico_return_date', 'date', undefined, true),
  entered('mexico_shelled_lb', 'pounds', 'lb shelled'),
  computed('purchased_inshell_total', 'pounds', 'lb inshell'),
  computed('purchased_shelled_total', 'pounds', 'lb shelled'),
  computed('mexico_ytd_inshell_lb', 'pounds', 'lb inshell'),
  computed('mexico_ytd_shelled_lb', 'pounds', 'lb shelled'),
];

/** A row of form 2: one purchase of pecans grown outside the US. */
export const PECANS_PURCHASED_NON_US_FIELDS: FieldDef[] = [
  entered('import_date', 'date'),
  entered('country_of_origin', 'text'),
  entered('inshell_lb', 'pounds', 'lb inshell'),
  entered('shelled_lb', 'pounds', 'lb shelled'),
  entered('variety', 'text', undefined, true),
];

/** Form 3: exports by country of destination (986.178). */
export const FORM_3_FIELDS: FieldDef[] = [
  entered('date_completed', 'date', undefined, true),
  entered('no_change_flag', 'bool'),
  computed('total_inshell_lb', 'pounds', 'lb inshell'),
  computed('total_shelled_lb', 'pounds', 'lb shelled'),
  computed('total_substandard_lb', 'pounds', 'lb inshell'),
  computed('prior_inshell_lb', 'pounds', 'lb inshell'),
  computed('prior_shelled_lb', 'pounds', 'lb shelled'),
  computed('prior_substandard_lb', 'pounds', 'lb inshell'),
  computed('ytd_inshell_lb', 'pounds', 'lb inshell'),
  computed('ytd_shelled_lb', 'pounds', 'lb shelled'),
  computed('ytd_substandard_lb', 'pounds', 'lb inshell'),
];

/** A row of form 3: what was shipped to one country this month. */
export const EXPORT_BY_COUNTRY_FIELDS: FieldDef[] = [
  entered('country', 'text'),
  entered('inshell_lb', 'pounds', 'lb inshell'),
  entered('shelled_lb', 'pounds', 'lb shelled'),
  entered('substandard_lb', 'pounds', 'lb inshell'),
];

/**
 * Form 4: the yearly inter-handler transfer agreement (986.162, 986.26). It is due by the 10th of the month after
 * the first transfer between the two handlers (the next business day when that is a weekend or holiday).
 */
export const FORM_4_FIELDS: FieldDef[] = [
  entered('responsible_handler', 'text'),
  entered('first_transfer_month', 'month'),
  computed('due_date', 'date'),
  entered('date_completed', 'date', undefined, true),
];

/**
 * Form 5: year-end inventory as of 31 August (986.175(a); the regulation's text still calls it "Form 7").
 * Inventory and commitments on their own bases (inshell, shelled), then the whole on an inshell basis: committed,
 * uncommitted and the two combined. The August Form 1's inventory is copied in (computed) so the answer to "the
 * August Form 1 must be amended" can be checked against it; see compute/form-5.ts.
 */
export const FORM_5_FIELDS: FieldDef[] = [
  entered('date_completed', 'date', undefined, true),
  entered('inshell_inventory_improved', 'pounds', 'lb inshell'),
  entered('inshell_inventory_native', 'pounds', 'lb inshell'),
  entered('inshell_inventory_substandard', 'pounds', 'lb inshell'),
  entered('inshell_committed_domestic', 'pounds', 'lb inshell'),
  entered('inshell_committed_export', 'pounds', 'lb inshell'),
  computed('inshell_uncommitted', 'pounds', 'lb inshell'),
  entered('avg_price_paid_improved', 'price', 'USD/lb'),
  entered('avg_price_paid_native', 'price', 'USD/lb'),
  entered('avg_price_paid_substandard', 'price', 'USD/lb'),
  entered('shelled_inventory', 'pounds', 'lb shelled'),
  entered('shelled_committed_domestic', 'pounds', 'lb shelled'),
  entered('shelled_committed_export', 'pounds', 'lb shelled'),
  computed('shelled_uncommitted', 'pounds', 'lb shelled'),
  entered('shelled_halves', 'pounds', 'lb shelled'),
  entered('shelled_pieces', 'pounds', 'lb shelled'),
  entered('shelled_wip', 'pounds', 'lb shelled'),
  entered('shellout_yield', 'ratio'),
  computed('committed_inshell_basis', 'pounds', 'lb inshell'),
  computed('uncommitted_inshell_basis', 'pounds', 'lb inshell'),
  computed('total_inventory_inshell_basis', 'pounds', 'lb inshell'),
  entered('handled_domestic_improved', 'pounds', 'lb inshell'),
  entered('handled_domestic_native', 'pounds', 'lb inshell'),
  entered('handled_domestic_substandard', 'pounds', 'lb inshell'),
  computed('assessments_owed', 'money', 'USD'),
  computed('assessments_paid', 'money', 'USD'),
  computed('assessments_remaining', 'money', 'USD'),
  computed('aug_form_1_inventory_inshell', 'pounds', 'lb inshell'),
  computed('aug_form_1_inventory_shelled', 'pounds', 'lb shelled'),
  { ...entered('aug_form_1_amend_reqd', 'bool'), question: true },
];

export const FORM_FIELDS = {
  apc_form_1: FORM_1_FIELDS,
  apc_form_2: FORM_2_FIELDS,
  apc_form_3: FORM_3_FIELDS,
  apc_form_4: FORM_4_FIELDS,
  apc_form_5: FORM_5_FIELDS,
  pecans_purchased_non_us: PECANS_PURCHASED_NON_US_FIELDS,
  export_by_country: EXPORT_BY_COUNTRY_FIELDS,
} as const;

export type FormBundle = keyof typeof FORM_FIELDS;

/** The column that stores a field: money in cents, ratios and prices in ten-thousandths say so in their name. */
export function columnOf(field: FieldDef): string {
  if (field.kind === 'money') return `${field.name}_cents`;
  if (field.kind === 'ratio' || field.kind === 'price') return `${field.name}_e4`;
  return field.name;
}
