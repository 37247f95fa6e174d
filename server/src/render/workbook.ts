/**
 * What the analytics workbooks share: sheets written from a plain table description, styled header rows frozen in
 * place, number formats per column, "Withheld" cells, and SUM/share formulas that carry their computed results
 * (so a reader that does not recalculate, or a test, sees the same numbers Excel shows).
 */
import ExcelJS from 'exceljs';
import { figureValue, isWithheld, type Figure } from './common.js';
import { WITHHELD } from './format.js';

export const POUNDS_FORMAT = '#,##0';
export const SHARE_FORMAT = '0.0%';

const BRAND = 'FF5C3819';
const BRAND_LIGHT = 'FFF5EDE0';

/** A formula with its computed result. */
export interface FormulaCell {
  formula: string;
  result: number | string;
}

/** What a sheet cell may hold: text, a number, an aggregated Figure (withheld -> "Withheld"), or a formula. */
export type CellSpec = string | number | null | Figure | FormulaCell;

export interface ColumnSpec {
  width: number;
  numFmt?: string;
}

export interface SheetSpec {
  name: string;
  /** One or more header rows; the last holds the column headers. */
  headerRows: string[][];
  /** Ranges to merge in the header, e.g. "B1:D1". */
  merges?: string[];
  columns: ColumnSpec[];
  rows: CellSpec[][];
  /** 1-based indexes of data rows to print bold (totals). */
  boldRows?: number[];
  /** Frozen columns at the left (the row labels). */
  frozenColumns?: number;
  autoFilter?: boolean;
}

export function createWorkbook(title: string, generatedAt?: string): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'American Pecan Council - Pecan Handler Portal';
  workbook.title = title;
  // the formulas carry their results, but Excel recalculates anyway, in case a reader edits a figure
  workbook.calcProperties.fullCalcOnLoad = true;
  if (generatedAt) {
    workbook.created = new Date(generatedAt);
    workbook.modified = new Date(generatedAt);
  }
  return workbook;
}

export async function workbookBuffer(workbook: ExcelJS.Workbook): Promise<Buffer> {
  const data = await workbook.xlsx.writeBuffer();
  return Buffer.from(data as ArrayBuffer);
}

/** Column number (1-based) -> letters: 1 -> A, 27 -> AA. */
export function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

function isFormula(value: CellSpec): value is FormulaCell {
  return typeof value === 'object' && value !== null && 'formula' in value;
}

/** The number a cell stands for, for computing formula results; null for text, withheld or empty. */
export function cellNumber(value: CellSpec): number | null {
  if (isFormula(value)) return typeof value.result === 'number' ? value.result : null;
  if (typeof value === 'string') return null;
  return figureValue(value);
}

function cellWithheld(value: CellSpec): boolean {
  if (isFormula(value)) return value.result === WITHHELD;
  return typeof value === 'string' ? value === WITHHELD : isWithheld(value);
}

/**
 * `=SUM(range)` over the given cells with its result; "Withheld" instead when any of them is withheld, since the
 * total would let a reader work the withheld figure out.
 */
export function sumCell(range: string, parts: CellSpec[]): CellSpec {
  if (parts.some(cellWithheld)) return WITHHELD;
  return { formula: `SUM(${range})`, result: parts.reduce<number>((n, p) => n + (cellNumber(p) ?? 0), 0) };
}

/** `=IF(den>0,num/den,"")` with its result: a part's share of a whole; "Withheld" when the whole is withheld. */
export function shareCell(numRef: string, denRef: string, num: CellSpec, den: CellSpec): CellSpec {
  if (cellWithheld(den) || cellWithheld(num)) return WITHHELD;
  const n = cellNumber(num) ?? 0;
  const d = cellNumber(den) ?? 0;
  return { formula: `IF(${denRef}>0,${numRef}/${denRef},"")`, result: d > 0 ? n / d : '' };
}

function excelValue(value: CellSpec): ExcelJS.CellValue {
  if (isFormula(value)) return { formula: value.formula, result: value.result };
  if (typeof value === 'string' || value === null) return value;
  if (isWithheld(value)) return WITHHELD;
  return figureValue(value);
}

export function addSheet(workbook: ExcelJS.Workbook, spec: SheetSpec): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(spec.name, {
    views: [{ state: 'frozen', ySplit: spec.headerRows.length, xSplit: spec.frozenColumns ?? 1 }],
  });
  sheet.columns = spec.columns.map((c) => ({ width: c.width, style: c.numFmt ? { numFmt: c.numFmt } : {} }));
  spec.headerRows.forEach((cells) => styleHeader(sheet.addRow(cells)));
  for (const range of spec.merges ?? []) sheet.mergeCells(range);
  spec.rows.forEach((cells, i) => {
    const row = sheet.addRow(cells.map(excelValue));
    cells.forEach((cell, c) => {
      const target = row.getCell(c + 1);
      if (spec.columns[c]?.numFmt) target.numFmt = spec.columns[c].numFmt!;
      if (cellWithheld(cell)) {
        target.font = { italic: true, color: { argb: 'FF808080' } };
        target.alignment = { horizontal: 'right' };
      }
    });
    if (spec.boldRows?.includes(i + 1)) styleTotal(row);
  });
  if (spec.autoFilter) {
    const headerRow = spec.headerRows.length;
    sheet.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow, column: spec.columns.length } };
  }
  return sheet;
}

function styleHeader(row: ExcelJS.Row): void {
  row.eachCell({ includeEmpty: true }, (cell) => {
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: BRAND } };
    cell.alignment = { horizontal: 'center', vertical: 'middle', wrapText: true };
  });
}

function styleTotal(row: ExcelJS.Row): void {
  row.eachCell({ includeEmpty: true }, (cell) => {
    cell.font = { ...(cell.font ?? {}), bold: true };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: BRAND_LIGHT } };
    cell.border = { top: { style: 'thin', color: { argb: BRAND } } };
  });
}

/** A sheet of plain paragraphs (the "Notes" sheet). */
export function addNotesSheet(workbook: ExcelJS.Workbook, title: string, lines: Array<[string, string]>): void {
  const sheet = workbook.addWorksheet('Notes');
  sheet.columns = [{ width: 26 }, { width: 110 }];
  const head = sheet.addRow([title]);
  head.font = { bold: true, size: 14, color: { argb: BRAND } };
  sheet.addRow([]);
  for (const [label, text] of lines) {
    const row = sheet.addRow([label, text]);
    row.getCell(1).font = { bold: true };
    row.getCell(2).alignment = { wrapText: true, vertical: 'top' };
    row.getCell(1).alignment = { vertical: 'top' };
  }
}
