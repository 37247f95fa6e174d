import {
  addDays,
  allocateCents,
  assessmentDetail,
  isIsoDate,
  formatCents,
  formatFixedPoint,
  MILLS_PER_CENT,
  type AssessmentDetail,
  type PecanType,
} from '@pecan/contract';
import { lockForTransaction } from '../db/transaction-locks.js';
import type { Row } from '../jsonapi/resource.js';
import { ApiError, conflict } from '../lib/errors.js';
import type { InvoiceLine, InvoicePdfInput } from '../render/invoice-pdf.js';
import { renderPdf } from '../render/pdf-threads.js';
import { assertStaff, audit, dbOf, insertNode, loadRow, storeFile, todayOf, updateRow, type Actor } from './common.js';
import { movedLines, parseTransferLines, periodsWithShipments } from './transfer-assessment.js';

const INVOICE_TYPE = 'node--invoice';

/**
 * An inter-handler line as the invoice keeps it (`transfer_lines`): the counterparty's name and number, no more of it.
 */
export interface InvoiceTransferLine {
  direction: 'assumed' | 'credited';
  counterparty_name: string;
  counterparty_number: string;
  pecan_type: PecanType;
  pounds: number;
  /** The period's rate, mills (tenths of a cent) a pound. */
  mills_per_pound: number;
  /** Whole cents by the money rule, negative for a credit, as a decimal string. */
  amount: string;
}

/** Why an invoice changes: its own Form 1, or a transfer (the other handler's Form 1 or a form 4 agreement). */
type Cause = 'own-form' | 'transfer';

/**
 * What a handler owes for a period: its own receipts' assessment, less what receivers assumed, plus what it assumed.
 */
interface Bill {
  handlerId: string;
  period: Row;
  form: Row | null;
  transferLines: InvoiceTransferLine[];
  cents: number;
}

/**
 * Certifying a form 1 issues the invoice for its assessment. An amendment re-issues it: an open invoice is
 * re-rendered with the new amount and an adjustment line; a paid one stays as it was and a new invoice is issued
 * for the difference (negative: a credit). Money is integer cents throughout. The receivers its shipment lines name
 * (this version's and the one it supersedes) have their invoices settled too: a form 4 may move those pounds.
 *
 * Due dates: an invoice is due on its period's due date (the Form 1's). An adjustment invoice issued after that
 * date would be overdue the day it is issued, so it is due ADJUSTMENT_INVOICE_DUE_DAYS (default 30) days after
 * issue instead.
 */
export async function issueInvoiceForForm1(a: Actor, form: Row): Promise<string> {
  const periodId = String(form.period_id);
  const receivers = await receiversOf(a, form);
  await lockSettlements(a, [String(form.handler_id), ...receivers], [periodId]);
  const id = await settleInvoice(a, String(form.handler_id), periodId, 'own-form');
  for (const receiver of receivers) await settleInvoice(a, receiver, periodId, 'transfer');
  return id!;
}

async function receiversOf(a: Actor, form: Row): Promise<string[]> {
  const earlier = form.amendment_of_id ? await loadRow(dbOf(a), 'apc_form_1', form.amendment_of_id) : null;
  const lines = [
    ...parseTransferLines(form.interhandler_shipments),
    ...parseTransferLines(earlier?.interhandler_shipments),
  ];
  return [...new Set(lines.map((l) => l.receiving_handler))].filter((id) => id !== form.handler_id);
}

/** A form 4 agreement started or stopped counting: both parties' invoices of every month with shipments under it. */
export async function settleAgreementInvoices(a: Actor, agreement: Row): Promise<void> {
  const from = String(agreement.transferring_handler_id);
  const to = String(agreement.receiving_handler_id);
  const seasonId = String(agreement.season_id);
  // Every month of the season, not only those with shipments yet: a form 1 certified meanwhile may add one.
  const months = await dbOf(a).selectFrom('reporting_periods').select('id').where('season_id', '=', seasonId).execute();
  const periodIds = months.map((m) => String(m.id));
  await lockSettlements(a, [from, to], periodIds);
  for (const periodId of await periodsWithShipments(a, from, to, seasonId)) {
    await settleInvoice(a, from, periodId, 'transfer');
    await settleInvoice(a, to, periodId, 'transfer');
  }
}

