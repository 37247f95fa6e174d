import {
  FORM_5_FIELDS,
  augustForm1Differences,
  computeForm5,
  parseMoney,
  parseRatio,
  validateFormAttributes,
  certificationErrors,
  type FieldDef,
} from '@pecan/contract';
import { attr as read } from '../../../lib/portal/entities';
import type { Form5 } from '../api/form5-api';

export const attr = (f: FieldDef) => `field_${f.name}`;

/** The August block's fields: the question and the August Form 1 figures it is checked against. */
export const AUGUST_FIELDS = ['aug_form_1_inventory_inshell', 'aug_form_1_inventory_shelled', 'aug_form_1_amend_reqd'];

/** The fields of the editor: every field of FORM_5_FIELDS but the August block's, which has its own place. */
export const EDITOR_FIELDS = FORM_5_FIELDS.filter((f) => !AUGUST_FIELDS.includes(f.name));

/** Groups of the editor, in the order the paper form has them. */
export const FIELD_GROUPS: { key: string; names: string[] }[] = [
  { key: 'general', names: ['date_completed'] },
  {
    key: 'inshell',
    names: [
      'inshell_inventory_improved',
      'inshell_inventory_native',
      'inshell_inventory_substandard',
      'inshell_committed_domestic',
      'inshell_committed_export',
      'inshell_uncommitted',
    ],
  },
  { key: 'prices', names: ['avg_price_paid_improved', 'avg_price_paid_native', 'avg_price_paid_substandard'] },
  {
    key: 'shelled',
    names: [
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
    key: 'inshellBasis',
    names: ['committed_inshell_basis', 'uncommitted_inshell_basis', 'total_inventory_inshell_basis'],
  },
  { key: 'handled', names: ['handled_domestic_improved', 'handled_domestic_native', 'handled_domestic_substandard'] },
  { key: 'assessments', names: ['assessments_owed', 'assessments_paid', 'assessments_remaining'] },
];

export type Draft = Record<string, unknown>;

/** The entered attributes of a form, as the editor holds them (numbers for pounds, strings for money and ratios). */
export function draftOf(form: Form5): Draft {
  // The names come from the contract's field list, not the generated types: read them as plain keys.
  const values = form as Record<string, unknown>;
  const out: Draft = {};
  for (const f of FORM_5_FIELDS) if (f.entry === 'entered') out[attr(f)] = values[attr(f)] ?? null;
  return out;
}

/** What a PATCH sends: entered fields only; an empty date is null. */
export function patchAttributes(draft: Draft): Draft {
  const out: Draft = {};
  for (const f of FORM_5_FIELDS) {
    if (f.entry !== 'entered') continue;
    const v = draft[attr(f)];
    out[attr(f)] = v === '' || v === undefined ? null : v;
  }
  return out;
}

export function liveErrors(draft: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const e of validateFormAttributes('apc_form_5', patchAttributes(draft))) errors[e.field] = e.message;
  return errors;
}

/** The August Form 1's figures as the server copied them in on the last save (null: none certified). */
const augustOf = (form: Form5) => ({
  field_aug_form_1_inventory_inshell: read(form, 'field_aug_form_1_inventory_inshell'),
  field_aug_form_1_inventory_shelled: read(form, 'field_aug_form_1_inventory_shelled'),
});

export function certificationProblems(draft: Draft, form?: Form5) {
  return certificationErrors('apc_form_5', { ...patchAttributes(draft), ...(form ? augustOf(form) : {}) });
}

/** Where the figures being typed differ from the August Form 1 (form 5 minus Form 1, on each basis). */
export function augustDifferences(draft: Draft, form: Form5) {
  const values = Object.fromEntries(
    Object.entries({ ...patchAttributes(draft), ...augustOf(form) }).map(([k, v]) => [k.replace(/^field_/, ''), v]),
  );
  return augustForm1Differences(values);
}

const cents = (v: unknown) => {
  const r = parseMoney(v, { allowNegative: true });
  return r.ok ? r.value : 0;
};
const pounds = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);

/** The shaded fields, computed as the server will: inshell uncommitted, inshell basis, and the assessments. */
export function liveComputed(draft: Draft, form: Form5) {
  const y = parseRatio(draft.field_shellout_yield ?? '');
  const c = computeForm5(
    {
      inshell_inventory_improved: pounds(draft.field_inshell_inventory_improved),
      inshell_inventory_native: pounds(draft.field_inshell_inventory_native),
      inshell_inventory_substandard: pounds(draft.field_inshell_inventory_substandard),
      inshell_committed_domestic: pounds(draft.field_inshell_committed_domestic),
      inshell_committed_export: pounds(draft.field_inshell_committed_export),
      shelled_inventory: pounds(draft.field_shelled_inventory),
      shelled_committed_domestic: pounds(draft.field_shelled_committed_domestic),
      shelled_committed_export: pounds(draft.field_shelled_committed_export),
      shellout_yield: y.ok ? y.value : 0,
    },
    { owedCents: cents(read(form, 'field_assessments_owed')), paidCents: cents(read(form, 'field_assessments_paid')) },
  );
  return {
    field_inshell_uncommitted: c.inshell_uncommitted,
    field_shelled_uncommitted: c.shelled_uncommitted,
    field_committed_inshell_basis: c.committed_inshell_basis,
    field_uncommitted_inshell_basis: c.uncommitted_inshell_basis,
    field_total_inventory_inshell_basis: c.total_inventory_inshell_basis,
    field_assessments_owed: c.assessments_owed,
    field_assessments_paid: c.assessments_paid,
    field_assessments_remaining: c.assessments_remaining,
  } as Record<string, number>;
}
