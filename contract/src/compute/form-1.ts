import { assessmentDue } from '../assessment/assessment-due.js';
import type { VarietyRow } from '../forms/value-schemas.js';
import { sumIntegers, totalOf } from './sum.js';

/**
 * Form 1's computed fields. The server stores the result with each write; the web app calls the same function as
 * the user types, so both show the same figures.
 *
 * What the server passes (all in stored units, pounds and cents):
 * - `seasonToDate`: sums over the months of the same season BEFORE this one, taking the current certified version
 *   of each month's form (zeros for September). Sums rather than last month's YTD figures, so an amendment of an
 *   earlier month flows into later months when they are recomputed.
 * - `previousMonth`: the previous calendar month's certified current version (for September that is August of the
 *   previous season), or null when there is none.
 *
 * Empty fields of a draft count as 0.
 *
 * shipments_total is shipments_inshell + shipments_shelled, the pounds shipped to end users as reported (inshell
 * and shelled pounds added as they are, no inshell conversion); inter-handler transfers are not shipments to end
 * users and stay apart, as in APC's position reports.
 */
export interface Form1Entered {
  receipts_by_variety?: readonly VarietyRow[] | null;
  receipts_native?: number | null;
  receipts_substandard?: number | null;
  shipments_inshell?: number | null;
  shipments_shelled?: number | null;
}

export interface Form1SeasonToDate {
  receipts_improved: number;
  receipts_native: number;
  receipts_substandard: number;
  shipments_total: number;
}

export interface Form1Context {
  /** The activity month 'YYYY-MM': picks the assessment rate. */
  periodMonth: string;
  seasonToDate: Form1SeasonToDate;
  previousMonth: { shipments_total: number } | null;
}

export interface Form1Computed {
  receipts_improved: number;
  receipts_total: number;
  receipts_ytd_improved: number;
  receipts_ytd_native: number;
  receipts_ytd_substandard: number;
  /** Cents. */
  assessment_due: number;
  shipments_total: number;
  shipments_prev_month: number;
  shipments_ytd: number;
}

export const EMPTY_FORM_1_SEASON_TO_DATE: Form1SeasonToDate = Object.freeze({
  receipts_improved: 0, receipts_native: 0, receipts_substandard: 0, shipments_total: 0,
});

export function computeForm1(entered: Form1Entered, context: Form1Context): Form1Computed {
  const improved = totalOf(entered.receipts_by_variety ?? [], 'pounds');
  const native = entered.receipts_native ?? 0;
  const substandard = entered.receipts_substandard ?? 0;
  const shipments = sumIntegers([entered.shipments_inshell, entered.shipments_shelled]);
  const before = context.seasonToDate;
  return {
    receipts_improved: improved,
    receipts_total: sumIntegers([improved, native, substandard]),
    receipts_ytd_improved: sumIntegers([before.receipts_improved, improved]),
    receipts_ytd_native: sumIntegers([before.receipts_native, native]),
    receipts_ytd_substandard: sumIntegers([before.receipts_substandard, substandard]),
    assessment_due: assessmentDue({ improved, native, substandard }, context.periodMonth),
    shipments_total: shipments,
    shipments_prev_month: context.previousMonth?.shipments_total ?? 0,
    shipments_ytd: sumIntegers([before.shipments_total, shipments]),
  };
}
