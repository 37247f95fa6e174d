import { describe, expect, it } from 'vitest';
import { allocateCents } from './allocate.js';

const MILLS = 10n; // a mill is a tenth of a cent

describe('allocateCents: lines in whole cents that add up to the total', () => {
  it('leaves exact lines alone', () => {
    // 120,000 lb x 10 mills = 1,200,000 mills = 120,000 cents; 0 lb native, 0 lb substandard.
    expect(allocateCents([1_200_000n, 0n, 0n], MILLS)).toEqual({ lines: [120_000, 0, 0], total: 120_000 });
  });

  it('gives the missing cents to the lines with the largest dropped fractions', () => {
    // 100.5 + 100.5 + 100.5 = 301.5 cents; total rounds half up to 302; floors 300; +1 to each of the first two.
    expect(allocateCents([1_005n, 1_005n, 1_005n], MILLS)).toEqual({ lines: [101, 101, 100], total: 302 });
    // 33.3 + 33.3 + 33.4 = 100.0 cents; floors 33 + 33 + 33 = 99; the cent goes to the .4 line.
    expect(allocateCents([333n, 333n, 334n], MILLS)).toEqual({ lines: [33, 33, 34], total: 100 });
  });

  it('never lets per-line rounding disagree with the total', () => {
    // Rounding each line half up would give 1 + 1 + 1 = 3 cents for 0.5 + 0.5 + 0.5 = 1.5 cents, whose total
    // rounds to 2.
    const { lines, total } = allocateCents([5n, 5n, 5n], MILLS);
    expect(total).toBe(2);
    expect(lines).toEqual([1, 1, 0]);
    expect(lines.reduce((s, x) => s + x, 0)).toBe(total);
  });

  it('allocates a credit as the charge it reverses', () => {
    // -100.5 - 100.5 - 100.5 = -301.5 cents -> -302 (half away from zero): [-101, -101, -100].
    expect(allocateCents([-1_005n, -1_005n, -1_005n], MILLS)).toEqual({ lines: [-101, -101, -100], total: -302 });
  });
});
