import {
  apiAttributesOf,
  certificationErrors,
  transferAgreementDueDate,
  validateFormAttributes,
} from '@pecan/contract';
import { isStaff } from '../context.js';
import { lockForTransaction } from '../db/transaction-locks.js';
import type { Row, WriteInput } from '../jsonapi/resource.js';
import { ApiError, conflict, forbidden } from '../lib/errors.js';
import {
  assertNotStale,
  dbBool,
  dbOf,
  insertNode,
  loadRow,
  nowIso,
  storeFile,
  updateRow,
  type Actor,
} from './common.js';
import { renderFormVersionPdf } from './form-pdf.js';
import { settleAgreementInvoices } from './invoices.js';
import { FORM_TITLES } from './packages.js';
import { unprocessable } from './versioned-forms.js';

/**
 * Form 4, the yearly inter-handler transfer agreement. The transferring handler files it naming the receiving
 * handler and the season, and certifies it; the receiving handler countersigns; either party can cancel it.
 * Nothing is deleted: a cancelled agreement stays readable to both.
 */
export async function createForm4(a: Actor, input: WriteInput, id?: string): Promise<string> {
  const transferring = input.relationships.field_transferring_handler?.id ?? a.viewer.handlerId;
  const receiving = input.relationships.field_receiving_handler?.id;
  const seasonId = input.relationships.field_season?.id;
  if (!isStaff(a.viewer) && transferring !== a.viewer.handlerId)
    throw forbidden('A transfer is filed by the transferring handler.');
  const errors = validateFormAttributes('apc_form_4', input.attributes).map((e) => ({ ...e }));
  if (!transferring) errors.push({ field: 'field_transferring_handler', message: 'Name the transferring handler.' });
  if (!receiving) errors.push({ field: 'field_receiving_handler', message: 'Choose the receiving handler.' });
  if (receiving && receiving === transferring)
    errors.push({ field: 'field_receiving_handler', message: 'A handler cannot transfer to itself.' });
  if (!seasonId) errors.push({ field: 'field_season', message: 'Choose the season the agreement covers.' });
  if (errors.length > 0) throw unprocessable(errors);
  const { from, to, season } = await checkTransferTerms(a, transferring!, receiving!, seasonId!);
  const {
    certified: _c,
    certification_name: _n,
    certification_title: _t,
    receiving_certification_name: _r,
    receiving_certification_title: _rt,
    receiving_certified: _rc,
    form_activity: _fa,
    ...values
  } = input.values;
  const newId = await insertNode(
    a,
    'apc_form_4',
    {
      ...values,
      title: `${FORM_TITLES.apc_form_4}-${String(from.handler_number)}-${String(to.handler_number)}-${String(season.title)}`,
      transferring_handler_id: transferring,
      receiving_handler_id: receiving,
      season_id: seasonId,
      form_status: 'draft',
      form_activity: 'active',
      due_date: transferAgreementDueDate(values.first_transfer_month as string | null | undefined),
    },
    id,
  );
  if (input.attributes.field_certified === true)
    await certifyForm4(a, await loadRow(dbOf(a), 'apc_form_4', newId), input);
  return newId;
}

/**
 * The domain rules of a transfer: the receiver is an active handler other than the sender, the season exists, and
 * the pair has no other active agreement for the season. Run at create and again at certification (the receiver may
 * have been deactivated, or another agreement filed, since the draft was saved).
 */
async function checkTransferTerms(
  a: Actor,
  transferring: string,
  receiving: string,
  seasonId: string,
  except?: string,
) {
  if (receiving === transferring)
    throw unprocessable([{ field: 'field_receiving_handler', message: 'A handler cannot transfer to itself.' }]);
  const db = dbOf(a);
  const [from, to, season] = await Promise.all([
    loadRow(db, 'handlers', transferring),
    loadRow(db, 'handlers', receiving).catch(() => null),
    loadRow(db, 'seasons', seasonId).catch(() => null),
  ]);
  if (!to || to.handler_status !== 'active')
    throw unprocessable([
      { field: 'field_receiving_handler', message: 'The receiving handler is not an active handler.' },
    ]);
  if (!season) throw unprocessable([{ field: 'field_season', message: 'The season does not exist.' }]);
  // No unique index holds one active agreement per pair and season: two filings at once (PostgreSQL runs them side
  // by side) would both find none. The second waits here, then finds the first.
  await lockForTransaction(a.ctx.db, a.ctx.dialect, [`form4:${transferring}:${receiving}:${seasonId}`]);
  let others = db
    .selectFrom('apc_form_4')
    .select('id')
    .where('transferring_handler_id', '=', transferring)
    .where('receiving_handler_id', '=', receiving)
    .where('season_id', '=', seasonId)
    .where('form_activity', '=', 'active');
  if (except) others = others.where('id', '<>', except);
  if (await others.executeTakeFirst())
    throw conflict(
      `There is already an active transfer agreement with ${String(to.title)} for ${String(season.title)}.`,
    );
  return { from, to, season };
}

