import { describe, expect, it } from 'vitest';
import { formatCents, formatDollars, MAX_MONEY_CENTS, parseMoney } from './money.js';

const cents = (input: unknown, allowNegative = false) => {
  const result = parseMoney(input, { allowNegative });
  return result.ok ? result.value : result.message;
};

describe('parseMoney', () => {
  it('reads the API form and shorter forms of the same amount', () => {
    expect(cents('1234.50')).toBe(123450);
    expect(cents('1234.5')).toBe(123450);
    expect(cents('1234')).toBe(123400);
    expect(cents('0.01')).toBe(1);
    expect(cents('0')).toBe(0);
  });

  it('is exact where floats are not (0.1 + 0.2 style amounts)', () => {
    expect(cents('0.29')).toBe(29); // 0.29 * 100 === 28.999999999999996 in floating point
    expect(cents('1.15')).toBe(115);
    expect(cents('999999999999.99')).toBe(MAX_MONEY_CENTS);
  });

  it('refuses more than two decimal places', () => {
    expect(cents('1.005')).toBe('must have at most 2 decimal places');
    expect(cents('0.001')).toBe('must have at most 2 decimal places');
  });

  it('refuses negatives unless allowed, and treats -0 as 0', () => {
    expect(cents('-1.00')).toBe('must not be negative');
    expect(cents('-1.00', true)).toBe(-100);
    expect(cents('-0.00')).toBe(0);
  });

  it('refuses numbers, garbage and loose formats', () => {
    expect(cents(1234.5)).toBe('must be a decimal string such as "1234.50", not a number');
    for (const bad of ['', ' 1.00', '1.00 ', '1,234.50', '$5', '+1', '1.', '.50', '1e3', 'abc', '0x10', '１２']) {
      expect(cents(bad), bad).toMatch(/^must be a decimal string/);
    }
    expect(cents('007.00')).toMatch(/without leading zeros/);
    expect(cents(null)).toMatch(/^must be a decimal string/);
    expect(cents('1000000000000.00')).toBe('must be at most 999999999999.99');
  });
});

describe('formatCents', () => {
  it('writes two places', () => {
    expect(formatCents(123450)).toBe('1234.50');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(-500)).toBe('-5.00');
    expect(formatCents(12345678901234567n)).toBe('123456789012345.67');
  });

  it('refuses fractions of a cent', () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });

  it('round-trips', () => {
    for (const value of [0, 1, 99, 100, 123450, MAX_MONEY_CENTS]) expect(cents(formatCents(value))).toBe(value);
  });
});

describe('formatDollars', () => {
  it('groups thousands for display', () => {
    expect(formatDollars(360000)).toBe('$3,600.00');
    expect(formatDollars(123456789)).toBe('$1,234,567.89');
    expect(formatDollars(-500)).toBe('-$5.00');
    expect(formatDollars(99)).toBe('$0.99');
  });
});
