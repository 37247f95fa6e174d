import {
  columnOf, computeForm1, computeForm2, computeForm3, computeForm5, earlierPeriodsOfSeason, FORM_FIELDS, previousPeriodMonth,
  seasonOfPeriod, type FormBundle,
} from '@pecan/contract';
import type { Row } from '../jsonapi/resource.js';
import { dbOf, type Actor } from './common.js';

/**
 * The computed (shaded) fields of a form version, from its own entries and the handler's certified figures of
 * earlier months of the season. Only certified, current versions count: a draft or a superseded version never
 * feeds another month's year-to-date.
 */
export async function computedColumns(a: Actor, bundle: FormBundle, row: Row): Promise<Row> {
  switch (bundle) {
    case 'apc_form_1': return toColumns(bundle, await form1Figures(a, row));
    case 'apc_form_2': return toColumns(bundle, await form2Figures(a, row));
    case 'apc_form_3': return toColumns(bundle, await form3Figures(a, row));
    case 'apc_form_5': return toColumns(bundle, await form5Figures(a, row));
    default: return {};
  }
}

function toColumns(bundle: FormBundle, computed: object): Row {
  const byName = new Map(FORM_FIELDS[bundle].map((f) => [f.name, f]));
  return Object.fromEntries(Object.entries(computed).map(([name, value]) => [columnOf(byName.get(name)!), value]));
}

const num = (v: unknown): number => Number(v ?? 0);

/** Sums of certified versions of `table` for the handler over the given months. */
async function certifiedSums(a: Actor, table: string, handlerId: unknown, months: string[], columns: string[]): Promise<Record<string, number>> {
  const zero = Object.fromEntries(columns.map((c) => [c, 0]));
  if (months.length === 0) return zero;
  const row = await dbOf(a).selectFrom(`${table} as f`).innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select((eb) => columns.map((c) => eb.fn.coalesce(eb.fn.sum(`f.${c}`), eb.lit(0)).as(c)))
    .where('f.handler_id', '=', handlerId as string).where('f.form_status', '=', 'certified')
    .where('p.period_month', 'in', months).executeTakeFirst();
  return Object.fromEntries(columns.map((c) => [c, num(row?.[c])]));
}

async function monthOf(a: Actor, row: Row): Promise<string> {
  const p = await dbOf(a).selectFrom('reporting_periods').select('period_month').where('id', '=', row.period_id as string).executeTakeFirstOrThrow();
  return String(p.period_month);
}

const parseList = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : (v ?? [])) as Array<{ variety: string; pounds: number }>;

async function form1Figures(a: Actor, row: Row) {
  const month = await monthOf(a, row);
  const before = await certifiedSums(a, 'apc_form_1', row.handler_id, earlierPeriodsOfSeason(month),
    ['receipts_improved', 'receipts_native', 'receipts_substandard', 'shipments_total']);
  const firstOfSeason = seasonOfPeriod(previousPeriodMonth(month)) !== seasonOfPeriod(month);
  const previous = firstOfSeason ? null : await certifiedSums(a, 'apc_form_1', row.handler_id, [previousPeriodMonth(month)], ['shipments_total']);
  return computeForm1({
    receipts_by_variety: parseList(row.receipts_by_variety),
    receipts_native: num(row.receipts_native), receipts_substandard: num(row.receipts_substandard),
    shipments_inshell: num(row.shipments_inshell), shipments_shelled: num(row.shipments_shelled),
  }, {
    periodMonth: month,
    seasonToDate: {
      receipts_improved: before.receipts_improved, receipts_native: before.receipts_native,
      receipts_substandard: before.receipts_substandard, shipments_total: before.shipments_total,
    },
    previousMonth: previous ? { shipments_total: previous.shipments_total } : null,
  });
}

async function subRows(a: Actor, table: string, formId: unknown): Promise<Row[]> {
  return (await dbOf(a).selectFrom(table).selectAll().where('form_id', '=', formId as string).execute()) as Row[];
}

