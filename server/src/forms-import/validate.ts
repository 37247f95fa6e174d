import {
  attributeName,
  fieldValueSchema,
  MAX_POUNDS,
  MAX_TEXT_LENGTH,
  MAX_VARIETY_NAME_LENGTH,
  MAX_VARIETY_ROWS,
  poundsSchema,
  textSchema,
  validateFormAttributes,
  varietyKey,
  type FieldDef,
  type FormBundle,
} from '@pecan/contract';
import type { z } from 'zod';
import type { CellValue, Grid } from './read-file.js';
import { FileProblem } from './read-file.js';
import {
  columnLetter,
  FIELD_HEADER,
  FIRST_FIELD_ROW,
  layoutOf,
  MARKER,
  MAX_LIST_ROWS,
  TEMPLATE_VERSION,
  type ImportBundle,
} from './layout.js';

/**
 * A filled-in template checked cell by cell with the contract's schemas, the same ones every draft save runs. Each
 * problem names its row and column as the spreadsheet shows them, a code and parameters the web app words in the
 * user's language, and the schema's English message.
 */
export interface CellError {
  row: number;
  column: string;
  /** The field (or list column) the cell holds, e.g. `receipts_native`, `country`. */
  field: string;
  code: string;
  params: Record<string, string | number>;
  detail: string;
}

export interface ImportTarget {
  bundle: ImportBundle;
  month: string;
  handlerId: string;
}

export interface ParsedImport {
  /** The form's attributes as a draft save sends them (`field_` names); form 1's varieties included. */
  attributes: Record<string, unknown>;
  /** Forms 2 and 3: each row of the list as a sub-record's attributes. */
  rows: Array<Record<string, unknown>>;
  errors: CellError[];
}

const wrong = (code: string, message: string, params: Record<string, string | number> = {}) =>
  new FileProblem(422, code, message, params);

/** The template must be this form's, month's and handler's: refused whole otherwise. */
export function checkMarker(grid: Grid, target: ImportTarget): void {
  const [marker, version, bundle, month, handlerId] = grid.marker.map((v) => v.trim());
  if (marker !== MARKER || version !== TEMPLATE_VERSION)
    throw wrong('wrong_template', 'This is not a portal import template: download the template from the form page.');
  if (bundle !== target.bundle)
    throw wrong(
      'wrong_form',
      `This template is for ${bundle.replace('apc_form_', 'form ')}, not ${target.bundle.replace('apc_form_', 'form ')}.`,
      { found: bundle.replace('apc_form_', ''), expected: target.bundle.replace('apc_form_', '') },
    );
  if (month !== target.month)
    throw wrong('wrong_month', `This template is for ${month}, not ${target.month}.`, {
      found: month,
      expected: target.month,
    });
  if (handlerId !== target.handlerId) throw wrong('wrong_handler', 'This template was downloaded for another handler.');
}

const text = (v: CellValue): string =>
  v === null ? '' : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).trim();

/** A cell as the value the field's schema expects; what cannot be converted is passed on for the schema to refuse. */
function valueOf(field: FieldDef, cell: CellValue): unknown {
  if (cell === null || (typeof cell === 'string' && cell.trim() === '')) {
    if (field.kind === 'pounds') return 0;
    if (field.kind === 'bool') return false;
    return null;
  }
  switch (field.kind) {
    case 'pounds': {
      if (typeof cell === 'number') return cell;
      const s = text(cell);
      if (/^\d+$/.test(s) || /^\d{1,3}([,  ]\d{3})+$/.test(s)) return Number(s.replace(/[,  ]/g, ''));
      return s;
    }
    case 'date': {
      if (cell instanceof Date) return cell.toISOString().slice(0, 10);
      // A date typed into a cell not formatted as text: the spreadsheet's day number (1900 date system).
      if (typeof cell === 'number' && Number.isInteger(cell) && cell > 20000 && cell < 80000)
        return new Date(Math.round((cell - 25569) * 86_400_000)).toISOString().slice(0, 10);
      return text(cell);
    }
    case 'bool': {
      if (typeof cell === 'boolean') return cell;
      const s = text(cell).toLowerCase();
      if (['yes', 'true', '1', 'y'].includes(s)) return true;
      if (['no', 'false', '0', 'n'].includes(s)) return false;
      return s;
    }
    default:
      return text(cell);
  }
}

/** The code (and parameters) the web app words an invalid cell with. */
function codeOf(
  field: FieldDef,
  value: unknown,
  message: string,
): { code: string; params: Record<string, string | number> } {
  if (value === null || value === undefined || value === '') return { code: 'required', params: {} };
  switch (field.kind) {
    case 'pounds':
      return { code: 'pounds', params: { max: MAX_POUNDS.toLocaleString('en-US') } };
    case 'date':
      return { code: 'date', params: {} };
    case 'bool':
      return { code: 'bool', params: {} };
    default:
      if (/United States/.test(message)) return { code: 'country_not_us', params: {} };
      if (/country code/.test(message)) return { code: 'country', params: {} };
      return { code: 'text', params: { max: field.name === 'variety' ? MAX_VARIETY_NAME_LENGTH : MAX_TEXT_LENGTH } };
  }
}

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'is not valid';
}

const isBlank = (row: CellValue[] | undefined): boolean =>
  !row || row.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));

