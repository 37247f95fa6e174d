import { FORM_FIELDS, type FieldDef } from '@pecan/contract';
import { fieldLabel } from '../render/form-labels.js';

/**
 * The layout of an import template, the same in the .xlsx and the .csv (decision 0013):
 *
 *   row 1   the marker (csv) or a title (xlsx, whose marker is the hidden sheet `portal`)
 *   row 2   field | description | value | unit
 *   row 3.. one row per entered field of the form, its value in column C
 *   (blank)
 *   row n   the list's header: its column keys (form 1: variety, pounds; form 2: the purchases; form 3: the exports)
 *   row n+1.. one row per entry of the list
 */
export type ImportBundle = 'apc_form_1' | 'apc_form_2' | 'apc_form_3';
export const IMPORT_BUNDLES: readonly ImportBundle[] = ['apc_form_1', 'apc_form_2', 'apc_form_3'];

export const MARKER = 'pecan-portal-import';
export const TEMPLATE_VERSION = '1';
export const MARKER_SHEET = 'portal';
export const DATA_SHEET = 'Import';
export const FIELD_HEADER = ['field', 'description', 'value', 'unit'] as const;
export const FIRST_FIELD_ROW = 3;

/** Bytes of an upload; 413 over it. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
/** Bytes all the parts of an .xlsx may hold once inflated: a larger one is refused before it is read. */
export const MAX_INFLATED_BYTES = 20 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 200;
/** Rows of a form's list in one file (form 1's varieties stop at 200 by the form's own rule). */
export const MAX_LIST_ROWS = 500;
export const MAX_GRID_ROWS = 1000;
export const MAX_GRID_COLUMNS = 26;

export interface ListLayout {
  /** The form's attribute (form 1) or the sub-record type (forms 2, 3) the list fills. */
  target: 'receipts_by_variety' | 'pecans_purchased_non_us' | 'export_by_country';
  columns: FieldDef[];
}

export interface Layout {
  bundle: ImportBundle;
  /** The form's own entered fields, one row each. */
  fields: FieldDef[];
  list: ListLayout;
}

const VARIETY_COLUMNS: FieldDef[] = [
  { name: 'variety', kind: 'text', entry: 'entered' },
  { name: 'pounds', kind: 'pounds', entry: 'entered', unit: 'lb inshell' },
];

export function layoutOf(bundle: ImportBundle): Layout {
  // Lists are not rows of their own: the varieties are the sheet's list; form 1's inter-handler transfer lines
  // (receiver and type, decision 0010) are entered on the form page and kept as the draft has them.
  const fields = FORM_FIELDS[bundle].filter(
    (f) => f.entry === 'entered' && f.kind !== 'varietyList' && f.kind !== 'transferList',
  );
  const list: ListLayout =
    bundle === 'apc_form_1'
      ? { target: 'receipts_by_variety', columns: VARIETY_COLUMNS }
      : bundle === 'apc_form_2'
        ? { target: 'pecans_purchased_non_us', columns: FORM_FIELDS.pecans_purchased_non_us }
        : { target: 'export_by_country', columns: FORM_FIELDS.export_by_country };
  return { bundle, fields, list };
}

/** The spreadsheet's column letter of a 1-based column number (A..Z, then AA..). */
export function columnLetter(column: number): string {
  let n = column;
  let letters = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    letters = String.fromCharCode(65 + r) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

export const labelOf = (name: string): string => fieldLabel(name);
