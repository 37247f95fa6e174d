/**
 * The annual "Pecan Industry Position Report" for a season: the season's totals, the year-end inventory as of
 * August 31 (Form 5) and the domestic pecans handled during the year.
 */
import { figureValue, type Figure } from './common.js';
import { formatCountry, formatDate } from './format.js';
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

/**
 * Industry totals for one season: monthly figures summed over the season's months (Forms 1 to 3) and year-end
 * figures summed over the handlers' current Forms 5. Each figure carries its own withheld flag (see Figure).
 */
export interface AnnualPositionReportInput {
  season: { title: string; startDate?: string; endDate?: string };
  /** Handlers whose reports are included. */
  reportingHandlers: number;
  /** YYYY-MM-DD. */
  publishedDate?: string;
  receipts: {
    improved: Figure;
    native: Figure;
    substandard: Figure;
    total?: Figure;
    foreignInshell?: Figure;
    foreignShelled?: Figure;
  };
  shipments: { inshell: Figure; shelled: Figure; interhandler: Figure };
  /** Form 5, as of August 31. */
  yearEndInventory: {
    inshellImproved: Figure;
    inshellNative: Figure;
    inshellSubstandard: Figure;
    inshellCommittedDomestic: Figure;
    inshellCommittedExport: Figure;
    inshellUncommitted: Figure;
    shelled: Figure;
    shelledCommittedDomestic: Figure;
    shelledCommittedExport: Figure;
  };
  /** Form 5: domestic pecans handled during the year, lb inshell. */
  handledDomestic: { improved: Figure; native: Figure; substandard: Figure };
  exportsByCountry: ExportCountryFigures<Figure>[];
  notes?: string[];
}

export async function renderAnnualPositionReportPdf(input: AnnualPositionReportInput): Promise<Uint8Array> {
  const season = `Season ${input.season.title}`;
  const pdf = await startReport(`${season} (annual)`, `Annual  |  ${season}`);
  const pairs: Array<[string, string]> = [
    ['Season', input.season.title],
    ['Reporting handlers', String(input.reportingHandlers)],
  ];
  if (input.season.startDate && input.season.endDate) {
    pairs.push(['Period', `${formatDate(input.season.startDate)} - ${formatDate(input.season.endDate)}`]);
  }
  drawIntro(pdf, pairs, input.publishedDate);
  const column = [input.season.title];
  let withheld = drawReceipts(pdf, input, column);
  pdf.heading('Shipments during the season');
  withheld =
    drawFigureTable(pdf, {
      columns: column,
      showUnit: true,
      rows: [
        { label: 'Shipments, inshell', unit: 'lb inshell', values: [input.shipments.inshell] },
        { label: 'Shipments, shelled', unit: 'lb shelled', values: [input.shipments.shelled] },
        { label: 'Inter-handler transfers', unit: 'lb inshell', values: [input.shipments.interhandler] },
      ],
    }) || withheld;
  withheld = drawYearEnd(pdf, input) || withheld;
  withheld = drawExports(pdf, input) || withheld;
  drawNotes(pdf, withheld, input.notes);
  return pdf.finish();
}

function drawReceipts(pdf: PdfLayout, input: AnnualPositionReportInput, columns: string[]): boolean {
  pdf.heading('Receipts during the season');
  const r = input.receipts;
  const byType: FigureRow[] = [
    { label: 'Improved', unit: 'lb inshell', values: [r.improved] },
    { label: 'Native / seedling', unit: 'lb inshell', values: [r.native] },
    { label: 'Substandard', unit: 'lb inshell', values: [r.substandard] },
  ];
  const total =
    r.total !== undefined
      ? { label: 'Total US-grown', unit: 'lb inshell', values: [r.total], total: true }
      : totalRow('Total US-grown', byType, 'lb inshell');
  const rows = [...byType, total];
  if (r.foreignInshell !== undefined)
    rows.push({ label: 'Purchased outside the US, inshell', unit: 'lb inshell', values: [r.foreignInshell] });
  if (r.foreignShelled !== undefined)
    rows.push({ label: 'Purchased outside the US, shelled', unit: 'lb shelled', values: [r.foreignShelled] });
  return drawFigureTable(pdf, { columns, rows, showUnit: true });
}

function drawYearEnd(pdf: PdfLayout, input: AnnualPositionReportInput): boolean {
  const y = input.yearEndInventory;
  const inshellByType: FigureRow[] = [
    { label: 'Inshell inventory, improved', unit: 'lb inshell', values: [y.inshellImproved] },
    { label: 'Inshell inventory, native / seedling', unit: 'lb inshell', values: [y.inshellNative] },
    { label: 'Inshell inventory, substandard', unit: 'lb inshell', values: [y.inshellSubstandard] },
  ];
  pdf.heading('Year-end inventory as of August 31');
  let withheld = drawFigureTable(pdf, {
    columns: ['August 31'],
    showUnit: true,
    rows: [
      ...inshellByType,
      totalRow('Inshell inventory, total', inshellByType, 'lb inshell'),
      { label: 'Inshell committed, domestic', unit: 'lb inshell', values: [y.inshellCommittedDomestic] },
      { label: 'Inshell committed, export', unit: 'lb inshell', values: [y.inshellCommittedExport] },
      { label: 'Inshell uncommitted', unit: 'lb inshell', values: [y.inshellUncommitted] },
      { label: 'Shelled inventory', unit: 'lb shelled', values: [y.shelled] },
      { label: 'Shelled committed, domestic', unit: 'lb shelled', values: [y.shelledCommittedDomestic] },
      { label: 'Shelled committed, export', unit: 'lb shelled', values: [y.shelledCommittedExport] },
    ],
  });
  const h = input.handledDomestic;
  const handled: FigureRow[] = [
    { label: 'Improved', unit: 'lb inshell', values: [h.improved] },
    { label: 'Native / seedling', unit: 'lb inshell', values: [h.native] },
    { label: 'Substandard', unit: 'lb inshell', values: [h.substandard] },
  ];
  pdf.heading('Domestic pecans handled during the year');
  withheld =
    drawFigureTable(pdf, {
      columns: [input.season.title],
      showUnit: true,
      rows: [...handled, totalRow('Total', handled, 'lb inshell')],
    }) || withheld;
  return withheld;
}

function drawExports(pdf: PdfLayout, input: AnnualPositionReportInput): boolean {
  pdf.heading('Exports by country of destination');
  const weight = (c: ExportCountryFigures<Figure>): number =>
    (figureValue(c.inshell) ?? -1) + (figureValue(c.shelled) ?? 0);
  const rows: FigureRow[] = sortCountries(input.exportsByCountry, weight).map((c) => ({
    label: formatCountry(c.country),
    values: [c.inshell, c.shelled, c.substandard ?? null],
  }));
  return drawFigureTable(pdf, {
    labelHeader: 'Country',
    columns: ['Inshell (lb)', 'Shelled (lb)', 'Substandard (lb)'],
    groups: [{ label: `Season ${input.season.title}`, span: 3 }],
    rows: rows.length
      ? [...rows, totalRow('Total exports', rows)]
      : [{ label: 'No exports reported', values: [null, null, null] }],
  });
}
