import { sql, type AliasedRawBuilder } from 'kysely';
import { anyTableDb, type PortalDb } from '../../db/portal-tables.js';
import type { Aggregate } from './confidentiality.js';

/**
 * Industry aggregates over the handlers' CURRENT CERTIFIED form versions (form_status = 'certified': a draft or a
 * superseded version never counts). Each figure is a sum plus the number of distinct handlers that reported it
 * non-zero, the input of the confidentiality rule (confidentiality.ts). Every function is one grouped query,
 * portable to SQLite and PostgreSQL; none runs a query per handler or per month.
 */

/** Form 1 figures the reports use. */
export const FORM_1_METRICS = [
  'receipts_improved',
  'receipts_native',
  'receipts_substandard',
  'shipments_inshell',
  'shipments_shelled',
  'interhandler_shipped',
  'interhandler_received',
  'inventory_inshell',
  'inventory_shelled',
  'committed_domestic',
  'committed_export',
] as const;
export type Form1Metric = (typeof FORM_1_METRICS)[number];

/** Form 2: pecans purchased outside the US (foreign receipts). */
export const FORM_2_METRICS = ['purchased_inshell_total', 'purchased_shelled_total'] as const;
export type Form2Metric = (typeof FORM_2_METRICS)[number];

/** Form 3 totals (the sums of its rows, computed by the server). */
export const FORM_3_METRICS = ['total_inshell_lb', 'total_shelled_lb', 'total_substandard_lb'] as const;
export type Form3Metric = (typeof FORM_3_METRICS)[number];

/** Form 3 rows: exports to one country. */
export const EXPORT_METRICS = ['inshell_lb', 'shelled_lb', 'substandard_lb'] as const;
export type ExportMetric = (typeof EXPORT_METRICS)[number];

/** Form 5: year-end inventory and pecans handled during the year. */
export const FORM_5_METRICS = [
  'inshell_inventory_improved',
  'inshell_inventory_native',
  'inshell_inventory_substandard',
  'inshell_committed_domestic',
  'inshell_committed_export',
  'inshell_uncommitted',
  'shelled_inventory',
  'shelled_committed_domestic',
  'shelled_committed_export',
  'handled_domestic_improved',
  'handled_domestic_native',
  'handled_domestic_substandard',
] as const;
export type Form5Metric = (typeof FORM_5_METRICS)[number];

/** The aggregates of one group: its figures and how many handlers filed a certified version in it. */
export interface Totals<M extends string> {
  /** Distinct handlers with a certified version in the group (whatever their figures). */
  reportingHandlers: number;
  figures: Record<M, Aggregate>;
}

export type MonthlyFormTable = 'apc_form_1' | 'apc_form_2' | 'apc_form_3';

const num = (v: unknown): number => Number(v ?? 0);

/** `sum(col)` and `count(distinct handler where col <> 0)` for each column, aliased s_<col> and n_<col>. */
function sumAndCount(
  alias: string,
  handlerColumn: string,
  columns: readonly string[],
): AliasedRawBuilder<unknown, string>[] {
  return columns.flatMap((c) => {
    const ref = sql.ref(`${alias}.${c}`);
    return [
      sql`coalesce(sum(${ref}), 0)`.as(`s_${c}`),
      sql`count(distinct case when ${ref} <> 0 then ${sql.ref(handlerColumn)} end)`.as(`n_${c}`),
    ];
  });
}

function totalsOf<M extends string>(row: Record<string, unknown> | undefined, columns: readonly M[]): Totals<M> {
  return {
    reportingHandlers: num(row?.reporting),
    figures: Object.fromEntries(
      columns.map((c) => [c, { value: num(row?.[`s_${c}`]), handlerCount: num(row?.[`n_${c}`]) }]),
    ) as Record<M, Aggregate>,
  };
}

export interface MonthlyScope {
  /** YYYY-MM months to include (an empty list matches nothing). */
  months: readonly string[];
  /** Only this handler's versions (a handler's own figures). */
  handlerId?: string;
}

