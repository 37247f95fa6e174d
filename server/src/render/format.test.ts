import { describe, expect, it } from 'vitest';
import { pdfSafe } from './format.js';

describe('pdfSafe', () => {
  it('keeps printable ASCII as it is', () => {
    expect(pdfSafe('Handler 101 - October 2026: 1,234 lbs (in-shell) ~ $5.00')).toBe(
      'Handler 101 - October 2026: 1,234 lbs (in-shell) ~ $5.00',
    );
  });

  it('turns control characters into spaces and keeps what WinAnsi holds', () => {
    expect(pdfSafe('Crème\tbrûlée\nAño')).toBe('Crème brûlée Año');
  });

  it('transliterates what WinAnsi lacks and marks what it cannot spell', () => {
    expect(pdfSafe('Łódź')).toBe('Lódz'); // ó is in WinAnsi, Ł and ź are not
    expect(pdfSafe('李明 Pecan')).toBe('Li Ming Pecan');
    expect(pdfSafe('\u{1F600}')).not.toMatch(/[^\x20-\x7e]/);
  });
});
