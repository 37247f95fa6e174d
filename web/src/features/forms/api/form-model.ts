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
import type { Entity } from '../../../lib/jsonapi/deserialize';
import { many, num, one, str } from '../../../lib/portal/entities';
import type { MonthlyBundle } from '../../../lib/portal/packages';
import { ROWS_OF } from './forms-api';

export const enteredFields = (bundle: MonthlyBundle) => FORM_FIELDS[bundle].filter((f) => f.entry === 'entered');
export const computedFields = (bundle: MonthlyBundle) => FORM_FIELDS[bundle].filter((f) => f.entry === 'computed');

/** The entered attributes of a form as the API gave them. */
export function enteredValues(bundle: MonthlyBundle, form: Entity): Record<string, unknown> {
  return Object.fromEntries(
    enteredFields(bundle).map((f) => [
      `field_${f.name}`,
      form[`field_${f.name}`] ?? (f.kind === 'varietyList' || f.kind === 'transferList' ? [] : null),
    ]),
  );
}

/** The computed fields as the server stored them (money in cents). */
export function serverComputed(bundle: MonthlyBundle, form: Entity): Record<string, number | null> {
  return Object.fromEntries(
    computedFields(bundle).map((f) => {
      const v = form[`field_${f.name}`];
      if (f.kind === 'money') {
        const parsed = parseMoney(typeof v === 'string' ? v : '0');
        return [f.name, parsed.ok ? parsed.value : null];
      }
      return [f.name, typeof v === 'number' ? v : null];
    }),
  );
}

const n = (form: Entity, name: string) => num(form, `field_${name}`) ?? 0;

export const rowsOf = (bundle: MonthlyBundle, form: Entity): Entity[] => {
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
  form: Entity,
  values: Record<string, unknown>,
  rows: Entity[],
  certifiedForm1?: ReadonlyMap<string, Form1MonthFigures>,
): Record<string, number | null> {
  const fallback = serverComputed(bundle, form);
  try {
    if (bundle === 'apc_form_1') {
      const month = str(one(form, 'field_reporting_period'), 'field_period_month') ?? '2000-01';
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
        rows.map((r) => ({ inshell_lb: num(r, 'field_inshell_lb'), shelled_lb: num(r, 'field_shelled_lb') })),
        {
          seasonToDate: {
            mexico_inshell_lb: n(form, 'mexico_ytd_inshell_lb') - n(form, 'mexico_inshell_lb'),
            mexico_shelled_lb: n(form, 'mexico_ytd_shelled_lb') - n(form, 'mexico_shelled_lb'),
          },
        },
      );
      return { ...fallback, ...result };
    }
    const result = computeForm3(
      rows.map((r) => ({
        inshell_lb: num(r, 'field_inshell_lb'),
        shelled_lb: num(r, 'field_shelled_lb'),
        substandard_lb: num(r, 'field_substandard_lb'),
      })),
      {
        seasonToDate: {
          inshell_lb: n(form, 'prior_inshell_lb'),
          shelled_lb: n(form, 'prior_shelled_lb'),
          substandard_lb: n(form, 'prior_substandard_lb'),
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
function storedForm1Context(form: Entity, periodMonth: string) {
  const flow = (name: string) => n(form, `${name}_ytd`) - n(form, name);
  const previous = (name: string) => n(form, `${name}_prev_month`);
  return {
    periodMonth,
    seasonToDate: {
      receipts_improved: n(form, 'receipts_ytd_improved') - n(form, 'receipts_improved'),
      receipts_native: n(form, 'receipts_ytd_native') - n(form, 'receipts_native'),
      receipts_substandard: n(form, 'receipts_ytd_substandard') - n(form, 'receipts_substandard'),
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

/** Whether this version is the last of its package's list (the current one). */
export function isCurrentVersion(bundle: MonthlyBundle, form: Entity): boolean {
  const pkg = one(form, 'field_reporting_forms_package');
  const list = many(pkg, `field_form_${bundle.slice(-1)}`);
  if (!list.length) return str(form, 'field_form_status') !== 'superseded';
  return list[list.length - 1].id === form.id;
}

export function currentVersionId(bundle: MonthlyBundle, form: Entity): string | null {
  const list = many(one(form, 'field_reporting_forms_package'), `field_form_${bundle.slice(-1)}`);
  return list.length ? list[list.length - 1].id : null;
}
