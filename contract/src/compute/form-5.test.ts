import { describe, expect, it } from 'vitest';
import { computeForm5, inshellBasisOfShelled } from './form-5.js';

const entered = {
  inshell_inventory_improved: 100_000,
  inshell_inventory_native: 20_000,
  inshell_inventory_substandard: 0,
  inshell_committed_domestic: 50_000,
  inshell_committed_export: 30_000,
  shelled_inventory: 10_000,
  shellout_yield: 4_800,
};
const paidInFull = { owedCents: 900_000, paidCents: 900_000 };

describe('computeForm5', () => {
  it('works out uncommitted inventory and the inshell basis at the handler yield', () => {
    expect(computeForm5(entered, paidInFull)).toEqual({
      inshell_uncommitted: 40_000, // 120,000 - 80,000
      total_inventory_inshell_basis: 140_833, // 120,000 + 10,000 / 0.48 = 120,000 + 20,833.33
      assessments_owed: 900_000,
      assessments_paid: 900_000,
      assessments_remaining: 0,
    });
  });

  it('falls back to the default yield of 0.5 when none is entered, or to a configured one', () => {
    expect(computeForm5({ ...entered, shellout_yield: 0 }, paidInFull).total_inventory_inshell_basis).toBe(140_000);
    expect(computeForm5({ ...entered, shellout_yield: null }, paidInFull, { defaultYieldE4: 4_000 })
      .total_inventory_inshell_basis).toBe(145_000);
  });

  it('never shows negative uncommitted pounds', () => {
    expect(computeForm5({ ...entered, inshell_committed_export: 90_000 }, paidInFull).inshell_uncommitted).toBe(0);
  });

  it('reconciles the assessments; an overpayment is a negative remainder', () => {
    expect(computeForm5(entered, { owedCents: 900_000, paidCents: 850_000 }).assessments_remaining).toBe(50_000);
    expect(computeForm5(entered, { owedCents: 900_000, paidCents: 950_000 }).assessments_remaining).toBe(-50_000);
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