function monthlyQuery(db: PortalDb, table: MonthlyFormTable, columns: readonly string[], scope: MonthlyScope) {
  let q = anyTableDb(db)
    .selectFrom(`${table} as f`)
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select([
      ...sumAndCount('f', 'f.handler_id', columns),
      sql`count(distinct ${sql.ref('f.handler_id')})`.as('reporting'),
    ])
    .where('f.form_status', '=', 'certified')
    .where('p.period_month', 'in', [...scope.months]);
  if (scope.handlerId) q = q.where('f.handler_id', '=', scope.handlerId);
  return q;
}

/** Totals of a monthly form over all the months in scope together (e.g. a season to date). */
export async function monthlyFormTotals<M extends string>(
  db: PortalDb,
  table: MonthlyFormTable,
  columns: readonly M[],
  scope: MonthlyScope,
): Promise<Totals<M>> {
  if (scope.months.length === 0) return totalsOf(undefined, columns);
  const row = await monthlyQuery(db, table, columns, scope).executeTakeFirst();
  return totalsOf(row as Record<string, unknown> | undefined, columns);
}

/** Totals of a monthly form per month (months without a certified version are absent). */
export async function monthlyFormTotalsByMonth<M extends string>(
  db: PortalDb,
  table: MonthlyFormTable,
  columns: readonly M[],
  scope: MonthlyScope,
): Promise<Map<string, Totals<M>>> {
  if (scope.months.length === 0) return new Map();
  const rows = await monthlyQuery(db, table, columns, scope)
    .select('p.period_month as month')
    .groupBy('p.period_month')
    .execute();
  return new Map(rows.map((r) => [String(r.month), totalsOf(r as Record<string, unknown>, columns)]));
}

/** Every handler's own figures per month, in one query: handler id -> month -> totals. */
export async function monthlyFormTotalsByHandlerAndMonth<M extends string>(
  db: PortalDb,
  table: MonthlyFormTable,
  columns: readonly M[],
  scope: MonthlyScope,
): Promise<Map<string, Map<string, Totals<M>>>> {
  const result = new Map<string, Map<string, Totals<M>>>();
  if (scope.months.length === 0) return result;
  const rows = await monthlyQuery(db, table, columns, scope)
    .select(['p.period_month as month', 'f.handler_id as handler'])
    .groupBy(['p.period_month', 'f.handler_id'])
    .execute();
  for (const r of rows) {
    const handler = String(r.handler);
    if (!result.has(handler)) result.set(handler, new Map());
    result.get(handler)!.set(String(r.month), totalsOf(r as Record<string, unknown>, columns));
  }
  return result;
}

function exportsQuery(db: PortalDb, months: readonly string[]) {
  return db
    .selectFrom('export_by_country as e')
    .innerJoin('apc_form_3 as f', 'f.id', 'e.form_id')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select([
      ...sumAndCount('e', 'f.handler_id', EXPORT_METRICS),
      sql`count(distinct ${sql.ref('f.handler_id')})`.as('reporting'),
      'e.country as country',
    ])
    .where('f.form_status', '=', 'certified')
    .where('p.period_month', 'in', [...months]);
}

export interface CountryTotals extends Totals<ExportMetric> {
  country: string;
}

/** Form 3 rows summed per destination country over the months together. */
export async function exportTotalsByCountry(db: PortalDb, months: readonly string[]): Promise<CountryTotals[]> {
  if (months.length === 0) return [];
  const rows = await exportsQuery(db, months).groupBy('e.country').orderBy('e.country').execute();
  return rows.map((r) => ({ country: String(r.country), ...totalsOf(r as Record<string, unknown>, EXPORT_METRICS) }));
}

