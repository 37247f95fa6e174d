/**
 * The industry analytics workbook of a season: a sheet per topic with a row per month, totals as real formulas.
 */
import { WITHHELD_FOOTNOTE, type Figure } from './common.js';
import { formatDate, formatMonth } from './format.js';
import {
  POUNDS_FORMAT,
  addNotesSheet,
  addSheet,
  columnLetter,
  createWorkbook,
  sumCell,
  workbookBuffer,
  type CellSpec,
} from './workbook.js';

/** The industry's totals for one month, each summed over the handlers' current forms (see Figure for withholding). */
export interface IndustryMonth {
  /** YYYY-MM. */
  month: string;
  reportingHandlers: number;
  receipts: { improved: Figure; native: Figure; substandard: Figure };
  shipments: { inshell: Figure; shelled: Figure; interhandler: Figure };
  inventory: { inshell: Figure; shelled: Figure; committedDomestic: Figure; committedExport: Figure };
  /** One entry per destination country with exports that month. */
  exports: Array<{ country: string; inshell: Figure; shelled: Figure; substandard: Figure }>;
}

export interface IndustryAnalyticsInput {
  season: { title: string };
  /** The season's months in order (normally September to August; months without data may be left out). */
  months: IndustryMonth[];
  /** ISO timestamp; workbook metadata and the notes. */
  generatedAt?: string;
  /** YYYY-MM-DD. */
  publishedDate?: string;
}

const FIRST_DATA_ROW = 2;

export async function renderIndustryAnalyticsWorkbook(input: IndustryAnalyticsInput): Promise<Buffer> {
  const workbook = createWorkbook(`Industry analytics ${input.season.title}`, input.generatedAt);
  const months = input.months;
  addMonthlySheet(
    workbook,
    'Receipts',
    ['Improved (lb)', 'Native (lb)', 'Substandard (lb)'],
    months.map((m) => [m.receipts.improved, m.receipts.native, m.receipts.substandard]),
    months,
    'Total (lb)',
  );
  addMonthlySheet(
    workbook,
    'Shipments',
    ['Inshell (lb)', 'Shelled (lb)', 'Inter-handler transfers (lb inshell)'],
    months.map((m) => [m.shipments.inshell, m.shipments.shelled, m.shipments.interhandler]),
    months,
  );
  addInventorySheet(workbook, months);
  addExportsSheet(workbook, months);
  addNotesSheet(workbook, `Pecan industry analytics, season ${input.season.title}`, notes(input));
  return workbookBuffer(workbook);
}

/**
 * Month | Reporting handlers | values... [| row total], with a "Season total" row of SUM formulas; `rowTotal` adds
 * a column summing each month's values (only for values in the same unit).
 */
function addMonthlySheet(
  workbook: ReturnType<typeof createWorkbook>,
  name: string,
  headers: string[],
  values: Figure[][],
  months: IndustryMonth[],
  rowTotal?: string,
): void {
  const first = 3; // first value column (C)
  const rows: CellSpec[][] = values.map((figures, i) => {
    const row: CellSpec[] = [formatMonth(months[i].month), months[i].reportingHandlers, ...figures];
    if (rowTotal) {
      const r = FIRST_DATA_ROW + i;
      row.push(sumCell(`${columnLetter(first)}${r}:${columnLetter(first + figures.length - 1)}${r}`, figures));
    }
    return row;
  });
  const valueColumns = headers.length + (rowTotal ? 1 : 0);
  const last = FIRST_DATA_ROW + rows.length - 1;
  const total: CellSpec[] = ['Season total', null];
  for (let c = 0; c < valueColumns; c++) {
    const letter = columnLetter(first + c);
    total.push(
      sumCell(
        `${letter}${FIRST_DATA_ROW}:${letter}${last}`,
        rows.map((r) => r[2 + c]),
      ),
    );
  }
  addSheet(workbook, {
    name,
    headerRows: [['Month', 'Reporting handlers', ...headers, ...(rowTotal ? [rowTotal] : [])]],
    columns: [
      { width: 18 },
      { width: 12 },
      ...Array.from({ length: valueColumns }, () => ({ width: 20, numFmt: POUNDS_FORMAT })),
    ],
    rows: [...rows, total],
    boldRows: [rows.length + 1],
  });
}

/** Inventory is a month-end position: no season total (adding month ends would mean nothing). */
function addInventorySheet(workbook: ReturnType<typeof createWorkbook>, months: IndustryMonth[]): void {
  addSheet(workbook, {
    name: 'Inventory',
    headerRows: [
      [
        'Month end',
        'Reporting handlers',
        'Inventory inshell (lb)',
        'Inventory shelled (lb)',
        'Committed domestic (lb)',
        'Committed export (lb)',
      ],
    ],
    columns: [{ width: 18 }, { width: 12 }, ...Array.from({ length: 4 }, () => ({ width: 22, numFmt: POUNDS_FORMAT }))],
    rows: months.map((m) => [
      formatMonth(m.month),
      m.reportingHandlers,
      m.inventory.inshell,
      m.inventory.shelled,
      m.inventory.committedDomestic,
      m.inventory.committedExport,
    ]),
  });
}

/** One row per month and country, filterable by country, with a total row of SUM formulas. */
function addExportsSheet(workbook: ReturnType<typeof createWorkbook>, months: IndustryMonth[]): void {
  const rows: CellSpec[][] = months.flatMap((m) =>
    [...m.exports]
      .sort((a, b) => a.country.localeCompare(b.country))
      .map((e) => [formatMonth(m.month), e.country, e.inshell, e.shelled, e.substandard]),
  );
  const last = FIRST_DATA_ROW + rows.length - 1;
  const total: CellSpec[] = [
    'Season total',
    null,
    ...['C', 'D', 'E'].map((letter, c) =>
      rows.length
        ? sumCell(
            `${letter}${FIRST_DATA_ROW}:${letter}${last}`,
            rows.map((r) => r[2 + c]),
          )
        : 0,
    ),
  ];
  addSheet(workbook, {
    name: 'Exports by country',
    headerRows: [['Month', 'Country', 'Inshell (lb)', 'Shelled (lb)', 'Substandard (lb)']],
    columns: [{ width: 18 }, { width: 12 }, ...Array.from({ length: 3 }, () => ({ width: 20, numFmt: POUNDS_FORMAT }))],
    rows: [...rows, total],
    boldRows: [rows.length + 1],
    frozenColumns: 2,
    autoFilter: true,
  });
}

function notes(input: IndustryAnalyticsInput): Array<[string, string]> {
  const lines: Array<[string, string]> = [
    [
      'Source',
      "Compiled by the American Pecan Council from handlers' certified Forms 1, 2 and 3 (the latest version of each, amendments included).",
    ],
    ['Season', `${input.season.title}; one row per month of the season.`],
    [
      'Units',
      'Pounds. Receipts are inshell weight; shipments and inventory give inshell and shelled weight separately; they are not added together.',
    ],
    [
      'Inter-handler transfers',
      'Inshell pecans sold by one handler to another; shown apart and not included in shipments.',
    ],
    [
      'Totals',
      'Season totals are Excel formulas (SUM) over the monthly rows. Inventory is a month-end position and has no season total.',
    ],
    ['Withheld', WITHHELD_FOOTNOTE],
    [
      'Confidentiality',
      'Individual handler reports are confidential under 7 CFR 986.81; this workbook contains industry totals only.',
    ],
  ];
  if (input.publishedDate) lines.push(['Published', formatDate(input.publishedDate)]);
  if (input.generatedAt) lines.push(['Generated', input.generatedAt]);
  return lines;
}
