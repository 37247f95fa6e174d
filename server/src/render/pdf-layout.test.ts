import { describe, expect, it } from 'vitest';
import { PdfLayout } from './pdf-layout.js';

describe('PdfLayout.width', () => {
  it('gives what pdf-lib measures, for each font and size, whether measured before or not', async () => {
    const first = await PdfLayout.create({ title: 'First' });
    const second = await PdfLayout.create({ title: 'Second' });
    for (const font of ['regular', 'bold', 'oblique'] as const) {
      for (const size of [7, 10.5]) {
        const text = `Western Schley ${font} ${size}: 1,234,567 lb`;
        const measured = first.font(font).widthOfTextAtSize(text, size);
        expect(first.width(text, size, font)).toBe(measured);
        expect(second.width(text, size, font)).toBe(measured);
      }
    }
    expect(first.width('WAVE', 10, 'bold')).not.toBe(first.width('WAVE', 10, 'regular'));
    expect(first.width('WAVE', 12, 'bold')).toBeCloseTo((first.width('WAVE', 10, 'bold') * 12) / 10, 9);
  });
});
