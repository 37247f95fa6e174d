import { divideRoundHalfUp, toSafeNumber } from '../money/rounding.js';
import { RATIO_SCALE } from '../money/ratio.js';
import { sumIntegers } from './sum.js';

/**
 * Form 5's computed fields (year-end inventory as of 31 August).
 *
 * - inshell_uncommitted = inshell inventory (all types) - inshell committed (domestic + export), never below 0
 *   (certification refuses commitments above the inventory; while typing the web app shows 0).
 * - shelled_uncommitted = shelled inventory - shelled committed (domestic + export), the same way.
 * - Shelled pounds become inshell pounds at the handler's shell-out yield: shelled / yield, rounded half up to whole
 *   pounds. With no yield entered (0), the default factor is used: 0.5, as trade summaries of APC's reports use,
 *   configurable by `defaultYieldE4`.
 * - total_inventory_inshell_basis = inshell inventory + the whole shelled inventory converted (one rounding).
 * - committed_inshell_basis = inshell committed + shelled committed converted.
 * - uncommitted_inshell_basis = total - committed, so that committed + uncommitted is the total exactly (the
 *   combined committed plus uncommitted inventory on an inshell basis the form asks for), never two roundings that
 *   disagree by a pound.
 * - aug_form_1_inventory_*: the August Form 1's inventory (the server passes the current certified version's
 *   figures; null when there is none). augustForm1Differences compares them with this form.
 * - assessments: what the server passes in `context`, in cents: `owedCents` the season's assessments due (what the
 *   season's invoices owe: the current certified Form 1 versions' assessments, with the lines form 4 agreements
 *   naming the receiver responsible moved onto or off them), `paidCents` what the handler paid on the season's
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
  shelled_committed_domestic?: number | null;
  shelled_committed_export?: number | null;
  /** Ten-thousandths, e.g. 4800 for "0.4800". */
  shellout_yield?: number | null;
}

export interface Form5Context {
  owedCents: number;
  paidCents: number;
  /** The current certified August Form 1 of the season's end, or null when there is none. */
  augustForm1?: { inventory_inshell: number; inventory_shelled: number } | null;
}

export interface Form5Options {
  /** The yield used when the form has none (0): ten-thousandths, default 5000 (0.5). */
  defaultYieldE4?: number;
}

export interface Form5Computed {
  inshell_uncommitted: number;
  shelled_uncommitted: number;
  committed_inshell_basis: number;
  uncommitted_inshell_basis: number;
  total_inventory_inshell_basis: number;
  /** Cents. */
  assessments_owed: number;
  assessments_paid: number;
  assessments_remaining: number;
  aug_form_1_inventory_inshell: number | null;
  aug_form_1_inventory_shelled: number | null;
}

/** Shelled pounds as inshell pounds: 1,000 lb shelled at a 0.4800 yield -> 2,083 lb inshell (2,083.33 rounded). */
export function inshellBasisOfShelled(shelledPounds: number, yieldE4: number): number {
  if (!Number.isSafeInteger(yieldE4) || yieldE4 <= 0) throw new RangeError('A shell-out yield must be more than 0');
  return toSafeNumber(divideRoundHalfUp(BigInt(shelledPounds) * BigInt(RATIO_SCALE), BigInt(yieldE4)));
}

export function computeForm5(entered: Form5Entered, context: Form5Context, options: Form5Options = {}): Form5Computed {
  const inshell = sumIntegers([
    entered.inshell_inventory_improved,
    entered.inshell_inventory_native,
    entered.inshell_inventory_substandard,
  ]);
  const committed = sumIntegers([entered.inshell_committed_domestic, entered.inshell_committed_export]);
  const shelled = entered.shelled_inventory ?? 0;
  const shelledCommitted = sumIntegers([entered.shelled_committed_domestic, entered.shelled_committed_export]);
  const yieldE4 = entered.shellout_yield || (options.defaultYieldE4 ?? DEFAULT_SHELLOUT_YIELD_E4);
  const total = sumIntegers([inshell, inshellBasisOfShelled(shelled, yieldE4)]);
  const committedBasis = sumIntegers([committed, inshellBasisOfShelled(shelledCommitted, yieldE4)]);
  return {
    inshell_uncommitted: Math.max(0, inshell - committed),
    shelled_uncommitted: Math.max(0, shelled - shelledCommitted),
    committed_inshell_basis: committedBasis,
    uncommitted_inshell_basis: Math.max(0, total - committedBasis),
    total_inventory_inshell_basis: total,
    assessments_owed: context.owedCents,
    assessments_paid: context.paidCents,
    assessments_remaining: sumIntegers([context.owedCents, -context.paidCents]),
    aug_form_1_inventory_inshell: context.augustForm1?.inventory_inshell ?? null,
    aug_form_1_inventory_shelled: context.augustForm1?.inventory_shelled ?? null,
  };
}

/**
 * Where form 5 and the August Form 1 disagree (986.175(a): the year-end inventory is the inventory of 31 August,
 * which the August Form 1 also reports). Compared on each basis, never adding inshell to shelled pounds:
 * - inshell: form 5's inshell inventory of all types against the August Form 1's inventory_inshell;
 * - shelled: form 5's shelled inventory against the August Form 1's inventory_shelled.
 * Each difference is form 5 minus Form 1. No August Form 1 certified: nothing to compare, no difference.
 * When any difference is not 0 the August Form 1 must be amended, and "no" is not an answer a handler can give.
 */
export interface AugustDifference {
  basis: 'inshell' | 'shelled';
  form5: number;
  augustForm1: number;
  difference: number;
}

type Form5Values = Record<string, unknown>;
const poundsOf = (values: Form5Values, name: string): number => Number(values[name] ?? 0);

export function augustForm1Differences(values: Form5Values): AugustDifference[] {
  const augustInshell = values.aug_form_1_inventory_inshell;
  const augustShelled = values.aug_form_1_inventory_shelled;
  if (augustInshell === null || augustInshell === undefined || augustShelled === null || augustShelled === undefined)
    return [];
  const form5Inshell =
    poundsOf(values, 'inshell_inventory_improved') +
    poundsOf(values, 'inshell_inventory_native') +
    poundsOf(values, 'inshell_inventory_substandard');
  const form5Shelled = poundsOf(values, 'shelled_inventory');
  return [
    {
      basis: 'inshell' as const,
      form5: form5Inshell,
      augustForm1: Number(augustInshell),
      difference: form5Inshell - Number(augustInshell),
    },
    {
      basis: 'shelled' as const,
      form5: form5Shelled,
      augustForm1: Number(augustShelled),
      difference: form5Shelled - Number(augustShelled),
    },
  ].filter((d) => d.difference !== 0);
}

/** True when the August Form 1 must be amended: its inventory differs from form 5's on either basis. */
export const augustForm1MustBeAmended = (values: Form5Values): boolean => augustForm1Differences(values).length > 0;