/**
 * Settling reads a handler's invoices of a period and the forms it bills, then writes: two transactions settling the
 * same (handler, period) at once would both read the same invoices, and the second would fail on the unique invoice
 * number or updateRow's check though its user did nothing wrong. Each write locks every (handler, period) it settles
 * up front, in one go (db/transaction-locks.ts), before the first bill is read; the second waits, then reads the
 * first's invoice and revises it.
 */
async function lockSettlements(a: Actor, handlerIds: string[], periodIds: string[]): Promise<void> {
  const names = handlerIds.flatMap((h) => periodIds.map((p) => `invoice-settlement:${h}:${p}`));
  await lockForTransaction(a.ctx.db, a.ctx.dialect, names);
}

/**
 * Brings a handler's invoices of a period in line with what it owes; the caller holds its lockSettlements lock. None
 * yet: the first invoice, if there is a certified form 1 or a moved line (a receiver that never filed still gets
 * one). An open one: its amount becomes what is owed less what other invoices of the period billed. All paid: a new
 * invoice for the difference, if any.
 */
async function settleInvoice(a: Actor, handlerId: string, periodId: string, cause: Cause): Promise<string | null> {
  const bill = await billOf(a, handlerId, periodId);
  const invoices = (await dbOf(a)
    .selectFrom('invoices')
    .selectAll()
    .where('handler_id', '=', handlerId)
    // Several invoices of a period can share a second; an adjustment's number sorts after the one it follows.
    .where('period_id', '=', periodId)
    .orderBy('created')
    .orderBy('invoice_number')
    .execute()) as Row[];
  if (invoices.length === 0)
    return bill.form || bill.transferLines.length > 0 ? createInvoice(a, bill, bill.cents, null, 0, cause) : null;
  const billed = invoices.reduce((sum, i) => sum + Number(i.amount_due_cents), 0);
  const open = invoices.find((i) => i.invoice_status === 'open');
  if (open) return reviseOpen(a, bill, open, billed - Number(open.amount_due_cents), cause);
  const difference = bill.cents - billed;
  if (difference === 0) return String(invoices[invoices.length - 1].id);
  const last = invoices[invoices.length - 1];
  return createInvoice(
    a,
    bill,
    difference,
    { ...adjustmentOf(bill, billed, cause), previousInvoiceNumber: String(last.invoice_number) },
    invoices.length,
    cause,
  );
}

async function reviseOpen(a: Actor, bill: Bill, open: Row, others: number, cause: Cause): Promise<string> {
  const newAmount = bill.cents - others;
  const values = {
    amount_due_cents: newAmount,
    form_1_id: bill.form?.id ?? null,
    transfer_lines: JSON.stringify(bill.transferLines),
  };
  const unchanged =
    newAmount === Number(open.amount_due_cents) &&
    values.form_1_id === (open.form_1_id ?? null) &&
    values.transfer_lines === String(open.transfer_lines);
  if (unchanged) return String(open.id);
  const changed = await updateRow(a, 'invoices', open, values);
  const adjustment = { ...adjustmentOf(bill, Number(open.amount_due_cents), cause), newAmount: formatCents(newAmount) };
  if (!open.form_1_id && bill.form && cause === 'own-form')
    adjustment.reason = "The handler's Form 1 of the month was certified.";
  await attachInvoicePdf(a, { ...open, ...values, changed }, adjustment);
  return String(open.id);
}

function adjustmentOf(bill: Bill, previousCents: number, cause: Cause): NonNullable<InvoicePdfInput['adjustment']> {
  return {
    previousAmount: formatCents(previousCents),
    newAmount: formatCents(bill.cents),
    amendmentNumber: bill.form ? Number(bill.form.amendment_number) : undefined,
    reason:
      cause === 'transfer'
        ? "An inter-handler transfer (the transferring handler's Form 1 or a Form 4 agreement) changed the assessment."
        : undefined,
  };
}

/**
 * What a handler's invoices of a season owe in all, in cents: each month's own form 1 assessment with the lines form 4
 * agreements moved onto or off it. Form 5 reports this (the responsible handler reports the volume at year end).
 */
export async function seasonAssessmentCents(a: Actor, handlerId: string, seasonId: string): Promise<number> {
  const periods = await dbOf(a)
    .selectFrom('reporting_periods')
    .select('id')
    .where('season_id', '=', seasonId)
    .orderBy('period_month')
    .execute();
  let cents = 0;
  for (const p of periods) cents += (await billOf(a, handlerId, String(p.id))).cents;
  return cents;
}

