/**
 * What the form PDFs call each contract field, and how they group a form's fields into sections. A field the
 * contract adds later and these tables do not name still prints (humanized label, in an "Other" section), so a
 * printed form never silently leaves out a field.
 */
import type { FormBundle } from '@pecan/contract';
import { humanize } from './format.js';

export const FORM_NAMES: Record<'apc_form_1' | 'apc_form_2' | 'apc_form_3' | 'apc_form_4' | 'apc_form_5', string> = {
  apc_form_1: 'Form 1 - Summary Report',
  apc_form_2: 'Form 2 - Pecans Purchased Outside the US',
  apc_form_3: 'Form 3 - Exports by Country of Destination',
  apc_form_4: 'Form 4 - Inter-Handler Transfer Agreement',
  apc_form_5: 'Form 5 - Year-End Inventory Report',
};

/** The regulation each form is filed under, printed under the title. */
export const FORM_BASIS: Record<keyof typeof FORM_NAMES, string> = {
  apc_form_1: 'Monthly report of receipts, shipments and inventory under 7 CFR 986.177(a)',
  apc_form_2: 'Monthly report of pecans purchased outside the United States under 7 CFR 986.177(b)',
  apc_form_3: 'Monthly report of exports by country of destination under 7 CFR 986.178',
  apc_form_4: 'Yearly inter-handler transfer agreement under 7 CFR 986.162 and 986.26',
  apc_form_5: 'Year-end inventory as of August 31 under 7 CFR 986.175',
};