/** Form 3 rows summed per month and destination country: month -> countries. */
export async function exportTotalsByMonthAndCountry(
  db: PortalDb,
  months: readonly string[],
): Promise<Map<string, CountryTotals[]>> {
  const result = new Map<string, CountryTotals[]>();
  if (months.length === 0) return result;
  const rows = await exportsQuery(db, months)
    .select('p.period_month as month')
    .groupBy(['p.period_month', 'e.country'])
    .orderBy('p.period_month')
    .orderBy('e.country')
    .execute();
  for (const r of rows) {
    const month = String(r.month);
    if (!result.has(month)) result.set(month, []);
    result.get(month)!.push({ country: String(r.country), ...totalsOf(r as Record<string, unknown>, EXPORT_METRICS) });
  }
  return result;
}

/** The season's certified forms 5 summed. */
export async function yearEndTotals(db: PortalDb, seasonId: string): Promise<Totals<Form5Metric>> {
  const row = await db
    .selectFrom('apc_form_5 as f')
    .select([
      ...sumAndCount('f', 'f.handler_id', FORM_5_METRICS),
      sql`count(distinct ${sql.ref('f.handler_id')})`.as('reporting'),
    ])
    .where('f.form_status', '=', 'certified')
    .where('f.season_id', '=', seasonId)
    .executeTakeFirst();
  return totalsOf(row as Record<string, unknown> | undefined, FORM_5_METRICS);
}

/** Distinct handlers with any certified form 1, 2, 3 in the months or a certified form 5 of the season. */
export async function reportingHandlerCount(
  db: PortalDb,
  months: readonly string[],
  seasonId?: string,
): Promise<number> {
  const monthly = (table: MonthlyFormTable) =>
    anyTableDb(db)
      .selectFrom(`${table} as f`)
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .select('f.handler_id')
      .where('f.form_status', '=', 'certified')
      .where('p.period_month', 'in', [...months]);
  if (months.length === 0 && !seasonId) return 0;
  let union =
    months.length > 0 ? monthly('apc_form_1').union(monthly('apc_form_2')).union(monthly('apc_form_3')) : null;
  if (seasonId) {
    const form5 = db
      .selectFrom('apc_form_5 as f')
      .select('f.handler_id')
      .where('f.form_status', '=', 'certified')
      .where('f.season_id', '=', seasonId);
    union = union ? union.union(form5) : form5;
  }
  const row = await db
    .selectFrom(union!.as('u'))
    .select(sql`count(*)`.as('n'))
    .executeTakeFirst();
  return num(row?.n);
}

/** One handler's export rows of one month to one country, summed (the atoms of disclosure control). */
export interface HandlerExportRow {
  handler: string;
  month: string;
  country: string;
  pounds: Record<ExportMetric, number>;
}

/** Every handler's Form 3 rows per month and country, in one query. */
export async function exportRowsByHandler(db: PortalDb, months: readonly string[]): Promise<HandlerExportRow[]> {
  if (months.length === 0) return [];
  const rows = await exportsQuery(db, months)
    .select(['p.period_month as month', 'f.handler_id as handler'])
    .groupBy(['p.period_month', 'f.handler_id', 'e.country'])
    .execute();
  return rows.map((r) => {
    const t = totalsOf(r as Record<string, unknown>, EXPORT_METRICS);
    return {
      handler: String(r.handler),
      month: String(r.month),
      country: String(r.country),
      pounds: Object.fromEntries(EXPORT_METRICS.map((m) => [m, t.figures[m].value])) as Record<ExportMetric, number>,
    };
  });
}

/** Every handler's certified Form 5 of the season: handler id -> figures. */
export async function yearEndByHandler(db: PortalDb, seasonId: string): Promise<Map<string, Totals<Form5Metric>>> {
  const rows = await db
    .selectFrom('apc_form_5 as f')
    .select([
      ...sumAndCount('f', 'f.handler_id', FORM_5_METRICS),
      sql`count(distinct ${sql.ref('f.handler_id')})`.as('reporting'),
      'f.handler_id as handler',
    ])
    .where('f.form_status', '=', 'certified')
    .where('f.season_id', '=', seasonId)
    .groupBy('f.handler_id')
    .execute();
  return new Map(rows.map((r) => [String(r.handler), totalsOf(r as Record<string, unknown>, FORM_5_METRICS)]));
}
