import { sumIntegers, totalOf } from './sum.js';

/**
 * Form 2's computed fields: the month's purchases outside the US added up from its rows, and the season-to-date
 * pounds sent to and returned from Mexico.
 *
 * `seasonToDate` holds the sums over the same season's months BEFORE this one (current certified versions; zeros
 * for September), as for Form 1.
 */
export interface PurchasedNonUsRow {
  inshell_lb?: number | null;
  shelled_lb?: number | null;
}

export interface Form2Entered {
  mexico_inshell_lb?: number | null;
  mexico_shelled_lb?: number | null;
}

export interface Form2Context {
  seasonToDate: { mexico_inshell_lb: number; mexico_shelled_lb: number };
}

export interface Form2Computed {
  purchased_inshell_total: number;
  purchased_shelled_total: number;
  mexico_ytd_inshell_lb: number;
  mexico_ytd_shelled_lb: number;
}

export function computeForm2(
  entered: Form2Entered,
  rows: readonly PurchasedNonUsRow[],
  context: Form2Context,
): Form2Computed {
  return {
    purchased_inshell_total: totalOf(rows, 'inshell_lb'),
    purchased_shelled_total: totalOf(rows, 'shelled_lb'),
    mexico_ytd_inshell_lb: sumIntegers([context.seasonToDate.mexico_inshell_lb, entered.mexico_inshell_lb]),
    mexico_ytd_shelled_lb: sumIntegers([context.seasonToDate.mexico_shelled_lb, entered.mexico_shelled_lb]),
  };
}
