import {
  apiAttributesOf,
  augustAnswerError,
  certificationErrors,
  columnOf,
  FORM_FIELDS,
  validateFormAttributes,
  type FieldError,
} from '@pecan/contract';
import { lockForTransaction } from '../db/transaction-locks.js';
import { ApiError, conflict } from '../lib/errors.js';
import type { Row, WriteInput } from '../jsonapi/resource.js';
import {
  assertDraft,
  assertNotStale,
  assertOwnHandler,
  audit,
  dbBool,
  dbOf,
  insertNode,
  loadRow,
  nowIso,
  storeFile,
  todayOf,
  updateRow,
  type Actor,
} from './common.js';
import { computedColumns } from './form-figures.js';
import { issueInvoiceForForm1 } from './invoices.js';
import { renderFormVersionPdf } from './form-pdf.js';
import { assertReceivers } from './transfer-assessment.js';
import { keepStaleForm1 } from './stale-year-to-date.js';

/**
 * The life every versioned APC form shares (forms 1, 2, 3 and 5): draft edits, certification, and amendments that
 * keep every version. A form's versions live in one scope: a package for the monthly forms, a handler's season
 * for form 5. The last version is the current one.
 */
export interface VersionedForm {
  bundle: 'apc_form_1' | 'apc_form_2' | 'apc_form_3' | 'apc_form_5';
  /** Columns that place a version in its scope and are copied to an amendment. */
  scopeColumns: Array<'package_id' | 'handler_id' | 'period_id' | 'season_id'>;
  pdfColumn: 'form_1_pdf_id' | 'form_2_pdf_id' | 'form_3_pdf_id' | 'form_5_pdf_id';
  subRecords?: 'pecans_purchased_non_us' | 'export_by_country';
}

export const VERSIONED_FORMS: Record<VersionedForm['bundle'], VersionedForm> = {
  apc_form_1: {
    bundle: 'apc_form_1',
    scopeColumns: ['package_id', 'handler_id', 'period_id'],
    pdfColumn: 'form_1_pdf_id',
  },
  apc_form_2: {
    bundle: 'apc_form_2',
    scopeColumns: ['package_id', 'handler_id', 'period_id'],
    pdfColumn: 'form_2_pdf_id',
    subRecords: 'pecans_purchased_non_us',
  },
  apc_form_3: {
    bundle: 'apc_form_3',
    scopeColumns: ['package_id', 'handler_id', 'period_id'],
    pdfColumn: 'form_3_pdf_id',
    subRecords: 'export_by_country',
  },
  apc_form_5: { bundle: 'apc_form_5', scopeColumns: ['handler_id', 'season_id'], pdfColumn: 'form_5_pdf_id' },
};

export const unprocessable = (errors: FieldError[]) =>
  ApiError.many(
    422,
    errors.map((e) => ({ detail: e.message, source: { pointer: `/data/attributes/${e.field}` } })),
  );

function checkFormFields(form: VersionedForm, attributes: Record<string, unknown>): void {
  const errors = validateFormAttributes(form.bundle, attributes);
  if (errors.length > 0) throw unprocessable(errors);
}

/**
 * Column values of the request that belong to the form itself: certification is handled apart, and the columns that
 * place a version (its handler, package, period or season, and the version it amends) are the server's to set.
 */
function editedColumns(form: VersionedForm, input: WriteInput): Row {
  const placed = new Set([
    ...form.scopeColumns,
    'amendment_of_id',
    'certified',
    'certification_name',
    'certification_title',
  ]);
  return Object.fromEntries(Object.entries(input.values).filter(([column]) => !placed.has(column)));
}

/**
 * A request may repeat where a version belongs but never move it: naming another handler, season or earlier version
 * is a 422 (found by the generated isolation test: an amendment once took its handler from the request).
 */
function assertPlacementKept(form: VersionedForm, base: Row, input: WriteInput): void {
  const errors: FieldError[] = [];
  for (const column of [...form.scopeColumns, 'amendment_of_id']) {
    if (!(column in input.values) || input.values[column] === base[column]) continue;
    const field =
      Object.entries(input.relationships).find(([, link]) => link?.id === input.values[column])?.[0] ?? column;
    errors.push({ field, message: `${field} cannot change: it is where this version of the form belongs.` });
  }
  if (errors.length > 0) throw unprocessable(errors);
}

