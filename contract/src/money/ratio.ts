import { formatFixedPoint, parseFixedPoint } from './fixed-point.js';
import type { ParseResult } from './parse-result.js';
import { toSafeNumber } from './rounding.js';

/**
 * Ratios (the shell-out yield) are integer ten-thousandths in code and the database and a decimal string with
 * four places on the API: "0.4800" <-> 4800.
 */
export const RATIO_SCALE = 10_000;

export interface RatioParseOptions {
  /** Largest ratio allowed, in ten-thousandths; default 1.0000 (a yield cannot exceed the inshell weight). */
  maxE4?: number;
}

/** "0.48" or "0.4800" -> 4800; refuses more than 4 places, negatives, numbers and garbage. */
export function parseRatio(input: unknown, options: RatioParseOptions = {}): ParseResult<number> {
  const result = parseFixedPoint(input, {
    places: 4,
    allowNegative: false,
    maxUnits: BigInt(options.maxE4 ?? RATIO_SCALE),
    example: '0.4800',
  });
  return result.ok ? { ok: true, value: toSafeNumber(result.value) } : result;
}

/** 4800 -> "0.4800". */
export function formatRatio(e4: number | bigint): string {
  if (typeof e4 === 'number' && !Number.isSafeInteger(e4)) throw new RangeError(`${e4} is not whole ten-thousandths`);
  return formatFixedPoint(e4, 4);
}