/** The handler's current certified form 1 of the period and the lines moved by form 4 agreements, in whole cents. */
async function billOf(a: Actor, handlerId: string, periodId: string): Promise<Bill> {
  const db = dbOf(a);
  const period = await loadRow(db, 'reporting_periods', periodId);
  const form =
    ((await db
      .selectFrom('apc_form_1')
      .selectAll()
      .where('handler_id', '=', handlerId)
      .where('period_id', '=', periodId)
      .where('form_status', '=', 'certified')
      .executeTakeFirst()) as Row | undefined) ?? null;
  const moved = await movedLines(a, handlerId, period);
  const own = form ? ownDetail(form, period).lines.map((l) => l.mills) : [];
  const allocation = allocateCents([...own, ...moved.map((m) => m.mills)], BigInt(MILLS_PER_CENT));
  const transferLines = moved.map((m, i): InvoiceTransferLine => ({
    direction: m.direction,
    counterparty_name: m.counterparty_name,
    counterparty_number: m.counterparty_number,
    pecan_type: m.pecan_type,
    pounds: m.pounds,
    mills_per_pound: Number((m.mills < 0n ? -m.mills : m.mills) / BigInt(m.pounds)),
    amount: formatCents(allocation.lines[own.length + i]),
  }));
  return { handlerId, period, form, transferLines, cents: allocation.total };
}

function ownDetail(form: Row, period: Row): AssessmentDetail {
  return assessmentDetail(
    {
      improved: Number(form.receipts_improved),
      native: Number(form.receipts_native),
      substandard: Number(form.receipts_substandard),
    },
    String(period.period_month),
  );
}

/**
 * When an invoice is due: its period's due date, or for an adjustment issued after it, a set number of days after
 * issue.
 */
export function invoiceDueDate(
  periodDueDate: string,
  issueDate: string,
  isAdjustment: boolean,
  adjustmentDueDays: number,
): string {
  if (!isAdjustment || issueDate <= periodDueDate) return periodDueDate;
  return addDays(issueDate, adjustmentDueDays);
}

async function createInvoice(
  a: Actor,
  bill: Bill,
  cents: number,
  adjustment: InvoicePdfInput['adjustment'],
  sequence: number,
  cause: Cause,
): Promise<string> {
  const db = dbOf(a);
  const handler = await loadRow(db, 'handlers', bill.handlerId);
  const number = `APC-${String(bill.period.period_month).replace('-', '')}-${String(handler.handler_number)}${sequence > 0 ? `-A${sequence}` : ''}`;
  // An invoice a transfer brings after the period's due date is as late as an adjustment: never overdue at birth.
  const late = sequence > 0 || cause === 'transfer';
  const dueDate = invoiceDueDate(String(bill.period.due_date), todayOf(a), late, a.ctx.config.adjustmentInvoiceDueDays);
  const id = await insertNode(a, 'invoices', {
    title: `Invoice ${number}`,
    invoice_number: number,
    amount_due_cents: cents,
    due_date: dueDate,
    invoice_status: 'open',
    handler_id: bill.handlerId,
    period_id: bill.period.id,
    form_1_id: bill.form?.id ?? null,
    transfer_lines: JSON.stringify(bill.transferLines),
  });
  await attachInvoicePdf(a, await loadRow(db, 'invoices', id), adjustment);
  return id;
}

/** Renders the invoice as it stands (its form 1 and its kept transfer lines) and points it at the new PDF. */
async function attachInvoicePdf(a: Actor, invoice: Row, adjustment: InvoicePdfInput['adjustment']): Promise<void> {
  const db = dbOf(a);
  const handler = await loadRow(db, 'handlers', invoice.handler_id);
  const period = await loadRow(db, 'reporting_periods', invoice.period_id);
  const form = invoice.form_1_id ? await loadRow(db, 'apc_form_1', invoice.form_1_id) : null;
  const transfers = storedTransferLines(invoice);
  const content = await renderPdf(a.ctx.pdfThreads, 'invoice', {
    invoiceNumber: String(invoice.invoice_number),
    issueDate: todayOf(a),
    handler: {
      name: String(handler.title),
      number: String(handler.handler_number),
      address: handler.address ? String(handler.address).split('\n') : undefined,
    },
    period: { month: String(period.period_month) },
    formReference: form
      ? `Form 1, ${String(period.title)}${Number(form.amendment_number) > 0 ? `, Amendment ${String(form.amendment_number)}` : ''}`
      : `Inter-handler transfers, ${String(period.title)}`,
    lines: [...(form ? invoiceLines(ownDetail(form, period), transfers) : []), ...transfers.map(transferPdfLine)],
    amountDue: formatCents(Number(invoice.amount_due_cents)),
    dueDate: String(invoice.due_date),
    status: invoice.invoice_status as 'open' | 'paid',
    paidDate: (invoice.paid_date as string | null) ?? null,
    adjustment,
  });
  const fileId = await storeFile(
    a,
    { type: INVOICE_TYPE, id: String(invoice.id) },
    `invoice-${String(invoice.invoice_number)}.pdf`,
    'application/pdf',
    content,
  );
  await db
    .updateTable('invoices')
    .set({ invoice_pdf_id: fileId })
    .where('id', '=', invoice.id as string)
    .execute();
  await audit(a, {
    type: 'invoices',
    id: String(invoice.id),
    action: 'update',
    before: invoice,
    after: { ...invoice, invoice_pdf_id: fileId },
  });
}