export function parseImport(grid: Grid, target: ImportTarget): ParsedImport {
  checkMarker(grid, target);
  const layout = layoutOf(target.bundle);
  const errors: CellError[] = [];
  const cellError = (row: number, column: number, field: FieldDef, value: unknown, detail: string) => {
    errors.push({ row, column: columnLetter(column), field: field.name, ...codeOf(field, value, detail), detail });
  };
  const rows = grid.rows;
  const header = (rows[FIRST_FIELD_ROW - 2] ?? []).slice(0, FIELD_HEADER.length).map(text);
  if (header.join('|') !== FIELD_HEADER.join('|')) {
    throw wrong(
      'wrong_layout',
      `Row 2 must be the template's header (${FIELD_HEADER.join(', ')}): download the template again.`,
      { row: 2 },
    );
  }

  // The form's own fields: every one once, in column A, its value in column C.
  const attributes: Record<string, unknown> = {};
  const seen = new Set<string>();
  let r = FIRST_FIELD_ROW - 1;
  for (; r < rows.length && !isBlank(rows[r]); r += 1) {
    const name = text(rows[r][0] ?? null);
    const field = layout.fields.find((f) => f.name === name);
    if (!field || seen.has(name)) {
      throw wrong(
        field ? 'duplicate_field' : 'unknown_field',
        `Row ${r + 1}: "${name}" is ${field ? 'listed twice' : 'not a field of this form'}: download the template again.`,
        { row: r + 1, field: name },
      );
    }
    seen.add(name);
    const value = valueOf(field, rows[r][2] ?? null);
    if (value === null) {
      attributes[attributeName(field)] = null;
      continue;
    }
    const result = fieldValueSchema(target.bundle as FormBundle, field).safeParse(value);
    if (result.success) attributes[attributeName(field)] = value;
    else cellError(r + 1, 3, field, value, firstMessage(result.error));
  }
  const missing = layout.fields.filter((f) => !seen.has(f.name)).map((f) => f.name);
  if (missing.length > 0)
    throw wrong(
      'missing_fields',
      `The template lacks the rows of ${missing.join(', ')}: download the template again.`,
      { fields: missing.join(', ') },
    );

  // The list: its header row after the blank line, then one row per entry.
  while (r < rows.length && isBlank(rows[r])) r += 1;
  const columns = layout.list.columns;
  const listHeader = (rows[r] ?? []).slice(0, columns.length).map(text);
  if (listHeader.join('|') !== columns.map((c) => c.name).join('|')) {
    throw wrong(
      'wrong_layout',
      `Row ${r + 1} must be the list's header (${columns.map((c) => c.name).join(', ')}): download the template again.`,
      { row: r + 1 },
    );
  }
  const list: Array<{ row: number; values: Record<string, unknown> }> = [];
  for (r += 1; r < rows.length; r += 1) {
    if (isBlank(rows[r])) continue;
    const values: Record<string, unknown> = {};
    columns.forEach((column, c) => {
      const cell = rows[r][c] ?? null;
      const value = valueOf(column, cell);
      values[column.name] = value;
      if (value === null && column.optional) return;
      const schema =
        layout.list.target === 'receipts_by_variety'
          ? column.name === 'variety'
            ? textSchema('variety', MAX_VARIETY_NAME_LENGTH, true)
            : poundsSchema('pounds')
          : fieldValueSchema(layout.list.target, column);
      const result = value === null ? null : schema.safeParse(value);
      if (result === null) cellError(r + 1, c + 1, column, value, `${column.name} is required`);
      else if (!result.success) cellError(r + 1, c + 1, column, value, firstMessage(result.error));
      else values[column.name] = result.data;
    });
    list.push({ row: r + 1, values });
  }
  const maxRows = layout.list.target === 'receipts_by_variety' ? MAX_VARIETY_ROWS : MAX_LIST_ROWS;
  if (list.length > maxRows)
    throw wrong('too_many_rows', `The list has ${list.length} rows; a form takes at most ${maxRows}.`, {
      max: maxRows,
    });

  let subRows: Array<Record<string, unknown>> = [];
  if (layout.list.target === 'receipts_by_variety') {
    const keys = new Map<string, number>();
    for (const entry of list) {
      const name = String(entry.values.variety ?? '');
      const key = varietyKey(name);
      if (name && keys.has(key)) {
        errors.push({
          row: entry.row,
          column: 'A',
          field: 'variety',
          code: 'duplicate_variety',
          params: { variety: name, first: keys.get(key)! },
          detail: `"${name}" is listed twice (first in row ${keys.get(key)})`,
        });
      } else keys.set(key, entry.row);
    }
    attributes.field_receipts_by_variety = list.map((e) => ({ variety: e.values.variety, pounds: e.values.pounds }));
  } else {
    subRows = list.map((e) => Object.fromEntries(columns.map((c) => [attributeName(c), e.values[c.name] ?? null])));
  }

  // Last, the whole form and every row once more exactly as a save checks them: nothing the save would refuse passes.
  if (errors.length === 0) {
    for (const e of validateFormAttributes(target.bundle, attributes)) {
      errors.push({
        row: FIRST_FIELD_ROW,
        column: 'C',
        field: e.field.replace(/^field_/, ''),
        code: 'invalid',
        params: {},
        detail: e.message,
      });
    }
    subRows.forEach((attrs, i) => {
      for (const e of validateFormAttributes(layout.list.target as FormBundle, attrs, { mode: 'complete' })) {
        const c = columns.findIndex((col) => attributeName(col) === e.field);
        errors.push({
          row: list[i].row,
          column: columnLetter(c + 1),
          field: e.field.replace(/^field_/, ''),
          code: 'invalid',
          params: {},
          detail: e.message,
        });
      }
    });
  }
  return { attributes, rows: subRows, errors };
}
