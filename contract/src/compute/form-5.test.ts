import { describe, expect, it } from 'vitest';
import { augustForm1Differences, augustForm1MustBeAmended, computeForm5, inshellBasisOfShelled } from './form-5.js';

const entered = {
  inshell_inventory_improved: 100_000,
  inshell_inventory_native: 20_000,
  inshell_inventory_substandard: 0,
  inshell_committed_domestic: 50_000,
  inshell_committed_export: 30_000,
  shelled_inventory: 10_000,
  shelled_committed_domestic: 3_000,
  shelled_committed_export: 1_000,
  shellout_yield: 4_800,
};
const paidInFull = { owedCents: 900_000, paidCents: 900_000 };

describe('computeForm5', () => {
  it('works out uncommitted inventory and the inshell basis at the handler yield', () => {
    expect(computeForm5(entered, paidInFull)).toEqual({
      inshell_uncommitted: 40_000, // 120,000 - 80,000
      shelled_uncommitted: 6_000, // 10,000 - (3,000 + 1,000)
      committed_inshell_basis: 88_333, // 80,000 + 4,000 / 0.48 = 80,000 + 8,333.33 -> 88,333
      uncommitted_inshell_basis: 52_500, // 140,833 - 88,333 (40,000 + 6,000 / 0.48 = 52,500 exactly)
      total_inventory_inshell_basis: 140_833, // 120,000 + 10,000 / 0.48 = 120,000 + 20,833.33
      assessments_owed: 900_000,
      assessments_paid: 900_000,
      assessments_remaining: 0,
      aug_form_1_inventory_inshell: null,
      aug_form_1_inventory_shelled: null,
    });
  });

  it('falls back to the default yield of 0.5 when none is entered, or to a configured one', () => {
    expect(computeForm5({ ...entered, shellout_yield: 0 }, paidInFull).total_inventory_inshell_basis).toBe(140_000);
    expect(
      computeForm5({ ...entered, shellout_yield: null }, paidInFull, { defaultYieldE4: 4_000 })
        .total_inventory_inshell_basis,
    ).toBe(145_000);
  });

  it('never shows negative uncommitted pounds', () => {
    expect(computeForm5({ ...entered, inshell_committed_export: 90_000 }, paidInFull).inshell_uncommitted).toBe(0);
  });

  it('reconciles the assessments; an overpayment is a negative remainder', () => {
    expect(computeForm5(entered, { owedCents: 900_000, paidCents: 850_000 }).assessments_remaining).toBe(50_000);
    expect(computeForm5(entered, { owedCents: 900_000, paidCents: 950_000 }).assessments_remaining).toBe(-50_000);
  });

  it('keeps committed plus uncommitted equal to the total on an inshell basis, with one rounding', () => {
    // Shelled 1,001 lb, 500 committed, yield 0.4800: 1,001 / 0.48 = 2,085.42 -> 2,085; 500 / 0.48 = 1,041.67 -> 1,042;
    // uncommitted 501 / 0.48 = 1,043.75 would round to 1,044 and 1,042 + 1,044 = 2,086 != 2,085: uncommitted is
    // therefore the total minus committed, 2,085 - 1,042 = 1,043.
    const result = computeForm5(
      { shelled_inventory: 1_001, shelled_committed_domestic: 500, shellout_yield: 4_800 },
      paidInFull,
    );
    expect(result.total_inventory_inshell_basis).toBe(2_085);
    expect(result.committed_inshell_basis).toBe(1_042);
    expect(result.uncommitted_inshell_basis).toBe(1_043);
    expect(result.shelled_uncommitted).toBe(501);
  });

  it('copies the August Form 1 figures it is given', () => {
    const result = computeForm5(entered, {
      ...paidInFull,
      augustForm1: { inventory_inshell: 120_000, inventory_shelled: 9_500 },
    });
    expect([result.aug_form_1_inventory_inshell, result.aug_form_1_inventory_shelled]).toEqual([120_000, 9_500]);
  });
});

describe('augustForm1Differences', () => {
  const withAugust = (inshell: number | null, shelled: number | null) => ({
    ...entered,
    aug_form_1_inventory_inshell: inshell,
    aug_form_1_inventory_shelled: shelled,
  });

  it('finds nothing to amend when the August Form 1 shows the same inventory on both bases', () => {
    // Form 5 inshell 100,000 + 20,000 + 0 = 120,000; shelled 10,000.
    expect(augustForm1Differences(withAugust(120_000, 10_000))).toEqual([]);
    expect(augustForm1MustBeAmended(withAugust(120_000, 10_000))).toBe(false);
  });

  it('gives each basis its own difference, form 5 minus Form 1', () => {
    // Inshell: 120,000 - 118,750 = +1,250; shelled: 10,000 - 10,400 = -400.
    expect(augustForm1Differences(withAugust(118_750, 10_400))).toEqual([
      { basis: 'inshell', form5: 120_000, augustForm1: 118_750, difference: 1_250 },
      { basis: 'shelled', form5: 10_000, augustForm1: 10_400, difference: -400 },
    ]);
    expect(augustForm1MustBeAmended(withAugust(120_000, 10_400))).toBe(true);
  });

  it('has nothing to compare without a certified August Form 1', () => {
    expect(augustForm1Differences(withAugust(null, null))).toEqual([]);
  });
});

describe('inshellBasisOfShelled', () => {
  it('divides by the yield and rounds half up to whole pounds', () => {
    expect(inshellBasisOfShelled(1_000, 4_800)).toBe(2_083);
    expect(inshellBasisOfShelled(1, 4_000)).toBe(3); // 2.5 -> 3
    expect(inshellBasisOfShelled(0, 4_800)).toBe(0);
    expect(() => inshellBasisOfShelled(1_000, 0)).toThrow(RangeError);
  });
});
