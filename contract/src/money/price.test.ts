import { describe, expect, it } from 'vitest';
import { formatPrice, parsePrice } from './price.js';

describe('prices per pound to four places', () => {
  it('reads dollars a pound with up to four places', () => {
    expect(parsePrice('2.3475')).toEqual({ ok: true, value: 23_475 });
    expect(parsePrice('2.35')).toEqual({ ok: true, value: 23_500 });
    expect(parsePrice('0')).toEqual({ ok: true, value: 0 });
  });

  it('refuses a fifth place, negatives and numbers', () => {
    expect(parsePrice('2.34751').ok).toBe(false);
    expect(parsePrice('-1.00').ok).toBe(false);
    expect(parsePrice(2.35).ok).toBe(false);
  });

  it('writes four places', () => {
    expect(formatPrice(23_475)).toBe('2.3475');
    expect(formatPrice(5)).toBe('0.0005');
  });
});
