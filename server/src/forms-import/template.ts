import ExcelJS from 'exceljs';
import { FORM_NAMES } from '../render/form-labels.js';
import {
  DATA_SHEET,
  FIELD_HEADER,
  labelOf,
  layoutOf,
  MARKER,
  MARKER_SHEET,
  TEMPLATE_VERSION,
  type ImportBundle,
} from './layout.js';

/** What a template is for: the form, its month and the handler whose form it fills. */
export interface TemplateTarget {
  bundle: ImportBundle;
  month: string;
  handlerId: string;
  handlerName: string;
}

/** The cells of a template, row by row (row 1 left to the caller: a title or the marker). */
function bodyRows(bundle: ImportBundle): string[][] {
  const layout = layoutOf(bundle);
  const rows: string[][] = [[...FIELD_HEADER]];
  for (const f of layout.fields)
    rows.push([
      f.name,
      labelOf(f.name),
      '',
      f.kind === 'bool' ? 'yes / no' : f.kind === 'date' ? 'YYYY-MM-DD' : (f.unit ?? ''),
    ]);
  rows.push([]);
  rows.push(layout.list.columns.map((c) => c.name));
  return rows;
}

export const markerRow = (t: TemplateTarget): string[] => [MARKER, TEMPLATE_VERSION, t.bundle, t.month, t.handlerId];

export function templateFileName(t: TemplateTarget, extension: 'xlsx' | 'csv'): string {
  return `${t.bundle.replace('apc_', '')}-${t.month}-import.${extension}`;
}

/** The .xlsx template: the sheet to fill in, and a hidden sheet that says which form, month and handler it is for. */
export async function templateXlsx(t: TemplateTarget): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Pecan Handler Portal';
  const sheet = workbook.addWorksheet(DATA_SHEET);
  sheet.addRow([`${FORM_NAMES[t.bundle]} - ${t.handlerName} - ${t.month}`]).font = { bold: true, size: 13 };
  const rows = bodyRows(t.bundle);
  for (const row of rows) sheet.addRow(row);
  sheet.getRow(2).font = { bold: true };
  sheet.getRow(rows.length + 1).font = { bold: true };
  sheet.columns.forEach((column, i) => {
    column.width = [28, 60, 18, 16, 14][i] ?? 14;
  });
  // Dates and text stay text: a date column formatted as text keeps what was typed (YYYY-MM-DD).
  for (let r = 3; r <= rows.length - 1; r += 1) {
    const row = sheet.getRow(r);
    if (String(row.getCell(4).value) === 'YYYY-MM-DD') row.getCell(3).numFmt = '@';
  }
  const marker = workbook.addWorksheet(MARKER_SHEET, { state: 'hidden' });
  marker.addRow(markerRow(t));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csvCell = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The .csv template: the marker in row 1, then the same rows as the sheet. */
export function templateCsv(t: TemplateTarget): string {
  return [markerRow(t), ...bodyRows(t.bundle)].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