/** The parties and season of a transfer are fixed once it exists (also in resources/write-policy.ts). */
function assertTermsKept(row: Row, input: WriteInput): void {
  const fixed = [
    ['field_transferring_handler', 'transferring_handler_id'],
    ['field_receiving_handler', 'receiving_handler_id'],
    ['field_season', 'season_id'],
  ] as const;
  const errors = fixed
    .filter(([rel, column]) => input.relationships[rel] !== undefined && input.relationships[rel]?.id !== row[column])
    .map(([rel]) => ({ field: rel, message: `${rel} cannot change: cancel the agreement and file a new one.` }));
  if (errors.length > 0) {
    throw ApiError.many(
      422,
      errors.map((e) => ({ detail: e.message, source: { pointer: `/data/relationships/${e.field}` } })),
    );
  }
}

export async function updateForm4(a: Actor, row: Row, input: WriteInput): Promise<void> {
  const party = partyOf(a, row);
  assertNotStale(row, input.meta);
  assertTermsKept(row, input);
  const attrs = input.attributes;
  if (row.form_activity === 'cancelled')
    throw conflict('This transfer agreement was cancelled and can no longer change.');
  if (attrs.field_form_activity === 'cancelled') return cancelForm4(a, row);
  if (attrs.field_form_activity !== undefined && attrs.field_form_activity !== 'active') {
    throw unprocessable([{ field: 'field_form_activity', message: 'The activity is active or cancelled.' }]);
  }
  if (COUNTERSIGNATURE.some((f) => attrs[f] !== undefined)) return countersign(a, row, party, attrs);
  if (party !== 'transferring' && !isStaff(a.viewer))
    throw forbidden('Only the transferring handler edits the agreement.');
  if (row.form_status !== 'draft') throw conflict('A certified agreement never changes: cancel it and file a new one.');
  const errors = validateFormAttributes('apc_form_4', attrs);
  if (errors.length > 0) throw unprocessable(errors);
  const {
    certified: _c,
    certification_name: _n,
    certification_title: _t,
    form_activity: _fa,
    receiving_certification_name: _r,
    receiving_certification_title: _rt,
    receiving_certified: _rc,
    transferring_handler_id: _th,
    receiving_handler_id: _rh,
    season_id: _s,
    ...entered
  } = input.values;
  const firstMonth = 'first_transfer_month' in entered ? entered.first_transfer_month : row.first_transfer_month;
  const values = { ...entered, due_date: transferAgreementDueDate(firstMonth as string | null | undefined) };
  if (attrs.field_certified === true) {
    await checkTransferTerms(
      a,
      String(row.transferring_handler_id),
      String(row.receiving_handler_id),
      String(row.season_id),
      String(row.id),
    );
  }
  const changed = await updateRow(a, 'apc_form_4', row, values);
  if (attrs.field_certified === true) await certifyForm4(a, { ...row, ...values, changed }, input);
}

function partyOf(a: Actor, row: Row): 'transferring' | 'receiving' | 'staff' {
  if (isStaff(a.viewer)) return 'staff';
  if (row.transferring_handler_id === a.viewer.handlerId) return 'transferring';
  if (row.receiving_handler_id === a.viewer.handlerId) return 'receiving';
  throw forbidden('Only the two handlers of a transfer can change it.');
}

