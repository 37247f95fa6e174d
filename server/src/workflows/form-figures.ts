import {
  columnOf,
  computeForm1,
  computeForm2,
  computeForm3,
  computeForm5,
  earlierPeriodsOfSeason,
  form1Context,
  form1ContextMonths,
  form1MonthFigures,
  FORM_1_NO_CHANGE_CARRIED,
  FORM_FIELDS,
  previousPeriodMonth,
  type Form1Entered,
  type Form1MonthFigures,
  type FormBundle,
} from '@pecan/contract';
import type { Row } from '../jsonapi/resource.js';
import { dbOf, rowsDbOf, type Actor } from './common.js';
import { seasonAssessmentCents } from './invoices.js';
import { parseTransferLines } from './transfer-assessment.js';

/**
 * The computed (shaded) fields of a form version, from its own entries and the handler's certified figures of
 * earlier months of the season. Only certified, current versions count: a draft or a superseded version never
 * feeds another month's year-to-date. A form 1 marked "No change since last month" also gets last month's stocks.
 */
export async function computedColumns(a: Actor, bundle: FormBundle, row: Row): Promise<Row> {
  switch (bundle) {
    case 'apc_form_1':
      return toColumns(bundle, await form1Figures(a, row));
    case 'apc_form_2':
      return toColumns(bundle, await form2Figures(a, row));
    case 'apc_form_3':
      return toColumns(bundle, await form3Figures(a, row));
    case 'apc_form_5':
      return toColumns(bundle, await form5Figures(a, row));
    default:
      return {};
  }
}

/** Field names to columns; the figures are computed fields, and for form 1 also the stocks "no change" carries. */
function toColumns(bundle: FormBundle, computed: object): Row {
  const byName = new Map(FORM_FIELDS[bundle].map((f) => [f.name, f]));
  return Object.fromEntries(Object.entries(computed).map(([name, value]) => [columnOf(byName.get(name)!), value]));
}

const num = (v: unknown): number => Number(v ?? 0);

/** Sums of certified versions of `table` for the handler over the given months. */
async function certifiedSums(
  a: Actor,
  table: string,
  handlerId: unknown,
  months: string[],
  columns: string[],
): Promise<Record<string, number>> {
  const zero = Object.fromEntries(columns.map((c) => [c, 0]));
  if (months.length === 0) return zero;
  const row = await rowsDbOf(a)
    .selectFrom(`${table} as f`)
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select((eb) => columns.map((c) => eb.fn.coalesce(eb.fn.sum(`f.${c}`), eb.lit(0)).as(c)))
    .where('f.handler_id', '=', handlerId as string)
    .where('f.form_status', '=', 'certified')
    .where('p.period_month', 'in', months)
    .executeTakeFirst();
  return Object.fromEntries(columns.map((c) => [c, num(row?.[c])]));
}

async function monthOf(a: Actor, row: Row): Promise<string> {
  const p = await dbOf(a)
    .selectFrom('reporting_periods')
    .select('period_month')
    .where('id', '=', row.period_id as string)
    .executeTakeFirstOrThrow();
  return String(p.period_month);
}

const parseList = (v: unknown) =>
  (typeof v === 'string' ? JSON.parse(v) : (v ?? [])) as Array<{ variety: string; pounds: number }>;

/**
 * The handler's current certified form 1 figures of the months a month's context reads (the season's earlier
 * months and the previous month, August of the season before for September), keyed by month.
 */
export async function certifiedForm1ByMonth(
  a: Actor,
  handlerId: unknown,
  months: string[],
): Promise<Map<string, Form1MonthFigures>> {
  const byMonth = new Map<string, Form1MonthFigures>();
  if (months.length === 0) return byMonth;
  const rows = (await dbOf(a)
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .selectAll('f')
    .select('p.period_month')
    .where('f.handler_id', '=', handlerId as string)
    .where('f.form_status', '=', 'certified')
    .where('p.period_month', 'in', months)
    .execute()) as Row[];
  for (const r of rows) byMonth.set(String(r.period_month), form1MonthFigures(form1Entered(r)));
  return byMonth;
}

/** A stored form 1 row's entered figures, as the contract computation takes them. */
export function form1Entered(row: Row): Form1Entered {
  return {
    receipts_by_variety: parseList(row.receipts_by_variety),
    receipts_native: num(row.receipts_native),
    receipts_substandard: num(row.receipts_substandard),
    shipments_inshell: num(row.shipments_inshell),
    shipments_shelled: num(row.shipments_shelled),
    interhandler_shipments: parseTransferLines(row.interhandler_shipments),
    interhandler_shipped: num(row.interhandler_shipped),
    interhandler_received: num(row.interhandler_received),
  };
}

/**
 * Form 1's computed figures, and with "No change since last month" marked the stocks of the previous month's
 * current certified form carried forward (986.177(a)(8)-(10): the instructions' meaning of the box). Without a
 * previous month to carry, the handler's own entries stay.
 */