const LABELS: Record<string, string> = {
  date_completed: 'Date completed',
  no_change_flag: 'No change since last month',
  receipts_by_variety: 'Improved receipts this month by variety (lb inshell)',
  receipts_native: 'Native / seedling receipts this month (lb inshell)',
  receipts_substandard: 'Substandard receipts this month (lb inshell)',
  receipts_improved: 'Improved receipts this month, total of varieties (lb inshell)',
  receipts_total: 'Total receipts this month, all types (lb inshell)',
  receipts_ytd_improved: 'Improved receipts season to date (lb inshell)',
  receipts_ytd_native: 'Native / seedling receipts season to date (lb inshell)',
  receipts_ytd_substandard: 'Substandard receipts season to date (lb inshell)',
  assessment_due: 'Assessment due',
  shipments_inshell: 'Shipments this month, inshell (lb inshell)',
  shipments_inshell_prev_month: 'Shipments in the previous month, inshell (lb inshell)',
  shipments_inshell_ytd: 'Shipments season to date, inshell (lb inshell)',
  shipments_shelled: 'Shipments this month, shelled (lb shelled)',
  shipments_shelled_prev_month: 'Shipments in the previous month, shelled (lb shelled)',
  shipments_shelled_ytd: 'Shipments season to date, shelled (lb shelled)',
  interhandler_shipments: 'Inter-handler transfers shipped this month, by receiving handler and type',
  interhandler_shipped: 'Inter-handler transfers shipped this month (lb inshell)',
  interhandler_shipped_prev_month: 'Inter-handler transfers shipped in the previous month (lb inshell)',
  interhandler_shipped_ytd: 'Inter-handler transfers shipped season to date (lb inshell)',
  interhandler_received: 'Inter-handler transfers received this month (lb inshell)',
  interhandler_received_prev_month: 'Inter-handler transfers received in the previous month (lb inshell)',
  interhandler_received_ytd: 'Inter-handler transfers received season to date (lb inshell)',
  inventory_inshell: 'Inventory held at month end, inshell (lb inshell)',
  inventory_shelled: 'Inventory held at month end, shelled (lb shelled)',
  committed_domestic: 'Inventory committed, not yet shipped, domestic, inshell (lb inshell)',
  committed_domestic_shelled: 'Inventory committed, not yet shipped, domestic, shelled (lb shelled)',
  committed_export: 'Inventory committed, not yet shipped, export, inshell (lb inshell)',
  committed_export_shelled: 'Inventory committed, not yet shipped, export, shelled (lb shelled)',
  under_contract_from_handlers: 'Under contract for purchase from other handlers, inshell (lb inshell)',
  under_contract_shelled: 'Under contract for purchase from other handlers, shelled (lb shelled)',
  mexico_ship_date: 'Date shipped to Mexico for shelling',
  mexico_inshell_lb: 'Inshell pecans shipped to Mexico',
  mexico_return_date: 'Date shelled pecans returned to the US',
  mexico_shelled_lb: 'Shelled pecans returned from Mexico',
  purchased_inshell_total: 'Total purchased outside the US, inshell',
  purchased_shelled_total: 'Total purchased outside the US, shelled',
  mexico_ytd_inshell_lb: 'Shipped to Mexico, season to date',
  mexico_ytd_shelled_lb: 'Returned from Mexico, season to date',
  total_inshell_lb: 'Total exports this month, inshell',
  total_shelled_lb: 'Total exports this month, shelled',
  total_substandard_lb: 'Total exports this month, substandard',
  prior_inshell_lb: 'Exports through previous month, inshell',
  prior_shelled_lb: 'Exports through previous month, shelled',
  prior_substandard_lb: 'Exports through previous month, substandard',
  ytd_inshell_lb: 'Exports season to date, inshell',
  ytd_shelled_lb: 'Exports season to date, shelled',
  ytd_substandard_lb: 'Exports season to date, substandard',
  responsible_handler: 'Handler responsible for assessment and reporting',
  first_transfer_month: 'Month of first transfer',
  due_date: 'Agreement due by (10th of the month after the first transfer)',
  inshell_inventory_improved: 'Inshell inventory, improved',
  inshell_inventory_native: 'Inshell inventory, native / seedling',
  inshell_inventory_substandard: 'Inshell inventory, substandard',
  inshell_committed_domestic: 'Inshell committed, domestic',
  inshell_committed_export: 'Inshell committed, export',
  inshell_uncommitted: 'Inshell uncommitted',
  avg_price_paid_improved: 'Average price paid, improved (per lb inshell)',
  avg_price_paid_native: 'Average price paid, native / seedling (per lb inshell)',
  avg_price_paid_substandard: 'Average price paid, substandard (per lb inshell)',
  shelled_inventory: 'Shelled inventory',
  shelled_committed_domestic: 'Shelled committed, domestic',
  shelled_committed_export: 'Shelled committed, export',
  shelled_uncommitted: 'Shelled uncommitted',
  shelled_halves: 'Shelled inventory: halves',
  shelled_pieces: 'Shelled inventory: pieces',
  shelled_wip: 'Shelled inventory: work in process',
  shellout_yield: 'Average shell-out yield',
  committed_inshell_basis: 'Committed inventory, inshell basis (inshell + shelled / yield)',
  uncommitted_inshell_basis: 'Uncommitted inventory, inshell basis (inshell + shelled / yield)',
  total_inventory_inshell_basis: 'Committed plus uncommitted inventory, inshell basis',
  handled_domestic_improved: 'Domestic pecans handled, improved',
  handled_domestic_native: 'Domestic pecans handled, native / seedling',
  handled_domestic_substandard: 'Domestic pecans handled, substandard',
  assessments_owed: 'Assessments owed for the year',
  assessments_paid: 'Assessments paid',
  assessments_remaining: 'Assessments remaining',
  aug_form_1_inventory_inshell: 'August Form 1 inventory, inshell',
  aug_form_1_inventory_shelled: 'August Form 1 inventory, shelled',
  aug_form_1_amend_reqd: 'August Form 1 must be amended',
  // sub-record columns
  import_date: 'Import date',
  country_of_origin: 'Country of origin',
  inshell_lb: 'Inshell',
  shelled_lb: 'Shelled',
  substandard_lb: 'Substandard',
  variety: 'Variety',
  country: 'Country',
};

/** The readable English label of a contract field name (without `field_`). */
export function fieldLabel(name: string): string {
  return LABELS[name] ?? humanize(name);
}

export interface FormSection {
  title: string;
  fields: string[];
}

const GENERAL: FormSection = { title: 'General', fields: ['date_completed', 'no_change_flag'] };

