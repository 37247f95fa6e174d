import {
  computeForm1,
  computeForm2,
  computeForm3,
  EMPTY_FORM_1_SEASON_TO_DATE,
  form1Context,
  FORM_FIELDS,
  parseMoney,
  type Form1MonthFigures,
  type TransferRow,
  type VarietyRow,
} from '@pecan/contract';
import { attr, many, one, type ApiEntity, type AttributeNameOf } from '../../../lib/portal/entities';
import type { MonthlyBundle, MonthlyForm } from '../../../lib/portal/packages';
import { ROWS_OF } from './forms-api';

/** A row of form 2 (pecans bought outside the US) or of form 3 (exports by country). */
export type FormRow = ApiEntity<'node--pecans_purchased_non_us' | 'node--export_by_country'>;

export const enteredFields = (bundle: MonthlyBundle) => FORM_FIELDS[bundle].filter((f) => f.entry === 'entered');
export const computedFields = (bundle: MonthlyBundle) => FORM_FIELDS[bundle].filter((f) => f.entry === 'computed');

/** The entered attributes of a form as the API gave them. */
export function enteredValues(bundle: MonthlyBundle, form: MonthlyForm): Record<string, unknown> {
  return Object.fromEntries(
    enteredFields(bundle).map((f) => [
      `field_${f.name}`,
      // Names from the contract's field list, not written here: read as the list gives them.
      (form as Record<string, unknown>)[`field_${f.name}`] ??
        (f.kind === 'varietyList' || f.kind === 'transferList' ? [] : null),
    ]),
  );
}

/** The computed fields as the server stored them (money in cents). */
export function serverComputed(bundle: MonthlyBundle, form: MonthlyForm): Record<string, number | null> {
  return Object.fromEntries(
    computedFields(bundle).map((f) => {
      const v = (form as Record<string, unknown>)[`field_${f.name}`];
      if (f.kind === 'money') {
        const parsed = parseMoney(typeof v === 'string' ? v : '0');
        return [f.name, parsed.ok ? parsed.value : null];
      }
      return [f.name, typeof v === 'number' ? v : null];
    }),
  );
}

type PoundsField = AttributeNameOf<MonthlyForm, number>;
/** The form 1 flows whose season to date (`_ytd`) and previous month (`_prev_month`) the server stores. */
type Form1Flow = 'shipments_inshell' | 'shipments_shelled' | 'interhandler_shipped' | 'interhandler_received';

/** A pounds field of the form as the server stored it, 0 when empty. */
const n = (form: MonthlyForm, key: PoundsField) => attr(form, key) ?? 0;

export const rowsOf = (bundle: MonthlyBundle, form: MonthlyForm): FormRow[] => {
  const rows = ROWS_OF[bundle];
  return rows ? many(form, rows.field) : [];
};

/**
 * The computed fields recomputed with the contract's functions as the user types. Form 1 takes the handler's
 * current certified figures of the months before (`certifiedForm1`, read by useForm1Context) and so shows, before
 * the first save too, what the server will compute. Forms 2 and 3, and form 1 while those are loading, take the
 * season-to-date before this month from what the server stored: its year-to-date minus its figure for this month.
 */