async function form1Figures(a: Actor, row: Row): Promise<Record<string, unknown>> {
  const month = await monthOf(a, row);
  const certified = await certifiedForm1ByMonth(a, row.handler_id, form1ContextMonths(month));
  const figures = computeForm1(form1Entered(row), form1Context(month, certified));
  return {
    ...figures,
    ...(isTrue(row.no_change_flag) ? await carriedStocks(a, row.handler_id, previousPeriodMonth(month)) : {}),
  };
}

const isTrue = (v: unknown): boolean => v === true || v === 1 || v === '1';

async function carriedStocks(a: Actor, handlerId: unknown, month: string): Promise<Row> {
  const previous = await dbOf(a)
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select(FORM_1_NO_CHANGE_CARRIED.map((c) => `f.${c}` as const))
    .where('f.handler_id', '=', handlerId as string)
    .where('f.form_status', '=', 'certified')
    .where('p.period_month', '=', month)
    .executeTakeFirst();
  if (!previous) return {};
  return Object.fromEntries(FORM_1_NO_CHANGE_CARRIED.map((c) => [c, num((previous as Row)[c])]));
}

async function subRows(a: Actor, table: string, formId: unknown): Promise<Row[]> {
  return (await rowsDbOf(a)
    .selectFrom(table)
    .selectAll()
    .where('form_id', '=', formId as string)
    .execute()) as Row[];
}

async function form2Figures(a: Actor, row: Row) {
  const month = await monthOf(a, row);
  const before = await certifiedSums(a, 'apc_form_2', row.handler_id, earlierPeriodsOfSeason(month), [
    'mexico_inshell_lb',
    'mexico_shelled_lb',
  ]);
  const rows = (await subRows(a, 'pecans_purchased_non_us', row.id)).map((r) => ({
    inshell_lb: num(r.inshell_lb),
    shelled_lb: num(r.shelled_lb),
  }));
  return computeForm2(
    { mexico_inshell_lb: num(row.mexico_inshell_lb), mexico_shelled_lb: num(row.mexico_shelled_lb) },
    rows,
    {
      seasonToDate: { mexico_inshell_lb: before.mexico_inshell_lb, mexico_shelled_lb: before.mexico_shelled_lb },
    },
  );
}

async function form3Figures(a: Actor, row: Row) {
  const month = await monthOf(a, row);
  const before = await certifiedSums(a, 'apc_form_3', row.handler_id, earlierPeriodsOfSeason(month), [
    'total_inshell_lb',
    'total_shelled_lb',
    'total_substandard_lb',
  ]);
  const rows = (await subRows(a, 'export_by_country', row.id)).map((r) => ({
    inshell_lb: num(r.inshell_lb),
    shelled_lb: num(r.shelled_lb),
    substandard_lb: num(r.substandard_lb),
  }));
  return computeForm3(rows, {
    seasonToDate: {
      inshell_lb: before.total_inshell_lb,
      shelled_lb: before.total_shelled_lb,
      substandard_lb: before.total_substandard_lb,
    },
  });
}

/**
 * Form 5 reconciles the season: the assessments its invoices owe (certified forms 1, with the lines form 4
 * agreements moved), what its invoices say was paid, and the inventory the current certified August Form 1 reported
 * for 31 August (the form compares its own with it).
 */
async function form5Figures(a: Actor, row: Row) {
  const db = dbOf(a);
  const owedCents = await seasonAssessmentCents(a, String(row.handler_id), String(row.season_id));
  const paid = await db
    .selectFrom('invoices as i')
    .innerJoin('reporting_periods as p', 'p.id', 'i.period_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum('i.amount_due_cents'), eb.lit(0)).as('cents'))
    .where('i.handler_id', '=', row.handler_id as string)
    .where('i.invoice_status', '=', 'paid')
    .where('p.season_id', '=', row.season_id as string)
    .executeTakeFirst();
  const season = await db
    .selectFrom('seasons')
    .select('season_end_date')
    .where('id', '=', row.season_id as string)
    .executeTakeFirst();
  const august = season
    ? await db
        .selectFrom('apc_form_1 as f')
        .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
        .select(['f.inventory_inshell', 'f.inventory_shelled'])
        .where('f.handler_id', '=', row.handler_id as string)
        .where('f.form_status', '=', 'certified')
        .where('p.period_month', '=', String(season.season_end_date).slice(0, 7))
        .executeTakeFirst()
    : undefined;
  return computeForm5(
    {
      inshell_inventory_improved: num(row.inshell_inventory_improved),
      inshell_inventory_native: num(row.inshell_inventory_native),
      inshell_inventory_substandard: num(row.inshell_inventory_substandard),
      inshell_committed_domestic: num(row.inshell_committed_domestic),
      inshell_committed_export: num(row.inshell_committed_export),
      shelled_inventory: num(row.shelled_inventory),
      shelled_committed_domestic: num(row.shelled_committed_domestic),
      shelled_committed_export: num(row.shelled_committed_export),
      shellout_yield: num(row.shellout_yield_e4),
    },
    {
      owedCents,
      paidCents: num(paid?.cents),
      augustForm1: august
        ? { inventory_inshell: num(august.inventory_inshell), inventory_shelled: num(august.inventory_shelled) }
        : null,
    },
  );
}
