/**
 * Integer division rounded half up (for negative numbers: half away from zero), on BigInt so that no product of
 * pounds and rates can lose precision. This is the one place where money is rounded.
 *
 * Example: divideRoundHalfUp(25n, 10n) === 3n (2.5 rounds up); divideRoundHalfUp(24n, 10n) === 2n.
 */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('divideRoundHalfUp needs a positive denominator');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

/** A BigInt result back to a number, refusing anything a JavaScript number cannot hold exactly. */
export function toSafeNumber(value: bigint): number {
  const result = Number(value);
  if (!Number.isSafeInteger(result)) throw new RangeError(`${value} is too large to be held exactly`);
  return result;
}