/** The sections each form prints, in order; fields are named as in the contract. */
export const FORM_SECTIONS: Partial<Record<FormBundle, FormSection[]>> = {
  apc_form_1: [
    GENERAL,
    {
      title: 'Receipts of US-grown pecans, inshell (986.177(a)(3)-(4))',
      fields: [
        'receipts_by_variety',
        'receipts_improved',
        'receipts_native',
        'receipts_substandard',
        'receipts_total',
        'receipts_ytd_improved',
        'receipts_ytd_native',
        'receipts_ytd_substandard',
      ],
    },
    { title: 'Assessment (986.177(a)(5))', fields: ['assessment_due'] },
    {
      title: 'Shipments inshell (986.177(a)(6)-(7))',
      fields: ['shipments_inshell', 'shipments_inshell_prev_month', 'shipments_inshell_ytd'],
    },
    {
      title: 'Shipments shelled (986.177(a)(6)-(7))',
      fields: ['shipments_shelled', 'shipments_shelled_prev_month', 'shipments_shelled_ytd'],
    },
    {
      title: 'Inter-handler transfers (986.177(a)(6)-(7))',
      fields: [
        'interhandler_shipments',
        'interhandler_shipped',
        'interhandler_shipped_prev_month',
        'interhandler_shipped_ytd',
        'interhandler_received',
        'interhandler_received_prev_month',
        'interhandler_received_ytd',
      ],
    },
    {
      title: 'Inventory and commitments at month end (986.177(a)(8)-(10))',
      fields: [
        'inventory_inshell',
        'inventory_shelled',
        'committed_domestic',
        'committed_domestic_shelled',
        'committed_export',
        'committed_export_shelled',
        'under_contract_from_handlers',
        'under_contract_shelled',
      ],
    },
  ],
  apc_form_2: [
    GENERAL,
    { title: 'Purchases outside the US (totals)', fields: ['purchased_inshell_total', 'purchased_shelled_total'] },
    {
      title: 'Inshell pecans shelled in Mexico',
      fields: [
        'mexico_ship_date',
        'mexico_inshell_lb',
        'mexico_return_date',
        'mexico_shelled_lb',
        'mexico_ytd_inshell_lb',
        'mexico_ytd_shelled_lb',
      ],
    },
  ],
  apc_form_3: [
    GENERAL,
    {
      title: 'Export totals',
      fields: [
        'total_inshell_lb',
        'total_shelled_lb',
        'total_substandard_lb',
        'prior_inshell_lb',
        'prior_shelled_lb',
        'prior_substandard_lb',
        'ytd_inshell_lb',
        'ytd_shelled_lb',
        'ytd_substandard_lb',
      ],
    },
  ],
  apc_form_4: [
    { title: 'Agreement', fields: ['responsible_handler', 'first_transfer_month', 'due_date', 'date_completed'] },
  ],
  apc_form_5: [
    { title: 'General', fields: ['date_completed'] },
    {
      title: 'Inshell inventory as of August 31',
      fields: [
        'inshell_inventory_improved',
        'inshell_inventory_native',
        'inshell_inventory_substandard',
        'inshell_committed_domestic',
        'inshell_committed_export',
        'inshell_uncommitted',
      ],
    },
    {
      title: 'Average price paid for inshell pecans',
      fields: ['avg_price_paid_improved', 'avg_price_paid_native', 'avg_price_paid_substandard'],
    },
    {
      title: 'Shelled inventory as of August 31',
      fields: [
        'shelled_inventory',
        'shelled_committed_domestic',
        'shelled_committed_export',
        'shelled_uncommitted',
        'shelled_halves',
        'shelled_pieces',
        'shelled_wip',
        'shellout_yield',
      ],
    },
    {
      title: 'All inventory on an inshell basis',
      fields: ['committed_inshell_basis', 'uncommitted_inshell_basis', 'total_inventory_inshell_basis'],
    },
    {
      title: 'Domestic pecans handled during the year',
      fields: ['handled_domestic_improved', 'handled_domestic_native', 'handled_domestic_substandard'],
    },
    { title: 'Assessments', fields: ['assessments_owed', 'assessments_paid', 'assessments_remaining'] },
    {
      title: 'August Form 1',
      fields: ['aug_form_1_inventory_inshell', 'aug_form_1_inventory_shelled', 'aug_form_1_amend_reqd'],
    },
  ],
};
