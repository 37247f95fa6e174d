import { describe, expect, it } from 'vitest';
import { formatCents } from '../money/money.js';
import { assessmentDetail, assessmentDue } from './assessment-due.js';
import { assessmentRateFor, type AssessmentRate } from './rates.js';

describe('assessment rates', () => {
  it('are picked by the activity month', () => {
    expect(assessmentRateFor('2016-10').millsPerPound).toEqual({ improved: 30, native: 20, substandard: 20 });
    expect(assessmentRateFor('2021-09').millsPerPound.improved).toBe(30);
    expect(assessmentRateFor('2021-10').millsPerPound).toEqual({ improved: 10, native: 0, substandard: 0 });
    expect(assessmentRateFor('2026-11').effectiveFrom).toBe('2021-10-01');
  });

  it('do not exist before October 2016', () => {
    expect(() => assessmentRateFor('2016-09')).toThrow(RangeError);
  });
});

describe('assessmentDue', () => {
  it('120,000 lb improved: $3,600.00 in September 2021, $1,200.00 in October 2021', () => {
    expect(formatCents(assessmentDue({ improved: 120_000 }, '2021-09'))).toBe('3600.00');
    expect(formatCents(assessmentDue({ improved: 120_000 }, '2021-10'))).toBe('1200.00');
  });

  it('adds the types at their own rates', () => {
    // 2019: 10,000 x $0.03 + 5,000 x $0.02 + 1,000 x $0.02 = $300 + $100 + $20
    expect(assessmentDue({ improved: 10_000, native: 5_000, substandard: 1_000 }, '2019-01')).toBe(42_000);
    // since October 2021 native and substandard owe nothing
    expect(assessmentDue({ improved: 10_000, native: 5_000, substandard: 1_000 }, '2026-11')).toBe(10_000);
  });

  it('is exact for the largest allowed receipts', () => {
    expect(assessmentDue({ improved: 10_000_000_000 }, '2021-09')).toBe(30_000_000_000);
  });

  it('rounds a fraction of a cent half up, once on the total', () => {
    const halfCent: AssessmentRate[] = [
      { effectiveFrom: '2030-10-01', millsPerPound: { improved: 25, native: 15, substandard: 5 }, source: 'test' },
    ];
    expect(assessmentDue({ improved: 1 }, '2030-10', halfCent)).toBe(3); // 2.5 cents -> 3
    expect(assessmentDue({ native: 1 }, '2030-10', halfCent)).toBe(2); // 1.5 cents -> 2
    // per type 2.5 + 0.5 would round to 3 + 1 = 4; the total 3.0 cents is 3
    expect(assessmentDue({ improved: 1, substandard: 1 }, '2030-10', halfCent)).toBe(3);
  });

  it('shows its working', () => {
    const detail = assessmentDetail({ improved: 120_000 }, '2021-09');
    expect(detail.lines[0]).toEqual({ type: 'improved', pounds: 120_000, millsPerPound: 30, mills: 3_600_000n });
    expect(detail.totalCents).toBe(360_000);
  });

  it('refuses fractional or negative pounds', () => {
    expect(() => assessmentDue({ improved: 1.5 }, '2026-11')).toThrow(RangeError);
    expect(() => assessmentDue({ native: -1 }, '2026-11')).toThrow(RangeError);
  });
});
