import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import {
  DATA_SHEET,
  MARKER,
  MARKER_SHEET,
  MAX_GRID_COLUMNS,
  MAX_GRID_ROWS,
  MAX_INFLATED_BYTES,
  MAX_ZIP_ENTRIES,
} from './layout.js';

/**
 * An uploaded file read into a grid of plain values, or refused whole with a code the web app translates. Nothing
 * here trusts the file: the zip's parts are inflated with a byte budget before exceljs sees them (a zip bomb stops
 * at MAX_INFLATED_BYTES), macros and formulas are refused, and the grid's size is bounded.
 */
export type CellValue = string | number | boolean | Date | null;
export interface Grid {
  /** rows[r][c], both 0-based; row 0 is the file's row 1. */
  rows: CellValue[][];
  /** The marker: [marker, version, bundle, month, handler id]. */
  marker: string[];
}

export class FileProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

const problem = (code: string, message: string, params: Record<string, string | number> = {}) =>
  new FileProblem(422, code, message, params);

export type FileKind = 'xlsx' | 'csv';

/** The kind of an upload from its name, then its first bytes: an .xlsx is a zip, a .csv is text. */
export function kindOf(fileName: string, content: Buffer): FileKind {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  if (extension === 'xlsm' || extension === 'xltm' || extension === 'xlsb')
    throw problem('macros', 'Files with macros (.xlsm, .xlsb) are not accepted: save the sheet as .xlsx.');
  if (extension !== 'xlsx' && extension !== 'csv')
    throw new FileProblem(415, 'file_type', 'Upload the template as an .xlsx or .csv file.', { extension });
  const zip = content.length >= 4 && content.readUInt32LE(0) === 0x04034b50;
  if (extension === 'xlsx' && !zip) throw problem('broken', 'The file is not a readable .xlsx workbook.');
  if (extension === 'csv' && (zip || content.includes(0)))
    throw problem('broken', 'The file is not a text (CSV) file.');
  return extension;
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The zip's central directory; a zip64 or split archive is refused (no template is that large). */
function zipEntries(zip: Buffer): ZipEntry[] {
  const min = Math.max(0, zip.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = zip.length - 22; i >= min; i -= 1)
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw problem('broken', 'The file is not a readable .xlsx workbook.');
  const count = zip.readUInt16LE(eocd + 10);
  const dirOffset = zip.readUInt32LE(eocd + 16);
  if (count > MAX_ZIP_ENTRIES) throw problem('too_large', 'The workbook holds more parts than a template has.');
  const entries: ZipEntry[] = [];
  let p = dirOffset;
  for (let i = 0; i < count; i += 1) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== 0x02014b50)
      throw problem('broken', 'The file is not a readable .xlsx workbook.');
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    entries.push({
      name: zip.toString('utf8', p + 46, p + 46 + nameLength),
      method: zip.readUInt16LE(p + 10),
      compressedSize: zip.readUInt32LE(p + 20),
      size: zip.readUInt32LE(p + 24),
      localOffset: zip.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Inflates every part within one budget of bytes, whatever sizes the directory claims: a part that inflates past
 * what is left of the budget stops there (zlib's maxOutputLength) and the file is refused.
 */
function checkParts(zip: Buffer): void {
  const entries = zipEntries(zip);
  if (entries.some((e) => /vbaProject\.bin$|vbaData\.xml$|activeX\//i.test(e.name) || /macrosheets\//i.test(e.name))) {
    throw problem('macros', 'The workbook contains macros: save it as a plain .xlsx workbook without macros.');
  }
  let budget = MAX_INFLATED_BYTES;
  for (const e of entries) {
    if (e.size > budget)
      throw problem('too_large', 'The workbook is too large once unpacked.', { maxMiB: MAX_INFLATED_BYTES / 1048576 });
    const local = e.localOffset;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50)
      throw problem('broken', 'The file is not a readable .xlsx workbook.');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + e.compressedSize);
    let size: number;
    if (e.method === 0) size = data.length;
    else if (e.method === 8) {
      try {
        size = inflateRawSync(data, { maxOutputLength: Math.max(1, budget) }).length;
      } catch (error) {
        if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw problem('too_large', 'The workbook is too large once unpacked.', {
            maxMiB: MAX_INFLATED_BYTES / 1048576,
          });
        }
        throw problem('broken', 'The file is not a readable .xlsx workbook.');
      }
    } else throw problem('broken', 'The file is not a readable .xlsx workbook.');
    budget -= size;
    if (budget < 0)
      throw problem('too_large', 'The workbook is too large once unpacked.', { maxMiB: MAX_INFLATED_BYTES / 1048576 });
  }
}

/** A cell's value as plain data; a formula is refused at its cell (its cached value is not trusted). */
function plainValue(cell: ExcelJS.Cell, row: number): CellValue {
  const v = cell.value as unknown;
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) {
      throw new FileProblem(422, 'formula', `The cell ${cell.address} holds a formula: type the figure itself.`, {
        row,
        column: cell.address.replace(/\d+$/, ''),
      });
    }
    if (Array.isArray(o.richText)) return (o.richText as Array<{ text: string }>).map((r) => r.text).join('');
    if ('text' in o && typeof o.text === 'string') return o.text; // a hyperlink
    if ('error' in o)
      throw new FileProblem(422, 'cell_error', `The cell ${cell.address} holds an error (${String(o.error)}).`, {
        row,
        column: cell.address.replace(/\d+$/, ''),
      });
  }
  return String(v);
}

