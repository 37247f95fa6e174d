import { describe, expect, it } from 'vitest';
import { FORM_1_FIELDS, FORM_1_NO_CHANGE_CARRIED } from '../forms/fields.js';
import { staleForm1Months, type CertifiedForm1Month } from './form-1-stale.js';
import {
  computeForm1,
  EMPTY_FORM_1_SEASON_TO_DATE,
  FORM_1_CARRIED_FIELDS,
  FORM_1_FLOWS,
  form1Context,
  form1ContextMonths,
  form1MonthFigures,
  type Form1MonthFigures,
} from './form-1.js';

const month = (figures: Partial<Form1MonthFigures>): Form1MonthFigures => ({
  ...EMPTY_FORM_1_SEASON_TO_DATE,
  ...figures,
});

describe('computeForm1', () => {
  it('works out a November report: each flow on its own basis, with October and the season to date', () => {
    const computed = computeForm1(
      {
        receipts_by_variety: [
          { variety: 'Desirable', pounds: 120_000 },
          { variety: 'Stuart', pounds: 30_000 },
        ],
        receipts_native: 5_000,
        receipts_substandard: 1_000,
        shipments_inshell: 40_000,
        shipments_shelled: 12_000,
        interhandler_shipments: [
          { receiving_handler: '5f0c1f5e-8a7b-4c1d-9e2f-0a1b2c3d4e5f', pecan_type: 'improved', pounds: 3_000 },
        ],
        interhandler_received: 2_500,
      },
      {
        periodMonth: '2026-11',
        seasonToDate: month({
          receipts_improved: 200_000,
          receipts_native: 10_000,
          shipments_inshell: 60_000,
          shipments_shelled: 20_000,
          interhandler_shipped: 7_000,
          interhandler_received: 1_000,
        }),
        previousMonth: month({
          shipments_inshell: 35_000,
          shipments_shelled: 15_000,
          interhandler_shipped: 4_000,
          interhandler_received: 0,
        }),
      },
    );
    expect(computed).toEqual({
      receipts_improved: 150_000, // 120,000 + 30,000
      receipts_total: 156_000, // 150,000 + 5,000 + 1,000
      interhandler_shipped: 3_000, // the one shipment line
      receipts_ytd_improved: 350_000, // 200,000 + 150,000
      receipts_ytd_native: 15_000, // 10,000 + 5,000
      receipts_ytd_substandard: 1_000, // 0 + 1,000
      assessment_due: 150_000, // 150,000 lb improved x $0.01 = $1,500.00; native and substandard $0.00
      shipments_inshell_prev_month: 35_000,
      shipments_inshell_ytd: 100_000, // 60,000 + 40,000 inshell, never mixed with shelled
      shipments_shelled_prev_month: 15_000,
      shipments_shelled_ytd: 32_000, // 20,000 + 12,000 shelled
      interhandler_shipped_prev_month: 4_000,
      interhandler_shipped_ytd: 10_000, // 7,000 + 3,000
      interhandler_received_prev_month: 0,
      interhandler_received_ytd: 3_500, // 1,000 + 2,500
    });
  });

  it('uses the old rates for September 2021 and the new ones from October 2021', () => {
    const entered = { receipts_by_variety: [{ variety: 'Pawnee', pounds: 120_000 }], receipts_native: 10_000 };
    const context = { seasonToDate: EMPTY_FORM_1_SEASON_TO_DATE, previousMonth: null };
    // $3,600.00 + 10,000 x $0.02 = $3,800.00
    expect(computeForm1(entered, { ...context, periodMonth: '2021-09' }).assessment_due).toBe(380_000);
    expect(computeForm1(entered, { ...context, periodMonth: '2021-10' }).assessment_due).toBe(120_000);
  });

  it('counts an empty draft as zeros', () => {
    const computed = computeForm1(
      {},
      { periodMonth: '2026-09', seasonToDate: EMPTY_FORM_1_SEASON_TO_DATE, previousMonth: null },
    );
    expect(Object.values(computed).every((v) => v === 0)).toBe(true);
    expect(Object.keys(computed)).not.toContain('shipments_total');
  });
});

