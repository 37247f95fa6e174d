import { formatFixedPoint, parseFixedPoint } from './fixed-point.js';
import type { ParseResult } from './parse-result.js';
import { toSafeNumber } from './rounding.js';

/**
 * Money is integer cents everywhere in code and the database; on the API it is a decimal string with two places
 * ("1234.50"), never a float (see shared/contract/api.md). Cents are plain numbers: the largest amount allowed,
 * MAX_MONEY_CENTS, is far below Number.MAX_SAFE_INTEGER, so sums of a season's invoices stay exact.
 */
export const MAX_MONEY_CENTS = 99_999_999_999_999; // $999,999,999,999.99

export interface MoneyParseOptions {
  /** Negative amounts are refused unless allowed (credits, remaining balances). */
  allowNegative?: boolean;
}

/**
 * "1234.50" -> 123450. Also accepts 0 or 1 decimal places ("1234", "1234.5"), which mean the same amount;
 * refuses more than 2 places ("1.005"), numbers (1234.5), signs other than a leading "-", thousands separators,
 * spaces, leading zeros and anything else.
 */
export function parseMoney(input: unknown, options: MoneyParseOptions = {}): ParseResult<number> {
  const result = parseFixedPoint(input, {
    places: 2,
    allowNegative: options.allowNegative ?? false,
    maxUnits: BigInt(MAX_MONEY_CENTS),
    example: '1234.50',
  });
  return result.ok ? { ok: true, value: toSafeNumber(result.value) } : result;
}

/** 123450 -> "1234.50", the API's form. */
export function formatCents(cents: number | bigint): string {
  if (typeof cents === 'number' && !Number.isSafeInteger(cents)) throw new RangeError(`${cents} is not whole cents`);
  return formatFixedPoint(cents, 2);
}

/** 123450 -> "$1,234.50"; -500 -> "-$5.00". For display; independent of the browser's locale. */
export function formatDollars(cents: number | bigint): string {
  const plain = formatCents(cents);
  const negative = plain.startsWith('-');
  const [whole, fraction] = (negative ? plain.slice(1) : plain).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${fraction}`;
}
