import { describe, expect, it } from 'vitest';
import { formatRatio, parseRatio } from './ratio.js';

const e4 = (input: unknown) => {
  const result = parseRatio(input);
  return result.ok ? result.value : result.message;
};

describe('ratios in ten-thousandths', () => {
  it('parses up to four places', () => {
    expect(e4('0.4800')).toBe(4800);
    expect(e4('0.48')).toBe(4800);
    expect(e4('0.0001')).toBe(1);
    expect(e4('1')).toBe(10_000);
    expect(e4('0')).toBe(0);
  });

  it('refuses more places, values above 1, negatives and numbers', () => {
    expect(e4('0.48001')).toBe('must have at most 4 decimal places');
    expect(e4('1.0001')).toBe('must be at most 1.0000');
    expect(e4('-0.5')).toBe('must not be negative');
    expect(e4(0.48)).toMatch(/not a number/);
  });

  it('formats with four places', () => {
    expect(formatRatio(4800)).toBe('0.4800');
    expect(formatRatio(10_000)).toBe('1.0000');
    expect(formatRatio(5)).toBe('0.0005');
  });
});
