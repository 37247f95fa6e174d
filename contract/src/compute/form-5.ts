import { divideRoundHalfUp, toSafeNumber } from '../money/rounding.js';
import { RATIO_SCALE } from '../money/ratio.js';
import { sumIntegers } from './sum.js';

/**
 * Form 5's computed fields (year-end inventory as of 31 August).
 *
 * - inshell_uncommitted = inshell inventory (all types) - inshell committed (domestic + export), never below 0
 *   (certification refuses commitments above the inventory; while typing the web app shows 0).
 * - total_inventory_inshell_basis = inshell inventory + shelled inventory converted to inshell pounds at the
 *   handler's shell-out yield: shelled / yield, rounded half up to whole pounds. With no yield entered (0), the
 *   default factor is used: 0.5, as trade summaries of APC's reports use, configurable by `defaultYieldE4`.
 * - assessments: what the server passes in `context`, in cents: `owedCents` the season's assessments due (the sum
 *   of the current certified Form 1 versions' assessment_due), `paidCents` what the handler paid on the season's
 *   invoices. remaining = owed - paid; negative means the handler paid more than it owed (a credit).
 */
export const DEFAULT_SHELLOUT_YIELD_E4 = 5_000;

export interface Form5Entered {
  inshell_inventory_improved?: number | null;
  inshell_inventory_native?: number | null;
  inshell_inventory_substandard?: number | null;
  inshell_committed_domestic?: number | null;
  inshell_committed_export?: number | null;
  shelled_inventory?: number | null;
  /** Ten-thousandths, e.g. 4800 for "0.4800". */
  shellout_yield?: number | null;
}

export interface Form5Context {
  owedCents: number;
  paidCents: number;
}

export interface Form5Options {
  /** The yield used when the form has none (0): ten-thousandths, default 5000 (0.5). */
  defaultYieldE4?: number;
}

export interface Form5Computed {
  inshell_uncommitted: number;
  total_inventory_inshell_basis: number;
  /** Cents. */
  assessments_owed: number;
  assessments_paid: number;
  assessments_remaining: number;
}

/** Shelled pounds as inshell pounds: 1,000 lb shelled at a 0.4800 yield -> 2,083 lb inshell (2,083.33 rounded). */
export function inshellBasisOfShelled(shelledPounds: number, yieldE4: number): number {
  if (!Number.isSafeInteger(yieldE4) || yieldE4 <= 0) throw new RangeError('A shell-out yield must be more than 0');
  return toSafeNumber(divideRoundHalfUp(BigInt(shelledPounds) * BigInt(RATIO_SCALE), BigInt(yieldE4)));
}

export function computeForm5(entered: Form5Entered, context: Form5Context, options: Form5Options = {}): Form5Computed {
  const inshell = sumIntegers([
    entered.inshell_inventory_improved, entered.inshell_inventory_native, entered.inshell_inventory_substandard,
  ]);
  const committed = sumIntegers([entered.inshell_committed_domestic, entered.inshell_committed_export]);
  const yieldE4 = entered.shellout_yield || (options.defaultYieldE4 ?? DEFAULT_SHELLOUT_YIELD_E4);
  return {
    inshell_uncommitted: Math.max(0, inshell - committed),
    total_inventory_inshell_basis: sumIntegers([inshell, inshellBasisOfShelled(entered.shelled_inventory ?? 0, yieldE4)]),
    assessments_owed: context.owedCents,
    assessments_paid: context.paidCents,
    assessments_remaining: sumIntegers([context.owedCents, -context.paidCents]),
  };
}
