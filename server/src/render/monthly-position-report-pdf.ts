/**
 * The monthly "Pecan Industry Position Report": industry totals for one month and for the season to date.
 */
import { figureValue, type Figure } from './common.js';
import { formatCountry, formatMonth, formatMonthShort } from './format.js';
import {
  drawFigureTable,
  drawIntro,
  drawNotes,
  sortCountries,
  startReport,
  totalRow,
  type ExportCountryFigures,
  type FigureRow,
} from './position-report-common.js';
import type { PdfLayout } from './pdf-layout.js';

/** A figure for the month and the same figure summed from the season's first month through this one. */
export interface PeriodFigures {
  period: Figure;
  seasonToDate: Figure;
}

/**
 * Industry totals for one month, each a sum over the handlers' current (latest certified) forms; every figure
 * carries its own withheld flag (see Figure). Totals the input leaves out are summed here, withheld when a part is.
 */
export interface MonthlyPositionReportInput {
  /** YYYY-MM. */
  month: string;
  season: { title: string };
  /** Handlers whose reports for the month are included. */
  reportingHandlers: number;
  /** YYYY-MM-DD. */
  publishedDate?: string;
  /** Form 1 receipts of US-grown pecans, lb inshell; foreign: Form 2 purchases outside the US. */
  receipts: {
    improved: PeriodFigures;
    native: PeriodFigures;
    substandard: PeriodFigures;
    total?: PeriodFigures;
    foreignInshell?: PeriodFigures;
    foreignShelled?: PeriodFigures;
  };
  /** Form 1 shipments; inter-handler transfers apart. */
  shipments: { inshell: PeriodFigures; shelled: PeriodFigures; interhandler: PeriodFigures };
  /** Held at the end of the month. */
  inventory: { inshell: Figure; shelled: Figure };
  /** Sold or obligated but not yet shipped, at the end of the month. */
  committed: { domestic: Figure; export: Figure };
  /** Form 3, per destination country. */
  exportsByCountry: ExportCountryFigures<PeriodFigures>[];
  notes?: string[];
}

export async function renderMonthlyPositionReportPdf(input: MonthlyPositionReportInput): Promise<Uint8Array> {
  const month = formatMonth(input.month);
  const pdf = await startReport(month, `${month}  |  Season ${input.season.title}`);
  drawIntro(
    pdf,
    [
      ['Month', month],
      ['Season', input.season.title],
      ['Reporting handlers', String(input.reportingHandlers)],
    ],
    input.publishedDate,
  );
  const columns = [formatMonthShort(input.month), 'Season to date'];
  const pair = (label: string, f: PeriodFigures, unit?: string): FigureRow => ({
    label,
    unit,
    values: [f.period, f.seasonToDate],
  });
  let withheld = drawReceipts(pdf, input, columns, pair);
  pdf.heading('Shipments');
  withheld =
    drawFigureTable(pdf, {
      columns,
      showUnit: true,
      rows: [
        pair('Shipments, inshell', input.shipments.inshell, 'lb inshell'),
        pair('Shipments, shelled', input.shipments.shelled, 'lb shelled'),
        pair('Inter-handler transfers', input.shipments.interhandler, 'lb inshell'),
      ],
    }) || withheld;
  pdf.heading('Inventory and commitments at month end');
  withheld =
    drawFigureTable(pdf, {
      columns: [`End of ${month}`],
      showUnit: true,
      rows: [
        { label: 'Inventory, inshell', unit: 'lb inshell', values: [input.inventory.inshell] },
        { label: 'Inventory, shelled', unit: 'lb shelled', values: [input.inventory.shelled] },
        { label: 'Committed, domestic', unit: 'lb', values: [input.committed.domestic] },
        { label: 'Committed, export', unit: 'lb', values: [input.committed.export] },
      ],
    }) || withheld;
  withheld = drawExports(pdf, input) || withheld;
  drawNotes(pdf, withheld, input.notes);
  return pdf.finish();
}

function drawReceipts(
  pdf: PdfLayout,
  input: MonthlyPositionReportInput,
  columns: string[],
  pair: (label: string, f: PeriodFigures, unit?: string) => FigureRow,
): boolean {
  pdf.heading('Receipts');
  const r = input.receipts;
  const byType = [
    pair('Improved', r.improved, 'lb inshell'),
    pair('Native / seedling', r.native, 'lb inshell'),
    pair('Substandard', r.substandard, 'lb inshell'),
  ];
  const rows = [
    ...byType,
    r.total
      ? { ...pair('Total US-grown', r.total, 'lb inshell'), total: true }
      : totalRow('Total US-grown', byType, 'lb inshell'),
  ];
  if (r.foreignInshell) rows.push(pair('Purchased outside the US, inshell', r.foreignInshell, 'lb inshell'));
  if (r.foreignShelled) rows.push(pair('Purchased outside the US, shelled', r.foreignShelled, 'lb shelled'));
  return drawFigureTable(pdf, { columns, rows, showUnit: true });
}

function drawExports(pdf: PdfLayout, input: MonthlyPositionReportInput): boolean {
  pdf.heading('Exports by country of destination');
  const weight = (c: ExportCountryFigures<PeriodFigures>): number =>
    (figureValue(c.inshell.seasonToDate) ?? -1) + (figureValue(c.shelled.seasonToDate) ?? 0);
  const rows: FigureRow[] = sortCountries(input.exportsByCountry, weight).map((c) => ({
    label: formatCountry(c.country),
    values: [
      c.inshell.period,
      c.shelled.period,
      c.substandard?.period ?? null,
      c.inshell.seasonToDate,
      c.shelled.seasonToDate,
      c.substandard?.seasonToDate ?? null,
    ],
  }));
  const short = formatMonthShort(input.month);
  return drawFigureTable(pdf, {
    labelHeader: 'Country',
    columns: ['Inshell', 'Shelled', 'Substandard', 'Inshell', 'Shelled', 'Substandard'],
    groups: [
      { label: `${short} (lb)`, span: 3 },
      { label: 'Season to date (lb)', span: 3 },
    ],
    rows: rows.length
      ? [...rows, totalRow('Total exports', rows)]
      : [{ label: 'No exports reported', values: Array(6).fill(null) }],
  });
}