describe('form1Context', () => {
  const certified = new Map<string, Form1MonthFigures>([
    ['2026-08', month({ shipments_inshell: 9_000, shipments_shelled: 4_000, interhandler_received: 700 })],
    ['2026-09', month({ receipts_native: 1_000, shipments_inshell: 5_000, shipments_shelled: 2_000 })],
    ['2026-10', month({ receipts_improved: 80_000, shipments_inshell: 30_000, interhandler_shipped: 500 })],
  ]);

  it("takes September's previous month from August of the season before, and starts the season to date at 0", () => {
    const context = form1Context('2026-09', certified);
    expect(context.seasonToDate).toEqual(EMPTY_FORM_1_SEASON_TO_DATE);
    expect(context.previousMonth).toEqual(certified.get('2026-08'));
    const computed = computeForm1({ shipments_inshell: 5_000 }, context);
    expect(computed.shipments_inshell_prev_month).toBe(9_000);
    expect(computed.shipments_shelled_prev_month).toBe(4_000);
    expect(computed.interhandler_received_prev_month).toBe(700);
    expect(computed.shipments_inshell_ytd).toBe(5_000); // September alone: August belongs to the season before
  });

  it('gives 0 for September when the handler filed no August', () => {
    const computed = computeForm1({}, form1Context('2027-09', certified));
    expect(computed.shipments_inshell_prev_month).toBe(0);
  });

  it('sums the season before November and takes October as the previous month', () => {
    const context = form1Context('2026-11', certified);
    // September + October: 5,000 + 30,000 inshell; 2,000 + 0 shelled; receipts 0 + 80,000 improved, 1,000 + 0 native
    expect(context.seasonToDate).toEqual(
      month({
        receipts_improved: 80_000,
        receipts_native: 1_000,
        shipments_inshell: 35_000,
        shipments_shelled: 2_000,
        interhandler_shipped: 500,
      }),
    );
    expect(context.previousMonth).toEqual(certified.get('2026-10'));
    expect(form1ContextMonths('2026-11')).toEqual(['2026-09', '2026-10']);
    expect(form1ContextMonths('2026-09')).toEqual(['2026-08']);
  });

  it('reads a month figures from its entries', () => {
    expect(
      form1MonthFigures({
        receipts_by_variety: [
          { variety: 'Stuart', pounds: 10 },
          { variety: 'Other', pounds: 5 },
        ],
        shipments_shelled: 3,
      }),
    ).toEqual(month({ receipts_improved: 15, shipments_shelled: 3 }));
  });
});

