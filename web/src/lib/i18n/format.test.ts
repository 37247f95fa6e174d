import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, formatNumber, warmUpIntl } from './format';

describe('formatting with kept formatters', () => {
  it('formats alike on first and later use, per language and options', () => {
    warmUpIntl('en');
    for (let i = 0; i < 2; i += 1) {
      expect(formatDate('2026-11-01', 'en', { month: 'long', year: 'numeric' })).toBe('November 2026');
      expect(formatDate('2026-11-01', 'fr', { month: 'long', year: 'numeric' })).toBe('novembre 2026');
      expect(formatDate('2026-11-01', 'en', { dateStyle: 'long' })).toBe('November 1, 2026');
      expect(formatMoney('1234.5', 'en')).toBe('$1,234.50');
      expect(formatNumber(1234.5, 'en', { maximumFractionDigits: 0 })).toBe('1,235');
    }
  });
});
