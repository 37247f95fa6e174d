import { describe, expect, it } from 'vitest';
import { computeForm2 } from './form-2.js';
import { computeForm3 } from './form-3.js';

describe('computeForm2', () => {
  it('adds up the purchases and the Mexico season to date', () => {
    const computed = computeForm2(
      { mexico_inshell_lb: 20_000, mexico_shelled_lb: 9_000 },
      [{ inshell_lb: 40_000, shelled_lb: 0 }, { inshell_lb: 10_000, shelled_lb: 2_500 }, {}],
      { seasonToDate: { mexico_inshell_lb: 100_000, mexico_shelled_lb: 45_000 } },
    );
    expect(computed).toEqual({
      purchased_inshell_total: 50_000,
      purchased_shelled_total: 2_500,
      mexico_ytd_inshell_lb: 120_000,
      mexico_ytd_shelled_lb: 54_000,
    });
  });
});

describe('computeForm3', () => {
  it('adds up the countries, with the season before this month as the prior period', () => {
    const computed = computeForm3(
      [
        { inshell_lb: 100_000, shelled_lb: 0, substandard_lb: 5_000 }, // CN
        { inshell_lb: 0, shelled_lb: 20_000, substandard_lb: 0 }, // NL
      ],
      { seasonToDate: { inshell_lb: 300_000, shelled_lb: 50_000, substandard_lb: 1_000 } },
    );
    expect(computed).toEqual({
      total_inshell_lb: 100_000,
      total_shelled_lb: 20_000,
      total_substandard_lb: 5_000,
      prior_inshell_lb: 300_000,
      prior_shelled_lb: 50_000,
      prior_substandard_lb: 1_000,
      ytd_inshell_lb: 400_000,
      ytd_shelled_lb: 70_000,
      ytd_substandard_lb: 6_000,
    });
  });

  it('has zero totals with no rows', () => {
    const computed = computeForm3([], { seasonToDate: { inshell_lb: 0, shelled_lb: 0, substandard_lb: 0 } });
    expect(Object.values(computed).every((value) => value === 0)).toBe(true);
  });
});