async function certifyForm4(a: Actor, row: Row, input: WriteInput): Promise<void> {
  const name =
    typeof input.attributes.field_certification_name === 'string'
      ? input.attributes.field_certification_name.trim()
      : '';
  const errors = name
    ? []
    : [{ field: 'field_certification_name', message: 'Type your name to certify the agreement.' }];
  // The month of the first transfer sets the due date (986.162): an agreement is not complete without it.
  errors.push(...certificationErrors('apc_form_4', apiAttributesOf('apc_form_4', row)));
  if (errors.length > 0) throw unprocessable(errors);
  const title =
    typeof input.attributes.field_certification_title === 'string'
      ? input.attributes.field_certification_title.trim()
      : null;
  await rerender(a, {
    ...row,
    form_status: 'certified',
    certified: dbBool(a, true),
    certification_name: name,
    certification_title: title,
    certification_datetime: nowIso(a),
  });
}

/** The members of a countersignature: any of them in a PATCH makes it one (resources/write-policy.ts too). */
const COUNTERSIGNATURE = [
  'field_receiving_certified',
  'field_receiving_certification_name',
  'field_receiving_certification_title',
] as const;

const typed = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * The receiving handler countersigns as the filer certifies: it confirms the same statement and gives its name and
 * title; the server stamps the time. A countersignature missing any of them changes nothing.
 */
async function countersign(a: Actor, row: Row, party: string, attrs: WriteInput['attributes']): Promise<void> {
  if (party !== 'receiving' && party !== 'staff') throw forbidden('The receiving handler countersigns the agreement.');
  if (row.form_status !== 'certified') throw conflict('The transferring handler certifies the agreement first.');
  const name = typed(attrs.field_receiving_certification_name);
  const title = typed(attrs.field_receiving_certification_title);
  const errors = [
    ...(attrs.field_receiving_certified === true
      ? []
      : [{ field: 'field_receiving_certified', message: 'Confirm the certification statement to countersign.' }]),
    ...(name ? [] : [{ field: 'field_receiving_certification_name', message: 'Type your name to countersign.' }]),
    ...(title ? [] : [{ field: 'field_receiving_certification_title', message: 'Type your title to countersign.' }]),
  ];
  if (errors.length > 0) throw unprocessable(errors);
  await assertSeasonOpenFor(a, row);
  await rerender(a, {
    ...row,
    receiving_certified: dbBool(a, true),
    receiving_certification_name: name,
    receiving_certification_title: title,
    receiving_certification_datetime: nowIso(a),
  });
  await settleIfMoving(a, row);
}

async function cancelForm4(a: Actor, row: Row): Promise<void> {
  if (row.receiving_certification_datetime) await assertSeasonOpenFor(a, row);
  await rerender(a, { ...row, form_activity: 'cancelled', cancelled_datetime: nowIso(a) });
  if (row.receiving_certification_datetime) await settleIfMoving(a, row);
}

/** An agreement naming the receiver responsible moves the assessment once countersigned, and back when cancelled. */
async function settleIfMoving(a: Actor, row: Row): Promise<void> {
  if (row.responsible_handler === 'receiving') await settleAgreementInvoices(a, row);
}

/**
 * A countersigned agreement moves invoiced assessments, so it starts or stops counting only in an open season: a
 * closed season's invoices change only after staff reopen it, as its filings do.
 */
async function assertSeasonOpenFor(a: Actor, row: Row): Promise<void> {
  const season = await loadRow(dbOf(a), 'seasons', row.season_id);
  if (season.season_closed === true || season.season_closed === 1) {
    throw conflict(
      `The ${String(season.title)} season is closed: its agreements change only after Council staff reopen it.`,
    );
  }
}

/** Saves the agreement's new state and renders its PDF as it now stands. */
async function rerender(a: Actor, next: Row): Promise<void> {
  const current = await loadRow(dbOf(a), 'apc_form_4', next.id);
  const pdf = await renderFormVersionPdf(a, 'apc_form_4', next);
  const fileId = await storeFile(
    a,
    { type: 'node--apc_form_4', id: String(next.id) },
    pdf.filename,
    'application/pdf',
    pdf.content,
  );
  const { id: _id, created: _cr, changed: _ch, ...values } = next;
  await updateRow(a, 'apc_form_4', current, { ...values, form_4_pdf_id: fileId });
}

export { ApiError };