describe('staleForm1Months', () => {
  const carriedOf = (
    entered: Parameters<typeof computeForm1>[0],
    periodMonth: string,
    byMonth: Map<string, Form1MonthFigures>,
  ) => {
    const c = computeForm1(entered, form1Context(periodMonth, byMonth)) as unknown as Record<string, number>;
    return Object.fromEntries(FORM_1_CARRIED_FIELDS.map((f) => [f, c[f]])) as CertifiedForm1Month['carried'];
  };

  it('flags the later months whose year-to-date an amendment of September made stale, with the corrected figures', () => {
    // As certified: September 10,000 lb inshell shipped, October 4,000, November 6,000.
    const sep = { shipments_inshell: 10_000 };
    const oct = { shipments_inshell: 4_000 };
    const nov = { shipments_inshell: 6_000 };
    const asCertified = new Map<string, Form1MonthFigures>([
      ['2026-09', month(sep)],
      ['2026-10', month(oct)],
    ]);
    const octCarried = carriedOf(oct, '2026-10', asCertified); // prev month 10,000; YTD 10,000 + 4,000 = 14,000
    const novCarried = carriedOf(nov, '2026-11', asCertified); // prev month 4,000; YTD 14,000 + 6,000 = 20,000
    expect([octCarried.shipments_inshell_ytd, novCarried.shipments_inshell_ytd]).toEqual([14_000, 20_000]);

    // Then September is amended to 12,500 lb inshell; October and November stay as certified.
    const sepAmended = { shipments_inshell: 12_500 };
    const stale = staleForm1Months([
      { id: 's2', month: '2026-09', entered: sepAmended, carried: carriedOf(sepAmended, '2026-09', new Map()) },
      { id: 'o1', month: '2026-10', entered: oct, carried: octCarried },
      { id: 'n1', month: '2026-11', entered: nov, carried: novCarried },
    ]);
    expect(stale).toEqual([
      {
        id: 'o1',
        month: '2026-10',
        figures: [
          { field: 'shipments_inshell_prev_month', certified: 10_000, corrected: 12_500 },
          { field: 'shipments_inshell_ytd', certified: 14_000, corrected: 16_500 }, // 12,500 + 4,000
        ],
      },
      // November's previous month (October) did not change; its YTD did: 12,500 + 4,000 + 6,000 = 22,500.
      {
        id: 'n1',
        month: '2026-11',
        figures: [{ field: 'shipments_inshell_ytd', certified: 20_000, corrected: 22_500 }],
      },
    ]);
  });

  it('finds nothing stale when every month was certified after the months before it', () => {
    const byMonth = new Map<string, Form1MonthFigures>([['2026-09', month({ receipts_native: 5 })]]);
    const months: CertifiedForm1Month[] = [
      {
        id: 'a',
        month: '2026-09',
        entered: { receipts_native: 5 },
        carried: carriedOf({ receipts_native: 5 }, '2026-09', new Map()),
      },
      {
        id: 'b',
        month: '2026-10',
        entered: { receipts_native: 7 },
        carried: carriedOf({ receipts_native: 7 }, '2026-10', byMonth),
      },
    ];
    expect(staleForm1Months(months)).toEqual([]);
    // Checking from October only skips September, whose August the caller did not load.
    expect(staleForm1Months(months, '2026-10')).toEqual([]);
  });

  it("reads a certified month's inter-handler shipments as certified: its stored total, with or without its lines", () => {
    // September shipped 620 lb to another handler, October 4,285: certified with their lines and totals.
    const line = (pounds: number) => [{ receiving_handler: 'b'.repeat(36), pecan_type: 'improved' as const, pounds }];
    const sep = { interhandler_shipments: line(620), interhandler_shipped: 620 };
    const oct = { interhandler_shipments: line(4_285), interhandler_shipped: 4_285 };
    const sepCarried = carriedOf(sep, '2026-09', new Map());
    const octCarried = carriedOf(oct, '2026-10', new Map([['2026-09', month(sep)]]));
    expect([sepCarried.interhandler_shipped_ytd, octCarried.interhandler_shipped_ytd]).toEqual([620, 4_905]);
    const certified = (withLines: boolean): CertifiedForm1Month[] => [
      { id: 's', month: '2026-09', entered: withLines ? sep : { interhandler_shipped: 620 }, carried: sepCarried },
      { id: 'o', month: '2026-10', entered: withLines ? oct : { interhandler_shipped: 4_285 }, carried: octCarried },
    ];
    // As the server reads them (lines and totals), as a browser reads them (totals only), and as a version certified
    // before shipments were lines is stored (a total, no lines): nothing is stale.
    expect(staleForm1Months(certified(true))).toEqual([]);
    expect(staleForm1Months(certified(false))).toEqual([]);
    expect(
      staleForm1Months(certified(true).map((m) => ({ ...m, entered: { ...m.entered, interhandler_shipments: [] } }))),
    ).toEqual([]);
  });
});

describe('the form 1 field list (986.177(a)(6)-(10))', () => {
  const byName = new Map(FORM_1_FIELDS.map((f) => [f.name, f]));

  it('gives every flow a previous-month and a season-to-date figure on its own basis, and no mixed total', () => {
    for (const flow of FORM_1_FLOWS) {
      const unit = byName.get(flow)?.unit;
      expect(unit).toMatch(/^lb (inshell|shelled)$/);
      for (const suffix of ['_prev_month', '_ytd'])
        expect(byName.get(`${flow}${suffix}`)).toMatchObject({ entry: 'computed', unit });
    }
    expect(
      FORM_1_FIELDS.filter((f) => f.kind === 'pounds').every((f) => f.unit === 'lb inshell' || f.unit === 'lb shelled'),
    ).toBe(true);
    expect(byName.has('shipments_total')).toBe(false);
  });

  it('asks for commitments and purchases under contract inshell and shelled, and carries them with "no change"', () => {
    expect(
      ['committed_domestic', 'committed_export', 'under_contract_from_handlers'].map((n) => byName.get(n)?.unit),
    ).toEqual(['lb inshell', 'lb inshell', 'lb inshell']);
    expect(
      ['committed_domestic_shelled', 'committed_export_shelled', 'under_contract_shelled'].map(
        (n) => byName.get(n)?.unit,
      ),
    ).toEqual(['lb shelled', 'lb shelled', 'lb shelled']);
    for (const stock of FORM_1_NO_CHANGE_CARRIED) expect(byName.get(stock)?.entry).toBe('entered');
  });
});
