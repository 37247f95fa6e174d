/**
 * What the monthly and the annual "Pecan Industry Position Report" share: the title block, tables of aggregated
 * figures in which a withheld figure prints as "Withheld", and the notes on confidentiality.
 */
import {
  CONFIDENTIALITY_NOTICE,
  WITHHELD_FOOTNOTE,
  figureValue,
  isWithheld,
  sumFigures,
  type Figure,
} from './common.js';
import { EMPTY, WITHHELD, formatCountry, formatDate, formatInteger } from './format.js';
import { COLORS, PdfLayout, type TableColumn, type TableRow, type TableSpec } from './pdf-layout.js';

export const REPORT_NAME = 'Pecan Industry Position Report';

/** A figure in words: "1,234,567", "Withheld", or a dash for no data. */
export function formatFigure(figure: Figure): string {
  if (isWithheld(figure)) return WITHHELD;
  const value = figureValue(figure);
  return value === null ? EMPTY : formatInteger(value);
}

export interface FigureRow {
  label: string;
  unit?: string;
  values: Figure[];
  total?: boolean;
}

export interface FigureTable {
  /** The headers of the value columns. */
  columns: string[];
  groups?: TableSpec['groups'];
  rows: FigureRow[];
  /** Header of the label column. */
  labelHeader?: string;
  /** Adds a column with each row's unit. */
  showUnit?: boolean;
}

/** Draws a table of figures; returns whether any figure in it was withheld. */
export function drawFigureTable(pdf: PdfLayout, table: FigureTable): boolean {
  // Label and unit columns keep the same width in every narrow table, so the tables of a report line up.
  const wide = table.columns.length > 4;
  const labelWidth = wide ? 22 : 38;
  const unitWidth = table.showUnit ? 14 : 0;
  const valueWidth = wide ? 13 : (100 - labelWidth - unitWidth) / table.columns.length;
  const columns: TableColumn[] = [
    { header: table.labelHeader ?? 'Item', width: labelWidth },
    ...(table.showUnit ? [{ header: 'Unit', width: unitWidth, color: COLORS.muted }] : []),
    ...table.columns.map((header) => ({ header, width: valueWidth, align: 'right' as const })),
  ];
  const rows: TableRow[] = table.rows.map((row) => ({
    cells: [row.label, ...(table.showUnit ? [row.unit ?? ''] : []), ...row.values.map(formatFigure)],
    style: row.total ? 'total' : 'normal',
  }));
  const groups = table.groups && [{ label: '', span: table.showUnit ? 2 : 1 }, ...table.groups];
  pdf.table({ columns, rows, groups, fontSize: table.columns.length > 4 ? 8.5 : 9 });
  return table.rows.some((r) => r.values.some(isWithheld));
}

/** The total row of a set of rows, column by column (withheld when any part is withheld). */
export function totalRow(label: string, rows: FigureRow[], unit?: string): FigureRow {
  const width = Math.max(0, ...rows.map((r) => r.values.length));
  const values = Array.from({ length: width }, (_, i) => sumFigures(rows.map((r) => r.values[i] ?? null)));
  return { label, unit, values, total: true };
}

export interface ExportCountryFigures<T> {
  /** ISO 3166 alpha-2 code (or a name as reported). */
  country: string;
  inshell: T;
  shelled: T;
  substandard?: T;
}

/** Countries in the order printed: largest inshell + shelled exports first, withheld ones last, then by name. */
export function sortCountries<T>(
  rows: ExportCountryFigures<T>[],
  weight: (row: ExportCountryFigures<T>) => number,
): ExportCountryFigures<T>[] {
  return [...rows].sort(
    (a, b) => weight(b) - weight(a) || formatCountry(a.country).localeCompare(formatCountry(b.country)),
  );
}

export async function startReport(subtitle: string, reference: string): Promise<PdfLayout> {
  const pdf = await PdfLayout.create({
    title: REPORT_NAME,
    reference,
    footerNote: `${REPORT_NAME}  |  ${subtitle}  |  Industry totals only; no individual handler is identified`,
  });
  pdf.title(REPORT_NAME);
  return pdf;
}

export function drawIntro(pdf: PdfLayout, pairs: Array<[string, string]>, publishedDate?: string): void {
  pdf.infoGrid(publishedDate ? [...pairs, ['Published', formatDate(publishedDate)]] : pairs, 3);
  pdf.paragraph(
    'Compiled by the American Pecan Council from the reports handlers file under 7 CFR Part 986. Weights are in pounds; ' +
      'inshell and shelled weights are shown separately and are not added together.',
    { size: 8.5, color: COLORS.muted, after: 2 },
  );
}

export function drawNotes(pdf: PdfLayout, anyWithheld: boolean, notes: string[] = []): void {
  pdf.heading('Notes', 60);
  if (anyWithheld) pdf.paragraph(WITHHELD_FOOTNOTE, { size: 8.5, font: 'bold' });
  else pdf.paragraph(`No figure in this report had to be withheld. ${WITHHELD_FOOTNOTE}`, { size: 8.5 });
  pdf.paragraph(
    'Inter-handler transfers (inshell pecans sold by one handler to another) are shown apart and are not ' +
      'included in shipments, so that no pecan is counted twice.',
    { size: 8.5 },
  );
  pdf.paragraph('"—" means that no handler reported a figure for the item.', { size: 8.5 });
  for (const note of notes) pdf.paragraph(note, { size: 8.5 });
  pdf.notice('Confidentiality (7 CFR 986.81)', [CONFIDENTIALITY_NOTICE]);
}
