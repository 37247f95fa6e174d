import { divideRoundHalfUp } from './rounding.js';

/**
 * THE MONEY RULE of the portal, in one place (docs/FORMS-YEAR-END.md, "Money"):
 * 1. Amounts are worked out exactly in the smallest unit the rates need (mills, a tenth of a cent) with BigInt.
 * 2. A total is rounded to whole cents once, half up (half away from zero for a credit): divideRoundHalfUp.
 * 3. Lines that make up a total are shown in whole cents that add up to that total exactly: each line is rounded
 *    down to whole cents, and the cents still missing go one each to the lines with the largest dropped fractions
 *    (ties: the earlier line). This is the largest-remainder method; no line moves by more than one cent from its
 *    exact value, and the invoice never shows lines that disagree with its total.
 *
 * allocateCents([1005n, 1005n, 1005n], 10n): exact 100.5 + 100.5 + 100.5 = 301.5 cents; the total rounds half up to
 * 302; floors 100 + 100 + 100 = 300; the two missing cents go to the first two lines: [101, 101, 100].
 */
export interface Allocation {
  lines: number[];
  total: number;
}

export function allocateCents(amounts: readonly bigint[], unitsPerCent: bigint): Allocation {
  if (unitsPerCent <= 0n) throw new RangeError('allocateCents needs a positive number of units per cent');
  const sum = amounts.reduce((s, x) => s + x, 0n);
  const total = divideRoundHalfUp(sum, unitsPerCent);
  const negative = sum < 0n;
  // Work on magnitudes so a credit is allocated exactly as the charge it reverses.
  const magnitudes = amounts.map((x) => (negative ? -x : x));
  const floors = magnitudes.map((x) => (x >= 0n ? x / unitsPerCent : -((-x + unitsPerCent - 1n) / unitsPerCent)));
  const remainders = magnitudes.map((x, i) => x - floors[i] * unitsPerCent);
  let missing = (negative ? -total : total) - floors.reduce((s, x) => s + x, 0n);
  const order = remainders.map((r, i) => ({ r, i })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const lines = [...floors];
  for (let k = 0; missing > 0n && order.length > 0; k = (k + 1) % order.length, missing -= 1n) lines[order[k].i] += 1n;
  return { lines: lines.map((x) => Number(negative ? -x : x)), total: Number(total) };
}
