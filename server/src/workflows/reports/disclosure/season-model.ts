import { variableOf } from './auditor.js';
import { primaryReason, type DisclosureRules } from './rules.js';
import type { CandidateFigure } from './suppression.js';

/**
 * Everything the portal publishes about a season, as sums of atoms. An atom is one metric of one month
 * (`f1.receipts_native.2025-10`), one export row kind to one country in one month (`x.inshell_lb.MX.2025-10`) or one
 * year-end metric (`f5.shelled_inventory`), with each handler's contribution. A publication is a list of figures, each
 * the sum of some atoms:
 * - a month (its position report, and the month's rows of the industry workbook, the handler analytics and the
 *   analytics charts): every metric of the month, season-to-date sums, countries, the month's export totals (Form 3
 *   totals), and the charts' sums (all receipts, improved + native receipts, all shipments);
 * - the season (the annual report): season totals, countries over the season, year-end figures.
 */

/** Form 1 metrics reported for the month and season to date. */
export const FLOW_METRICS = [
  'receipts_improved',
  'receipts_native',
  'receipts_substandard',
  'shipments_inshell',
  'shipments_shelled',
  'interhandler_shipped',
] as const;
/** Form 1 metrics that are a month-end position (inventory, commitments): the month only. */
export const STOCK_METRICS = [
  'inventory_inshell',
  'inventory_shelled',
  'committed_domestic',
  'committed_export',
] as const;
export const FOREIGN_METRICS = ['purchased_inshell_total', 'purchased_shelled_total'] as const;
export const EXPORT_KINDS = ['inshell_lb', 'shelled_lb', 'substandard_lb'] as const;
export const YEAR_END_METRICS = [
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
/** The analytics charts' sums of Form 1 metrics of a month. */
export const CHART_SUMS: Record<string, readonly string[]> = {
  receipts_total: ['receipts_improved', 'receipts_native', 'receipts_substandard'],
  receipts_improved_native: ['receipts_improved', 'receipts_native'],
};

/** Atom key -> handler id -> pounds. */
export type SeasonAtoms = Map<string, Map<string, number>>;

export const f1Atom = (metric: string, month: string) => `f1.${metric}.${month}`;
export const f2Atom = (metric: string, month: string) => `f2.${metric}.${month}`;
export const exportAtom = (kind: string, country: string, month: string) => `x.${kind}.${country}.${month}`;
export const f5Atom = (metric: string) => `f5.${metric}`;

/** Figure keys, by what the figure is. */
export const figureKeys = {
  month: (atom: string) => atom,
  seasonToDate: (series: string, month: string) => `std:${series}:${month}`,
  season: (series: string) => `season:${series}`,
  exportTotal: (kind: string, month: string) => `total:x.${kind}:${month}`,
  chart: (sum: string, month: string) => `chart:${sum}:${month}`,
};

export interface FigureDefinition {
  key: string;
  atoms: string[];
}

/** Countries with any export row in the atoms up to and including `lastMonth`, sorted. */
export function countriesOf(atoms: SeasonAtoms, months: readonly string[]): string[] {
  const wanted = new Set(months);
  const countries = new Set<string>();
  for (const key of atoms.keys()) {
    if (!key.startsWith('x.')) continue;
    // x.<kind>.<country>.<YYYY-MM>: a country reported by name may itself hold dots.
    const month = key.slice(-7);
    const afterKind = key.indexOf('.', 2) + 1;
    if (wanted.has(month)) countries.add(key.slice(afterKind, key.length - 8));
  }
  return [...countries].sort();
}

/** The figures of a month's publication; `seasonMonths` are the season's months in order. */
export function monthFigures(month: string, seasonMonths: readonly string[], atoms: SeasonAtoms): FigureDefinition[] {
  const toDate = seasonMonths.filter((m) => m <= month);
  const out: FigureDefinition[] = [];
  const series = (name: string, atomOf: (m: string) => string) => {
    out.push({ key: figureKeys.month(atomOf(month)), atoms: [atomOf(month)] });
    out.push({ key: figureKeys.seasonToDate(name, month), atoms: toDate.map(atomOf) });
  };
  for (const m of FLOW_METRICS) series(`f1.${m}`, (mo) => f1Atom(m, mo));
  for (const m of STOCK_METRICS) out.push({ key: figureKeys.month(f1Atom(m, month)), atoms: [f1Atom(m, month)] });
  for (const m of FOREIGN_METRICS) series(`f2.${m}`, (mo) => f2Atom(m, mo));
  const countries = countriesOf(atoms, toDate);
  for (const kind of EXPORT_KINDS) {
    for (const c of countries) series(`x.${kind}.${c}`, (mo) => exportAtom(kind, c, mo));
    out.push({ key: figureKeys.exportTotal(kind, month), atoms: countries.map((c) => exportAtom(kind, c, month)) });
  }
  for (const [sum, metrics] of Object.entries(CHART_SUMS))
    out.push({ key: figureKeys.chart(sum, month), atoms: metrics.map((m) => f1Atom(m, month)) });
  return out;
}

/** The figures of the season's annual report. */
export function seasonFigures(seasonMonths: readonly string[], atoms: SeasonAtoms): FigureDefinition[] {
  const out: FigureDefinition[] = [];
  for (const m of FLOW_METRICS)
    out.push({ key: figureKeys.season(`f1.${m}`), atoms: seasonMonths.map((mo) => f1Atom(m, mo)) });
  for (const m of FOREIGN_METRICS)
    out.push({ key: figureKeys.season(`f2.${m}`), atoms: seasonMonths.map((mo) => f2Atom(m, mo)) });
  for (const kind of EXPORT_KINDS) {
    for (const c of countriesOf(atoms, seasonMonths)) {
      out.push({ key: figureKeys.season(`x.${kind}.${c}`), atoms: seasonMonths.map((mo) => exportAtom(kind, c, mo)) });
    }
  }
  for (const m of YEAR_END_METRICS) out.push({ key: figureKeys.month(f5Atom(m)), atoms: [f5Atom(m)] });
  return out;
}

/** An atom's total (0 when no handler reported it). */
export function atomValue(atoms: SeasonAtoms, key: string): number {
  let sum = 0;
  for (const v of atoms.get(key)?.values() ?? []) sum += v;
  return sum;
}

/** A figure ready for the suppression plan: its value, its atoms as variables, and the primary rules applied. */
export function candidateOf(
  def: FigureDefinition,
  atoms: SeasonAtoms,
  rules: DisclosureRules,
): CandidateFigure & { atomValues: Record<string, number> } {
  const contributions = new Map<string, number>();
  const atomValues: Record<string, number> = {};
  for (const a of def.atoms) {
    atomValues[a] = atomValue(atoms, a);
    for (const [handler, v] of atoms.get(a) ?? []) contributions.set(handler, (contributions.get(handler) ?? 0) + v);
  }
  const value = Object.values(atomValues).reduce((s, v) => s + v, 0);
  return {
    key: def.key,
    value,
    atomValues,
    primary: primaryReason(contributions, rules),
    atoms: def.atoms.map((a) => variableOf(a, atomValues[a])),
  };
}
