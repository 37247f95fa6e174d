import { formatFixedPoint, parseFixedPoint } from './fixed-point.js';
import type { ParseResult } from './parse-result.js';
import { toSafeNumber } from './rounding.js';

/**
 * A price per pound (form 5's average price paid, 986.175(a)) is US dollars to four decimal places: "2.3475"
 * dollars a pound. In code and the database it is integer ten-thousandths of a dollar (23475); on the API the
 * decimal string. Four places because a price per pound in whole cents loses up to half a cent a pound, which on
 * a season's purchases is thousands of dollars.
 */
export const PRICE_SCALE = 10_000;
/** $9,999.9999 a pound: far above any pecan price, low enough to catch a total typed in the wrong box. */
export const MAX_PRICE_E4 = 99_999_999;

/** "2.35" or "2.3475" -> 23500 / 23475; refuses more than 4 places, negatives, numbers and garbage. */
export function parsePrice(input: unknown): ParseResult<number> {
  const result = parseFixedPoint(input, {
    places: 4,
    allowNegative: false,
    maxUnits: BigInt(MAX_PRICE_E4),
    example: '2.3475',
  });
  return result.ok ? { ok: true, value: toSafeNumber(result.value) } : result;
}

/** 23475 -> "2.3475". */
export function formatPrice(e4: number | bigint): string {
  if (typeof e4 === 'number' && !Number.isSafeInteger(e4)) throw new RangeError(`${e4} is not whole ten-thousandths`);
  return formatFixedPoint(e4, 4);
}
