import { describe, expect, it } from 'vitest';
import { divideRoundHalfUp, toSafeNumber } from './rounding.js';

describe('divideRoundHalfUp', () => {
  it('rounds halves up and the rest to nearest', () => {
    expect(divideRoundHalfUp(25n, 10n)).toBe(3n);
    expect(divideRoundHalfUp(24n, 10n)).toBe(2n);
    expect(divideRoundHalfUp(26n, 10n)).toBe(3n);
    expect(divideRoundHalfUp(20n, 10n)).toBe(2n);
    expect(divideRoundHalfUp(0n, 10n)).toBe(0n);
  });

  it('rounds negative halves away from zero', () => {
    expect(divideRoundHalfUp(-25n, 10n)).toBe(-3n);
    expect(divideRoundHalfUp(-24n, 10n)).toBe(-2n);
  });

  it('refuses a zero denominator', () => {
    expect(() => divideRoundHalfUp(1n, 0n)).toThrow(RangeError);
  });
});

describe('toSafeNumber', () => {
  it('refuses values a number cannot hold exactly', () => {
    expect(toSafeNumber(123n)).toBe(123);
    expect(() => toSafeNumber(2n ** 60n)).toThrow(RangeError);
  });
});