export function liveComputed(
  bundle: MonthlyBundle,
  form: MonthlyForm,
  values: Record<string, unknown>,
  rows: FormRow[],
  certifiedForm1?: ReadonlyMap<string, Form1MonthFigures>,
): Record<string, number | null> {
  const fallback = serverComputed(bundle, form);
  try {
    if (bundle === 'apc_form_1') {
      const month = attr(one(form, 'field_reporting_period'), 'field_period_month') ?? '2000-01';
      const result = computeForm1(
        {
          receipts_by_variety: ((values.field_receipts_by_variety as VarietyRow[] | null) ?? []).map((r) => ({
            ...r,
            pounds: r.pounds ?? 0,
          })),
          receipts_native: values.field_receipts_native as number | null,
          receipts_substandard: values.field_receipts_substandard as number | null,
          shipments_inshell: values.field_shipments_inshell as number | null,
          shipments_shelled: values.field_shipments_shelled as number | null,
          interhandler_shipments: ((values.field_interhandler_shipments as TransferRow[] | null) ?? []).map((r) => ({
            ...r,
            pounds: r.pounds ?? 0,
          })),
          interhandler_received: values.field_interhandler_received as number | null,
        },
        certifiedForm1 ? form1Context(month, certifiedForm1) : storedForm1Context(form, month),
      );
      return { ...fallback, ...result };
    }
    if (bundle === 'apc_form_2') {
      const result = computeForm2(
        {
          mexico_inshell_lb: values.field_mexico_inshell_lb as number | null,
          mexico_shelled_lb: values.field_mexico_shelled_lb as number | null,
        },
        rows.map((r) => ({ inshell_lb: attr(r, 'field_inshell_lb'), shelled_lb: attr(r, 'field_shelled_lb') })),
        {
          seasonToDate: {
            mexico_inshell_lb: n(form, 'field_mexico_ytd_inshell_lb') - n(form, 'field_mexico_inshell_lb'),
            mexico_shelled_lb: n(form, 'field_mexico_ytd_shelled_lb') - n(form, 'field_mexico_shelled_lb'),
          },
        },
      );
      return { ...fallback, ...result };
    }
    const result = computeForm3(
      rows.map((r) => ({
        inshell_lb: attr(r, 'field_inshell_lb'),
        shelled_lb: attr(r, 'field_shelled_lb'),
        substandard_lb: attr(r, 'field_substandard_lb'),
      })),
      {
        seasonToDate: {
          inshell_lb: n(form, 'field_prior_inshell_lb'),
          shelled_lb: n(form, 'field_prior_shelled_lb'),
          substandard_lb: n(form, 'field_prior_substandard_lb'),
        },
      },
    );
    return { ...fallback, ...result };
  } catch {
    // A value that is not a whole number yet (the field shows its error): keep the figures shown so far.
    return Object.fromEntries(Object.keys(fallback).map((k) => [k, null]));
  }
}

/** The season to date and previous month the server used for a form 1, read back from its stored figures. */
function storedForm1Context(form: MonthlyForm, periodMonth: string) {
  const flow = (name: Form1Flow) => n(form, `field_${name}_ytd`) - n(form, `field_${name}`);
  const previous = (name: Form1Flow) => n(form, `field_${name}_prev_month`);
  return {
    periodMonth,
    seasonToDate: {
      receipts_improved: n(form, 'field_receipts_ytd_improved') - n(form, 'field_receipts_improved'),
      receipts_native: n(form, 'field_receipts_ytd_native') - n(form, 'field_receipts_native'),
      receipts_substandard: n(form, 'field_receipts_ytd_substandard') - n(form, 'field_receipts_substandard'),
      shipments_inshell: flow('shipments_inshell'),
      shipments_shelled: flow('shipments_shelled'),
      interhandler_shipped: flow('interhandler_shipped'),
      interhandler_received: flow('interhandler_received'),
    },
    previousMonth: {
      ...EMPTY_FORM_1_SEASON_TO_DATE,
      shipments_inshell: previous('shipments_inshell'),
      shipments_shelled: previous('shipments_shelled'),
      interhandler_shipped: previous('interhandler_shipped'),
      interhandler_received: previous('interhandler_received'),
    },
  };
}

/** The entered attributes that differ from the form as loaded: what a PATCH sends. */
export function changedAttributes(
  original: Record<string, unknown>,
  values: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([k, v]) => JSON.stringify(v ?? null) !== JSON.stringify(original[k] ?? null)),
  );
}

/** A package's list of the versions of each form. */
const VERSIONS_OF = {
  apc_form_1: 'field_form_1',
  apc_form_2: 'field_form_2',
  apc_form_3: 'field_form_3',
} as const satisfies Record<MonthlyBundle, string>;

/** Whether this version is the last of its package's list (the current one). */
export function isCurrentVersion(bundle: MonthlyBundle, form: MonthlyForm): boolean {
  const pkg = one(form, 'field_reporting_forms_package');
  const list = many(pkg, VERSIONS_OF[bundle]);
  if (!list.length) return attr(form, 'field_form_status') !== 'superseded';
  return list[list.length - 1].id === form.id;
}

export function currentVersionId(bundle: MonthlyBundle, form: MonthlyForm): string | null {
  const list = many(one(form, 'field_reporting_forms_package'), VERSIONS_OF[bundle]);
  return list.length ? list[list.length - 1].id : null;
}
