import { sumIntegers, totalOf } from './sum.js';

/**
 * Form 3's computed fields, per column (inshell, shelled, substandard):
 * - total: this month, added up from the export_by_country rows;
 * - prior: the season to date BEFORE this month (sums of the current certified versions of the season's earlier
 *   months; zeros for September), which the server passes as `seasonToDate`;
 * - ytd: prior + total, so the form shows a sum the handler can check.
 */
export interface ExportByCountryRow {
  inshell_lb?: number | null;
  shelled_lb?: number | null;
  substandard_lb?: number | null;
}

export interface Form3Totals {
  inshell_lb: number;
  shelled_lb: number;
  substandard_lb: number;
}

export interface Form3Context {
  seasonToDate: Form3Totals;
}

export interface Form3Computed {
  total_inshell_lb: number;
  total_shelled_lb: number;
  total_substandard_lb: number;
  prior_inshell_lb: number;
  prior_shelled_lb: number;
  prior_substandard_lb: number;
  ytd_inshell_lb: number;
  ytd_shelled_lb: number;
  ytd_substandard_lb: number;
}

export function computeForm3(rows: readonly ExportByCountryRow[], context: Form3Context): Form3Computed {
  const month: Form3Totals = {
    inshell_lb: totalOf(rows, 'inshell_lb'),
    shelled_lb: totalOf(rows, 'shelled_lb'),
    substandard_lb: totalOf(rows, 'substandard_lb'),
  };
  const prior = context.seasonToDate;
  return {
    total_inshell_lb: month.inshell_lb,
    total_shelled_lb: month.shelled_lb,
    total_substandard_lb: month.substandard_lb,
    prior_inshell_lb: prior.inshell_lb,
    prior_shelled_lb: prior.shelled_lb,
    prior_substandard_lb: prior.substandard_lb,
    ytd_inshell_lb: sumIntegers([prior.inshell_lb, month.inshell_lb]),
    ytd_shelled_lb: sumIntegers([prior.shelled_lb, month.shelled_lb]),
    ytd_substandard_lb: sumIntegers([prior.substandard_lb, month.substandard_lb]),
  };
}