/** PATCH of a draft: validate, save, recompute the shaded fields; certify too when `field_certified` is true. */
export async function updateDraft(a: Actor, form: VersionedForm, row: Row, input: WriteInput): Promise<void> {
  assertOwnHandler(a.viewer, row.handler_id, 'forms');
  assertDraft(row);
  assertNotStale(row, input.meta);
  assertPlacementKept(form, row, input);
  checkFormFields(form, input.attributes);
  if (input.attributes.field_certified === false)
    throw unprocessable([
      { field: 'field_certified', message: 'A certification cannot be withdrawn: amend the form instead.' },
    ]);
  // An amendment keeps its reason: it may be reworded on the draft, never emptied.
  if (Number(row.amendment_number) > 0 && 'field_amendment_reason' in input.attributes)
    input.values.amendment_reason = amendmentReasonOf(input);
  const merged = { ...row, ...editedColumns(form, input) };
  if (form.bundle === 'apc_form_1' && 'interhandler_shipments' in input.values)
    await assertReceivers(a, row.handler_id, merged.interhandler_shipments);
  const computed = await computedColumns(a, form.bundle, merged);
  assertAnswersFollowFigures(form, input, { ...merged, ...computed });
  if (Number(row.amendment_number) > 0 && input.attributes.field_certified === true)
    await assertSeasonOpen(a, form, row);
  const changed = await updateRow(a, form.bundle, row, { ...editedColumns(form, input), ...computed });
  if (input.attributes.field_certified === true) await certify(a, form, { ...merged, ...computed, changed }, input);
}

/**
 * A handler's answer that the figures contradict is refused when it is given, not only at certification: form 5's
 * "the August Form 1 must be amended" cannot be no while the August Form 1 shows other inventory.
 */
function assertAnswersFollowFigures(form: VersionedForm, input: WriteInput, row: Row): void {
  if (form.bundle !== 'apc_form_5' || input.attributes.field_aug_form_1_amend_reqd !== false) return;
  const found = augustAnswerError(apiAttributesOf(form.bundle, row));
  if (found) throw unprocessable([found]);
}

/** The season a version belongs to: form 5 names it, a monthly form through its reporting period. */
async function seasonOf(a: Actor, form: VersionedForm, row: Row): Promise<Row> {
  const db = dbOf(a);
  if (form.bundle === 'apc_form_5') return loadRow(db, 'seasons', row.season_id);
  const period = await loadRow(db, 'reporting_periods', row.period_id);
  return loadRow(db, 'seasons', period.season_id);
}

/**
 * A closed season's filings stay as they are: an amendment is started or certified only while staff have the season
 * open (council seasons: close and reopen, each with an audit entry).
 */
async function assertSeasonOpen(a: Actor, form: VersionedForm, row: Row): Promise<void> {
  const season = await seasonOf(a, form, row);
  if (season.season_closed === true || season.season_closed === 1) {
    throw conflict(
      `The ${String(season.title)} season is closed: its filings are amended only after Council staff reopen it.`,
    );
  }
}

/** Longest amendment reason kept: a paragraph, as on the PDF and the submissions board. */
export const MAX_AMENDMENT_REASON_LENGTH = 1000;

/** Every amendment says why (domain brief, "Amendments"): the reason goes on the version, its PDF and the board. */
function amendmentReasonOf(input: WriteInput): string {
  const reason =
    typeof input.attributes.field_amendment_reason === 'string' ? input.attributes.field_amendment_reason.trim() : '';
  if (!reason)
    throw unprocessable([
      { field: 'field_amendment_reason', message: 'Say why the form is amended in field_amendment_reason.' },
    ]);
  if (reason.length > MAX_AMENDMENT_REASON_LENGTH) {
    throw unprocessable([
      {
        field: 'field_amendment_reason',
        message: `field_amendment_reason must be at most ${MAX_AMENDMENT_REASON_LENGTH} characters.`,
      },
    ]);
  }
  return reason;
}