export const storedTransferLines = (invoice: Row): InvoiceTransferLine[] =>
  (typeof invoice.transfer_lines === 'string'
    ? JSON.parse(invoice.transfer_lines)
    : (invoice.transfer_lines ?? [])) as InvoiceTransferLine[];

const TYPE_NAME: Record<PecanType, string> = {
  improved: 'improved',
  native: 'native / seedling',
  substandard: 'substandard',
};

/**
 * The PDF's line of a moved assessment: assumed from the transferring handler, or credited because the receiver assumed
 * it.
 */
export function transferPdfLine(line: InvoiceTransferLine): InvoiceLine {
  const other = `${line.counterparty_name} (${line.counterparty_number})`;
  const description =
    line.direction === 'assumed'
      ? `Assessment assumed under inter-handler agreement with ${other}, ${TYPE_NAME[line.pecan_type]}`
      : `Assessment assumed by ${other} under inter-handler agreement, ${TYPE_NAME[line.pecan_type]} (credit)`;
  return {
    type: line.pecan_type,
    description,
    pounds: line.direction === 'credited' ? -line.pounds : line.pounds,
    rate: formatFixedPoint(BigInt(line.mills_per_pound) * 10n, 4),
    amount: line.amount,
  };
}

/**
 * The invoice's own lines, one per pecan type, in whole cents: the money rule (contract money/allocate.ts,
 * docs/FORMS-YEAR-END.md) rounds the invoice's total once and gives each line, the transfer lines included, its share
 * by largest remainder, so the PDF's lines never disagree with its total by a cent.
 */
export function invoiceLines(
  detail: AssessmentDetail,
  transfers: InvoiceTransferLine[] = [],
): InvoicePdfInput['lines'] {
  const moved = transfers.map(
    (t) => BigInt(t.pounds) * BigInt(t.mills_per_pound) * (t.direction === 'credited' ? -1n : 1n),
  );
  const cents = allocateCents([...detail.lines.map((l) => l.mills), ...moved], BigInt(MILLS_PER_CENT));
  return detail.lines.map((l, i) => ({
    type: l.type,
    pounds: l.pounds,
    // A mill is a tenth of a cent: 10 mills per pound is $0.0100.
    rate: formatFixedPoint(BigInt(l.millsPerPound) * 10n, 4),
    amount: formatCents(cents.lines[i]),
  }));
}

/** Staff record a payment; the invoice PDF is re-rendered as paid. */
export async function markInvoicePaid(
  a: Actor,
  invoiceId: string,
  paidDate: string,
  reference: string | null,
): Promise<void> {
  assertStaff(a.viewer, 'mark invoices paid');
  const invoice = await loadRow(dbOf(a), 'invoices', invoiceId);
  // A certification settling this invoice meanwhile waits for the payment and bills the change on an adjustment; had
  // it revised the invoice first, updateRow refuses the payment of the amount staff saw (409).
  await lockSettlements(a, [String(invoice.handler_id)], [String(invoice.period_id)]);
  if (invoice.invoice_status === 'paid') throw conflict(`Invoice ${String(invoice.invoice_number)} is already paid.`);
  if (!isIsoDate(paidDate))
    throw new ApiError(422, 'The payment date must be a real date, YYYY-MM-DD.', { source: { pointer: '/paid_date' } });
  const changed = await updateRow(a, 'invoices', invoice, {
    invoice_status: 'paid',
    paid_date: paidDate,
    paid_reference: reference,
  });
  await attachInvoicePdf(
    a,
    { ...invoice, invoice_status: 'paid', paid_date: paidDate, paid_reference: reference, changed },
    null,
  );
}
