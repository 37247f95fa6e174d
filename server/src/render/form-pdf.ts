/**
 * The printable copy of an APC form (1 to 5), rendered when a form is certified (and on demand for drafts).
 */
import {
  certificationStatement,
  EXPORT_BY_COUNTRY_FIELDS,
  FORM_FIELDS,
  PECANS_PURCHASED_NON_US_FIELDS,
  type FieldDef,
} from '@pecan/contract';
import { CONFIDENTIALITY_NOTICE, CONFIDENTIALITY_TITLE, handlerLine, type HandlerRef } from './common.js';
import { FORM_BASIS, FORM_NAMES, FORM_SECTIONS, fieldLabel, type FormSection } from './form-labels.js';
import {
  EMPTY,
  formatBool,
  formatCountry,
  formatDate,
  formatDateTimeUtc,
  formatInteger,
  formatMoney,
  formatMonth,
  formatPounds,
  formatRatio,
  pdfSafe,
  toNumber,
} from './format.js';
import { COLORS, PdfLayout, type TableColumn, type TableRow } from './pdf-layout.js';

export type FormPdfBundle = keyof typeof FORM_NAMES;

export interface FormCertification {
  /** The name typed by the certifier. */
  name: string;
  title?: string | null;
  /** ISO timestamp stamped by the server when the form was certified. */
  datetime: string;
}

/**
 * Everything the PDF of one form version shows. Attribute and row values are exactly the API's: keys `field_x`,
 * pounds as integers, money as decimal strings ("1234.50"), ratios as decimal strings ("0.4800"), dates
 * "YYYY-MM-DD", months "YYYY-MM", the variety list as [{ variety, pounds }].
 */
export interface FormPdfInput {
  bundle: FormPdfBundle;
  /** The node title; used as the PDF's metadata title when given. */
  title?: string;
  handler: HandlerRef;
  /** Monthly forms (1, 2, 3): the reporting period. */
  period?: { month: string };
  /** Yearly forms (4, 5): the season, e.g. { title: "2025-2026" }. */
  season?: { title: string };
  /** 0 for the original filing, N for the N-th amendment. */
  amendmentNumber: number;
  amendmentReason?: string | null;
  status: 'draft' | 'certified' | 'superseded';
  /** The form's attributes keyed by API name (`field_receipts_native`, ...). */
  attributes: Record<string, unknown>;
  /** Form 2: its pecans_purchased_non_us records; form 3: its export_by_country records (API attributes each). */
  rows?: Array<Record<string, unknown>>;
  /**
   * Form 4: the two parties of the transfer agreement, whether it is still active, and the receiving handler's
   * countersignature (null until it countersigns).
   */
  transfer?: {
    transferring: HandlerRef;
    receiving: HandlerRef;
    activity?: 'active' | 'cancelled';
    countersignature?: FormCertification | null;
  };
  /** Form 1: the handlers its inter-handler shipment lines name, by id. */
  receivers?: Record<string, HandlerRef>;
  certification?: FormCertification | null;
}

const STATUS_TEXT = {
  draft: 'Draft (not certified)',
  certified: 'Certified',
  superseded: 'Superseded by a later amendment',
};

/** Renders the form as a US-letter PDF. */
export async function renderFormPdf(input: FormPdfInput): Promise<Uint8Array> {
  const name = FORM_NAMES[input.bundle];
  const when = input.period ? formatMonth(input.period.month) : input.season ? `Season ${input.season.title}` : '';
  const pdf = await PdfLayout.create({
    title: input.title ? `${name}: ${input.title}` : name,
    reference: `Handler ${input.handler.number}${when ? `  |  ${when}` : ''}`,
    footerNote: `${name}  |  ${pdfSafe(handlerLine(input.handler))}  |  Confidential under 7 CFR 986.81`,
    watermark: input.status === 'draft' ? 'DRAFT' : undefined,
  });
  drawIdentification(pdf, input, name);
  if (FORM_FIELDS[input.bundle].some((f) => f.entry === 'computed')) {
    pdf.paragraph('Shaded rows marked "Calculated" are computed by the portal from the figures the handler entered.', {
      size: 8,
      font: 'oblique',
      color: COLORS.muted,
      after: 0,
    });
  }
  for (const section of sectionsOf(input.bundle)) drawSection(pdf, section, input);
  drawRows(pdf, input);
  drawCertification(pdf, input);
  return pdf.finish();
}