/**
 * Form 5 reports the inventory held at the end of the season, 31 August (986.175(a)): it can be saved as a draft
 * before then, and certified from that day on.
 */
async function assertSeasonEnded(a: Actor, seasonId: unknown): Promise<void> {
  const season = await loadRow(dbOf(a), 'seasons', String(seasonId));
  const end = String(season.season_end_date).slice(0, 10);
  if (todayOf(a) >= end) return;
  const day = new Date(`${end}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
  throw conflict(
    `The year-end form of ${String(season.title)} reports the inventory held on ${day}: it can be certified from that day.`,
  );
}

/**
 * Certification: the server's time, the certifier's name, status `certified`, the PDF, and for form 1 the invoice;
 * the version it amends becomes `superseded`. All in the caller's transaction: either all of it or none.
 */
export async function certify(a: Actor, form: VersionedForm, row: Row, input: WriteInput): Promise<void> {
  const name =
    typeof input.attributes.field_certification_name === 'string'
      ? input.attributes.field_certification_name.trim()
      : '';
  const errors: FieldError[] = name
    ? []
    : [{ field: 'field_certification_name', message: 'Type your name to certify the form.' }];
  errors.push(...certificationErrors(form.bundle, apiAttributesOf(form.bundle, row)));
  if (errors.length > 0) throw unprocessable(errors);
  // A receiver deactivated since the draft was saved.
  if (form.bundle === 'apc_form_1') await assertReceivers(a, row.handler_id, row.interhandler_shipments);
  if (form.bundle === 'apc_form_5') await assertSeasonEnded(a, row.season_id);
  const title =
    typeof input.attributes.field_certification_title === 'string'
      ? input.attributes.field_certification_title.trim()
      : null;
  const stamp = {
    form_status: 'certified',
    certified: dbBool(a, true),
    certification_name: name.slice(0, 255),
    certification_title: title ? title.slice(0, 255) : null,
    certification_datetime: nowIso(a),
  };
  const certifiedRow: Row = { ...row, ...stamp };
  const pdf = await renderFormVersionPdf(a, form.bundle, certifiedRow);
  const fileId = await storeFile(
    a,
    { type: `node--${form.bundle}`, id: String(row.id) },
    pdf.filename,
    'application/pdf',
    pdf.content,
  );
  await dbOf(a)
    .updateTable(form.bundle)
    .set({ ...stamp, [form.pdfColumn]: fileId })
    .where('id', '=', row.id as string)
    .execute();
  await audit(a, {
    type: form.bundle,
    id: String(row.id),
    action: 'certify',
    before: row,
    after: { ...certifiedRow, [form.pdfColumn]: fileId },
  });
  await supersedeEarlier(a, form, certifiedRow);
  if (form.bundle === 'apc_form_1') {
    await issueInvoiceForForm1(a, { ...certifiedRow, [form.pdfColumn]: fileId });
    // Two certifications of one handler's forms 1 at once (PostgreSQL) would each check without the other's version,
    // and the last to commit would keep its answer: the second waits here, then reads the first's.
    await lockForTransaction(a.ctx.db, a.ctx.dialect, [`form1-stale:${String(row.handler_id)}`]);
    await keepStaleForm1(dbOf(a), String(row.handler_id));
  }
}

async function supersedeEarlier(a: Actor, form: VersionedForm, row: Row): Promise<void> {
  let earlier = dbOf(a)
    .selectFrom(form.bundle)
    .selectAll()
    .where('id', '<>', row.id as string)
    .where('form_status', '=', 'certified');
  for (const c of form.scopeColumns) earlier = earlier.where(c, '=', row[c] as string);
  for (const old of (await earlier.execute()) as Row[]) {
    await dbOf(a)
      .updateTable(form.bundle)
      .set({ form_status: 'superseded' })
      .where('id', '=', old.id as string)
      .execute();
    await audit(a, {
      type: form.bundle,
      id: String(old.id),
      action: 'supersede',
      before: old,
      after: { ...old, form_status: 'superseded' },
    });
  }
}

/**
 * POST of a new version: always an amendment of the current certified version (`field_amendment_of`). It starts
 * as a copy of that version, sub-records included; the request's attributes override the copy.
 */
export async function createAmendment(a: Actor, form: VersionedForm, input: WriteInput, id?: string): Promise<string> {
  const ofId = input.relationships.field_amendment_of?.id;
  if (!ofId)
    throw unprocessable([
      {
        field: 'field_amendment_of',
        message: 'A new version of a form is an amendment: name the certified form it amends in field_amendment_of.',
      },
    ]);
  // Two amendments of one version at once would both find it current and no draft open, and both be made (on
  // PostgreSQL; SQLite runs writes one at a time): the second waits here, then finds the first (409 below).
  await lockForTransaction(a.ctx.db, a.ctx.dialect, [`form-amendment:${form.bundle}:${ofId}`]);
  const previous = await loadRow(dbOf(a), form.bundle, ofId).catch(() => {
    throw new ApiError(422, 'The form named in field_amendment_of does not exist.', {
      source: { pointer: '/data/relationships/field_amendment_of' },
    });
  });
  assertOwnHandler(a.viewer, previous.handler_id, 'forms');
  if (previous.form_status !== 'certified')
    throw conflict('Only the current certified version of a form can be amended.');
  await assertNoOpenDraft(a, form, previous);
  assertPlacementKept(form, { ...previous, amendment_of_id: previous.id }, input);
  checkFormFields(form, input.attributes);
  const reason = amendmentReasonOf(input);
  await assertSeasonOpen(a, form, previous);
  const number = await nextAmendmentNumber(a, form, previous);
  const newId = await insertNode(
    a,
    form.bundle,
    {
      ...copyOf(form, previous),
      title: `${String(previous.title).replace(/ \(Amendment \d+\)$/, '')} (Amendment ${number})`,
      amendment_of_id: previous.id,
      amendment_number: number,
      form_status: 'draft',
      ...editedColumns(form, input),
      amendment_reason: reason,
    },
    id,
  );
  if (form.subRecords) await copySubRecords(a, form.subRecords, String(previous.id), newId);
  const row = await loadRow(dbOf(a), form.bundle, newId);
  const computed = await computedColumns(a, form.bundle, row);
  assertAnswersFollowFigures(form, input, { ...row, ...computed });
  const changed = await updateRow(a, form.bundle, row, computed);
  if (input.attributes.field_certified === true) await certify(a, form, { ...row, ...computed, changed }, input);
  return newId;
}

function copyOf(form: VersionedForm, previous: Row): Row {
  const columns = [...form.scopeColumns, ...FORM_FIELDS[form.bundle].map(columnOf)];
  return Object.fromEntries(columns.map((c) => [c, previous[c]]));
}

async function assertNoOpenDraft(a: Actor, form: VersionedForm, previous: Row): Promise<void> {
  let q = dbOf(a).selectFrom(form.bundle).select('id').where('form_status', '=', 'draft');
  for (const c of form.scopeColumns) q = q.where(c, '=', previous[c] as string);
  if (await q.executeTakeFirst())
    throw conflict('An amendment of this form is already in progress: finish or certify it first.');
}

async function nextAmendmentNumber(a: Actor, form: VersionedForm, previous: Row): Promise<number> {
  let q = dbOf(a)
    .selectFrom(form.bundle)
    .select((eb) => eb.fn.max('amendment_number').as('n'));
  for (const c of form.scopeColumns) q = q.where(c, '=', previous[c] as string);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

async function copySubRecords(
  a: Actor,
  table: NonNullable<VersionedForm['subRecords']>,
  fromForm: string,
  toForm: string,
): Promise<void> {
  const rows = (await dbOf(a)
    .selectFrom(table)
    .selectAll()
    .where('form_id', '=', fromForm)
    .orderBy('position')
    .execute()) as Row[];
  for (const r of rows) {
    const { id: _id, created: _c, changed: _ch, ...rest } = r;
    await insertNode(a, table, { ...rest, form_id: toForm });
  }
}

/** Recomputes a draft's totals after one of its rows changed (forms 2 and 3). */
export async function recomputeDraft(a: Actor, form: VersionedForm, formId: string): Promise<void> {
  const row = await loadRow(dbOf(a), form.bundle, formId);
  await updateRow(a, form.bundle, row, await computedColumns(a, form.bundle, row));
}
