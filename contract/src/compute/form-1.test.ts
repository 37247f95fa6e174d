import { describe, expect, it } from 'vitest';
import { computeForm1, EMPTY_FORM_1_SEASON_TO_DATE } from './form-1.js';

describe('computeForm1', () => {
  it('works out a November report from its entries, the season to date and October', () => {
    const computed = computeForm1({
      receipts_by_variety: [{ variety: 'Desirable', pounds: 120_000 }, { variety: 'Stuart', pounds: 30_000 }],
      receipts_native: 5_000,
      receipts_substandard: 1_000,
      shipments_inshell: 40_000,
      shipments_shelled: 12_000,
    }, {
      periodMonth: '2026-11',
      seasonToDate: { receipts_improved: 200_000, receipts_native: 10_000, receipts_substandard: 0, shipments_total: 80_000 },
      previousMonth: { shipments_total: 50_000 },
    });
    expect(computed).toEqual({
      receipts_improved: 150_000,
      receipts_total: 156_000,
      receipts_ytd_improved: 350_000,
      receipts_ytd_native: 15_000,
      receipts_ytd_substandard: 1_000,
      assessment_due: 150_000, // 150,000 lb improved x $0.01 = $1,500.00; native and substandard $0.00
      shipments_total: 52_000,
      shipments_prev_month: 50_000,
      shipments_ytd: 132_000,
    });
  });

  it('uses the old rates for September 2021 and the new ones from October 2021', () => {
    const entered = { receipts_by_variety: [{ variety: 'Pawnee', pounds: 120_000 }], receipts_native: 10_000 };
    const context = { seasonToDate: EMPTY_FORM_1_SEASON_TO_DATE, previousMonth: null };
    // $3,600.00 + 10,000 x $0.02 = $3,800.00
    expect(computeForm1(entered, { ...context, periodMonth: '2021-09' }).assessment_due).toBe(380_000);
    expect(computeForm1(entered, { ...context, periodMonth: '2021-10' }).assessment_due).toBe(120_000);
  });

  it('counts an empty draft as zeros, and September starts the season over', () => {
    expect(computeForm1({}, { periodMonth: '2026-09', seasonToDate: EMPTY_FORM_1_SEASON_TO_DATE, previousMonth: null }))
      .toEqual({
        receipts_improved: 0, receipts_total: 0, receipts_ytd_improved: 0, receipts_ytd_native: 0,
        receipts_ytd_substandard: 0, assessment_due: 0, shipments_total: 0, shipments_prev_month: 0, shipments_ytd: 0,
      });
  });
});