function drawIdentification(pdf: PdfLayout, input: FormPdfInput, name: string): void {
  pdf.title(name, input.amendmentNumber > 0 ? `AMENDMENT ${input.amendmentNumber}` : undefined);
  pdf.paragraph(FORM_BASIS[input.bundle], { size: 9, color: COLORS.muted, after: 8 });
  const pairs: Array<[string, string]> = [
    ['Handler', input.handler.name],
    ['Handler number', String(input.handler.number)],
  ];
  if (input.period) pairs.push(['Reporting period', formatMonth(input.period.month)]);
  if (input.season) pairs.push(['Season', input.season.title]);
  pairs.push(['Status', STATUS_TEXT[input.status] ?? input.status]);
  pairs.push(['Version', input.amendmentNumber > 0 ? `Amendment ${input.amendmentNumber}` : 'Original filing']);
  if (input.transfer) {
    pairs.push(['Transferring handler', handlerLine(input.transfer.transferring)]);
    pairs.push(['Receiving handler', handlerLine(input.transfer.receiving)]);
    if (input.transfer.activity)
      pairs.push(['Agreement', input.transfer.activity === 'active' ? 'Active' : 'Cancelled']);
  }
  pdf.infoGrid(pairs, 3);
  if (input.amendmentNumber > 0) {
    const reason = input.amendmentReason?.trim() || 'No reason given.';
    pdf.notice(
      `Amendment ${input.amendmentNumber} of this report`,
      [
        `Reason: ${reason}`,
        'This version replaces the previously certified version of the report for the same handler and period.',
      ],
      { fill: COLORS.white, border: COLORS.alert },
    );
  }
}

/** The form's sections, plus an "Other" section for any contract field they do not name. */
function sectionsOf(bundle: FormPdfBundle): FormSection[] {
  const sections = FORM_SECTIONS[bundle] ?? [];
  const named = new Set(sections.flatMap((s) => s.fields));
  const rest = FORM_FIELDS[bundle].map((f) => f.name).filter((n) => !named.has(n));
  return rest.length ? [...sections, { title: 'Other', fields: rest }] : sections;
}

function attr(values: Record<string, unknown>, name: string): unknown {
  return values[`field_${name}`] ?? values[name];
}

/** Item | Value | Unit | Calculated mark; a section of free text without units gets a wide left-aligned value. */
function fieldColumns(fields: FieldDef[]): TableColumn[] {
  if (fields.some((f) => f.kind === 'text' || f.kind === 'month') && fields.every((f) => !f.unit)) {
    return [
      { header: 'Item', width: 45 },
      { header: 'Value', width: 55 },
    ];
  }
  return [
    { header: 'Item', width: 46 },
    { header: 'Value', width: 22, align: 'right' },
    { header: 'Unit', width: 17 },
    { header: '', width: 15, font: 'oblique', color: COLORS.muted },
  ];
}

function drawSection(pdf: PdfLayout, section: FormSection, input: FormPdfInput): void {
  const defs = new Map(FORM_FIELDS[input.bundle].map((f) => [f.name, f]));
  const fields = section.fields.map((n) => defs.get(n)).filter((f): f is FieldDef => Boolean(f));
  if (!fields.length) return;
  pdf.heading(section.title);
  const columns = fieldColumns(fields);
  let pending: TableRow[] = [];
  const flush = (): void => {
    if (pending.length)
      pdf.table({ columns, rows: pending.map((r) => ({ ...r, cells: r.cells.slice(0, columns.length) })) });
    pending = [];
  };
  for (const field of fields) {
    if (field.kind === 'varietyList') {
      flush();
      drawVarietyList(pdf, field, attr(input.attributes, field.name));
      continue;
    }
    if (field.kind === 'transferList') {
      flush();
      drawTransferList(pdf, field, attr(input.attributes, field.name), input.receivers ?? {});
      continue;
    }
    pending.push(fieldRow(field, attr(input.attributes, field.name), input));
  }
  flush();
}