async function form2Figures(a: Actor, row: Row) {
  const month = await monthOf(a, row);
  const before = await certifiedSums(a, 'apc_form_2', row.handler_id, earlierPeriodsOfSeason(month), ['mexico_inshell_lb', 'mexico_shelled_lb']);
  const rows = (await subRows(a, 'pecans_purchased_non_us', row.id)).map((r) => ({ inshell_lb: num(r.inshell_lb), shelled_lb: num(r.shelled_lb) }));
  return computeForm2({ mexico_inshell_lb: num(row.mexico_inshell_lb), mexico_shelled_lb: num(row.mexico_shelled_lb) }, rows, {
    seasonToDate: { mexico_inshell_lb: before.mexico_inshell_lb, mexico_shelled_lb: before.mexico_shelled_lb },
  });
}

async function form3Figures(a: Actor, row: Row) {
  const month = await monthOf(a, row);
  const before = await certifiedSums(a, 'apc_form_3', row.handler_id, earlierPeriodsOfSeason(month),
    ['total_inshell_lb', 'total_shelled_lb', 'total_substandard_lb']);
  const rows = (await subRows(a, 'export_by_country', row.id))
    .map((r) => ({ inshell_lb: num(r.inshell_lb), shelled_lb: num(r.shelled_lb), substandard_lb: num(r.substandard_lb) }));
  return computeForm3(rows, {
    seasonToDate: { inshell_lb: before.total_inshell_lb, shelled_lb: before.total_shelled_lb, substandard_lb: before.total_substandard_lb },
  });
}

/**
 * Form 5 reconciles the season: assessments owed on certified forms 1, what its invoices say was paid, and the
 * inventory the current certified August Form 1 reported for 31 August (the form compares its own with it).
 */
async function form5Figures(a: Actor, row: Row) {
  const db = dbOf(a);
  const owed = await db.selectFrom('apc_form_1 as f').innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum('f.assessment_due_cents'), eb.lit(0)).as('cents'))
    .where('f.handler_id', '=', row.handler_id as string).where('f.form_status', '=', 'certified')
    .where('p.season_id', '=', row.season_id as string).executeTakeFirst();
  const paid = await db.selectFrom('invoices as i').innerJoin('reporting_periods as p', 'p.id', 'i.period_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum('i.amount_due_cents'), eb.lit(0)).as('cents'))
    .where('i.handler_id', '=', row.handler_id as string).where('i.invoice_status', '=', 'paid')
    .where('p.season_id', '=', row.season_id as string).executeTakeFirst();
  const season = await db.selectFrom('seasons').select('season_end_date').where('id', '=', row.season_id as string).executeTakeFirst();
  const august = season ? await db.selectFrom('apc_form_1 as f').innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select(['f.inventory_inshell', 'f.inventory_shelled'])
    .where('f.handler_id', '=', row.handler_id as string).where('f.form_status', '=', 'certified')
    .where('p.period_month', '=', String(season.season_end_date).slice(0, 7)).executeTakeFirst() : undefined;
  return computeForm5({
    inshell_inventory_improved: num(row.inshell_inventory_improved), inshell_inventory_native: num(row.inshell_inventory_native),
    inshell_inventory_substandard: num(row.inshell_inventory_substandard), inshell_committed_domestic: num(row.inshell_committed_domestic),
    inshell_committed_export: num(row.inshell_committed_export), shelled_inventory: num(row.shelled_inventory),
    shelled_committed_domestic: num(row.shelled_committed_domestic), shelled_committed_export: num(row.shelled_committed_export),
    shellout_yield: num(row.shellout_yield_e4),
  }, {
    owedCents: num(owed?.cents), paidCents: num(paid?.cents),
    augustForm1: august ? { inventory_inshell: num(august.inventory_inshell), inventory_shelled: num(august.inventory_shelled) } : null,
  });
}