export async function readXlsx(content: Buffer): Promise<Grid> {
  checkParts(content);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw problem('broken', 'The file is not a readable .xlsx workbook.');
  }
  const sheets = workbook.worksheets;
  const data = sheets.find((s) => s.name === DATA_SHEET);
  const markerSheet = sheets.find((s) => s.name === MARKER_SHEET);
  if (!data || !markerSheet)
    throw problem('wrong_template', 'This is not a portal import template: download the template from the form page.');
  const extra = sheets.filter((s) => s !== data && s !== markerSheet).map((s) => s.name);
  if (extra.length > 0)
    throw problem('extra_sheets', `The workbook has sheets the template does not: ${extra.join(', ')}. Remove them.`, {
      sheets: extra.join(', '),
    });
  if (data.rowCount > MAX_GRID_ROWS || data.columnCount > MAX_GRID_COLUMNS) {
    throw problem(
      'too_many_rows',
      `The sheet has more rows or columns than a form takes (at most ${MAX_GRID_ROWS} rows).`,
      { max: MAX_GRID_ROWS },
    );
  }
  const marker = ((markerSheet.getRow(1).values ?? []) as unknown[])
    .slice(1)
    .map((v) => (v === null || v === undefined ? '' : String(v)));
  const rows: CellValue[][] = [];
  for (let r = 1; r <= data.rowCount; r += 1) {
    const row = data.getRow(r);
    const cells: CellValue[] = [];
    for (let c = 1; c <= Math.min(data.columnCount, MAX_GRID_COLUMNS); c += 1)
      cells.push(plainValue(row.getCell(c), r));
    rows.push(cells);
  }
  return { rows, marker };
}

/** RFC 4180 CSV (comma, or semicolon as some spreadsheets write in Europe), with a byte-order mark allowed. */
export function readCsv(content: Buffer): Grid {
  let text = content.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === delimiter) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      if (rows.length > MAX_GRID_ROWS)
        throw problem('too_many_rows', `The file has more rows than a form takes (at most ${MAX_GRID_ROWS}).`, {
          max: MAX_GRID_ROWS,
        });
    } else cell += ch;
  }
  if (quoted) throw problem('broken', 'The CSV file has a quote that is never closed.');
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  if (rows.some((r) => r.length > MAX_GRID_COLUMNS))
    throw problem('too_many_rows', 'The file has more columns than a form takes.', { max: MAX_GRID_COLUMNS });
  const formula = findCsvFormula(rows);
  if (formula) throw formula;
  const [marker = [], ...rest] = rows;
  return {
    rows: [
      [marker[0] === MARKER ? '' : (marker[0] ?? '')],
      ...rest.map((r) => r.map((v) => (v.trim() === '' ? null : v))),
    ],
    marker,
  };
}

/** A CSV has no formulas, but a spreadsheet opens "=..." as one: refused, as in an .xlsx. */
function findCsvFormula(rows: string[][]): FileProblem | null {
  for (let r = 1; r < rows.length; r += 1) {
    const c = rows[r].findIndex((v) => /^\s*[=@]/.test(v));
    if (c >= 0) {
      const column = String.fromCharCode(65 + c);
      return new FileProblem(422, 'formula', `The cell ${column}${r + 1} holds a formula: type the figure itself.`, {
        row: r + 1,
        column,
      });
    }
  }
  return null;
}
