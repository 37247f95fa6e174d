/** The ramp: which rates the steps run at, and the sustained rate they found. */

/** The ladder of rates a ramp climbs, from --rate on. */
export const LADDER = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

/** Steps between the last rate held and the first broken, for a sustained rate finer than the ladder's. */
const REFINE = 2;

/** The largest rate held below every rate that broke; null when none held. */
export function sustainedOf(steps: Array<{ rate: number; held: boolean }>): number | null {
  const lowestBroken = Math.min(...steps.filter((s) => !s.held).map((s) => s.rate));
  const held = steps.filter((s) => s.held && s.rate < lowestBroken).map((s) => s.rate);
  return held.length > 0 ? Math.max(...held) : null;
}

/**
 * The next step: up the ladder while every budget holds; after a break, up to REFINE steps at the geometric middle
 * between the sustained rate and the lowest that broke (2 significant digits), so that two runs' sustained rates
 * compare to within about a fifth (the 1.6x of two processes), not the ladder's 2 to 2.5x.
 */
export function nextRate(ladder: number[], steps: Array<{ rate: number; held: boolean }>): number | null {
  const broken = steps.filter((s) => !s.held);
  if (broken.length === 0) return ladder.find((r) => r > steps.at(-1)!.rate) ?? null;
  const afterBreak = steps.length - steps.findIndex((s) => !s.held) - 1;
  const held = sustainedOf(steps);
  if (held === null || afterBreak >= REFINE) return null;
  const mid = Number(Math.sqrt(held * Math.min(...broken.map((s) => s.rate))).toPrecision(2));
  return mid > held && mid < Math.min(...broken.map((s) => s.rate)) ? mid : null;
}