function fieldRow(field: FieldDef, value: unknown, input: FormPdfInput): TableRow {
  const computed = field.entry === 'computed';
  return {
    cells: [fieldLabel(field.name), formatValue(field, value, input), unitOf(field), computed ? 'Calculated' : ''],
    style: computed ? 'computed' : 'normal',
  };
}

function unitOf(field: FieldDef): string {
  if (field.kind === 'ratio') return 'lb shelled per lb inshell';
  return field.unit ?? '';
}

/** An API value in the words of its field's kind. */
export function formatValue(field: FieldDef, value: unknown, input?: FormPdfInput): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  switch (field.kind) {
    case 'pounds':
      return formatPounds(value);
    case 'money':
      return formatMoney(value);
    case 'ratio':
      return formatRatio(value);
    // Always four places, as the API writes it: "2.3500" stays "$2.3500", never shortened to "$2.35".
    case 'price':
      return `$${String(value)}`;
    case 'date':
      return formatDate(value);
    case 'month':
      return formatMonth(value);
    case 'bool':
      return formatBool(value);
    case 'varietyList':
      return `${varieties(value).length} varieties`;
    case 'transferList':
      return `${Array.isArray(value) ? value.length : 0} lines`;
    default:
      return formatText(field, value, input);
  }
}

function formatText(field: FieldDef, value: unknown, input?: FormPdfInput): string {
  const text = String(value);
  if (field.name.startsWith('country')) return formatCountry(text);
  if (field.name === 'responsible_handler' && input?.transfer) {
    if (text === 'transferring') return `Transferring handler: ${handlerLine(input.transfer.transferring)}`;
    if (text === 'receiving') return `Receiving handler: ${handlerLine(input.transfer.receiving)}`;
  }
  return pdfSafe(text);
}

function varieties(value: unknown): Array<{ variety: string; pounds: number | null }> {
  let list = value;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      list = [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.map((item: { variety?: unknown; pounds?: unknown }) => ({
    variety: String(item?.variety ?? ''),
    pounds: toNumber(item?.pounds),
  }));
}

const TYPE_TEXT: Record<string, string> = {
  improved: 'Improved',
  native: 'Native / seedling',
  substandard: 'Substandard',
};

/** Form 1's inter-handler shipments: a line per receiving handler and type, inshell pounds. */
function drawTransferList(
  pdf: PdfLayout,
  field: FieldDef,
  value: unknown,
  receivers: Record<string, HandlerRef>,
): void {
  const list = (Array.isArray(value) ? value : []) as Array<{
    receiving_handler: string;
    pecan_type: string;
    pounds: number;
  }>;
  pdf.caption(`${fieldLabel(field.name)} (${field.unit ?? 'lb'})`, 0);
  if (!list.length) {
    pdf.paragraph('No pecans shipped to other handlers.', { size: 9, color: COLORS.muted, indent: 18 });
    return;
  }
  const who = (id: string) => (receivers[id] ? handlerLine(receivers[id]) : id);
  pdf.table({
    indent: 18,
    columns: [
      { header: 'Receiving handler', width: 55 },
      { header: 'Type', width: 25 },
      { header: 'Pounds', width: 20, align: 'right' },
    ],
    rows: [
      ...list.map((l) => ({
        cells: [pdfSafe(who(l.receiving_handler)), TYPE_TEXT[l.pecan_type] ?? l.pecan_type, formatPounds(l.pounds)],
      })),
      { cells: ['Total', '', formatPounds(list.reduce((n, l) => n + (l.pounds ?? 0), 0))], style: 'total' as const },
    ],
  });
}

function drawVarietyList(pdf: PdfLayout, field: FieldDef, value: unknown): void {
  const list = varieties(value);
  pdf.caption(`${fieldLabel(field.name)} (${field.unit ?? 'lb'})`, 0);
  if (!list.length) {
    pdf.paragraph('No varieties reported.', { size: 9, color: COLORS.muted, indent: 18 });
    return;
  }
  const total = list.reduce((n, v) => n + (v.pounds ?? 0), 0);
  pdf.table({
    indent: 18,
    width: 300,
    columns: [
      { header: 'Variety', width: 60 },
      { header: 'Pounds', width: 40, align: 'right' },
    ],
    rows: [
      ...list.map((v) => ({ cells: [v.variety || EMPTY, v.pounds === null ? EMPTY : formatInteger(v.pounds)] })),
      { cells: ['Total improved', formatInteger(total)], style: 'total' as const },
    ],
  });
}

// ---- sub-records (form 2 purchases, form 3 exports) ----

const ROW_TABLES: Partial<Record<FormPdfBundle, { title: string; fields: FieldDef[]; empty: string }>> = {
  apc_form_2: {
    title: 'Pecans purchased outside the US',
    fields: PECANS_PURCHASED_NON_US_FIELDS,
    empty: 'No purchases of pecans grown outside the US were reported for this month.',
  },
  apc_form_3: {
    title: 'Exports by country of destination',
    fields: EXPORT_BY_COUNTRY_FIELDS,
    empty: 'No exports were reported for this month.',
  },
};

function drawRows(pdf: PdfLayout, input: FormPdfInput): void {
  const spec = ROW_TABLES[input.bundle];
  if (!spec) return;
  const rows = input.rows ?? [];
  pdf.heading(`${spec.title} (${rows.length} ${rows.length === 1 ? 'entry' : 'entries'})`);
  if (!rows.length) {
    pdf.paragraph(spec.empty, { size: 9, color: COLORS.muted });
    return;
  }
  const columns: TableColumn[] = spec.fields.map((f) => ({
    header: f.kind === 'pounds' ? `${fieldLabel(f.name)} (lb)` : fieldLabel(f.name),
    width: f.kind === 'pounds' ? 17 : f.name.startsWith('country') ? 28 : 18,
    align: f.kind === 'pounds' ? 'right' : 'left',
  }));
  const body: TableRow[] = rows.map((row) => ({
    cells: spec.fields.map((f) => formatValue(f, attr(row, f.name), input)),
  }));
  pdf.table({ columns, rows: [...body, totalRow(spec.fields, rows)] });
}

function totalRow(fields: FieldDef[], rows: Array<Record<string, unknown>>): TableRow {
  const cells = fields.map((f) => {
    if (f.kind !== 'pounds') return '';
    return formatInteger(rows.reduce((n, r) => n + (toNumber(attr(r, f.name)) ?? 0), 0));
  });
  cells[0] = 'Total';
  return { cells, style: 'total' };
}

// ---- certification ----

function drawCertification(pdf: PdfLayout, input: FormPdfInput): void {
  pdf.heading('Certification', 110);
  // The statement the certifier made on screen, word for word (contract: one statement for every form).
  pdf.paragraph(pdfSafe(certificationStatement(input.handler.name)), { size: 9.5, after: 6 });
  const cert = input.certification;
  if (cert) {
    pdf.infoGrid(
      [
        ['Certified by', cert.name],
        ['Title', cert.title?.trim() || EMPTY],
        ['Date and time (UTC)', formatDateTimeUtc(cert.datetime)],
      ],
      3,
    );
  } else {
    pdf.paragraph('This version has not been certified.', { size: 10, font: 'bold', color: COLORS.alert });
  }
  if (input.transfer) drawCountersignature(pdf, input, input.transfer);
  pdf.notice(CONFIDENTIALITY_TITLE, [CONFIDENTIALITY_NOTICE]);
}

/** Form 4: the receiving handler's countersignature under the same statement, or what the agreement awaits. */
function drawCountersignature(pdf: PdfLayout, input: FormPdfInput, transfer: NonNullable<FormPdfInput['transfer']>) {
  pdf.heading(`Countersignature of the receiving handler, ${handlerLine(transfer.receiving)}`, 80);
  const cs = transfer.countersignature;
  if (cs) {
    pdf.infoGrid(
      [
        ['Countersigned by', cs.name],
        ['Title', cs.title?.trim() || EMPTY],
        ['Date and time (UTC)', formatDateTimeUtc(cs.datetime)],
      ],
      3,
    );
    return;
  }
  const text =
    transfer.activity === 'cancelled'
      ? 'The agreement was cancelled before the receiving handler countersigned it.'
      : input.status === 'certified'
        ? 'Awaiting the countersignature of the receiving handler.'
        : 'The receiving handler countersigns once the transferring handler has certified the agreement.';
  pdf.paragraph(text, { size: 10, font: 'bold', color: COLORS.alert });
}
