import { addDays, allocateCents, assessmentDetail, isIsoDate, formatCents, formatFixedPoint, MILLS_PER_CENT, type AssessmentDetail } from '@pecan/contract';
import type { Row } from '../jsonapi/resource.js';
import { ApiError, conflict } from '../lib/errors.js';
import { renderInvoicePdf, type InvoicePdfInput } from '../render/invoice-pdf.js';
import { assertStaff, audit, dbOf, insertNode, loadRow, storeFile, todayOf, updateRow, type Actor } from './common.js';

const INVOICE_TYPE = 'node--invoice';

/**
 * Certifying a form 1 issues the invoice for its assessment. An amendment re-issues it: an open invoice is
 * re-rendered with the new amount and an adjustment line; a paid one stays as it was and a new invoice is issued
 * for the difference (negative: a credit). Money is integer cents throughout.
 *
 * Due dates: an invoice is due on its period's due date (the Form 1's). An adjustment invoice issued after that
 * date would be overdue the day it is issued, so it is due ADJUSTMENT_INVOICE_DUE_DAYS (default 30) days after
 * issue instead.
 */
export async function issueInvoiceForForm1(a: Actor, form: Row): Promise<string> {
  const db = dbOf(a);
  const invoices = (await db.selectFrom('invoices').selectAll().where('handler_id', '=', form.handler_id as string)
    .where('period_id', '=', form.period_id as string).orderBy('created').execute()) as Row[];
  const amount = Number(form.assessment_due_cents);
  if (invoices.length === 0) return createInvoice(a, form, amount, null);
  const billed = invoices.reduce((sum, i) => sum + Number(i.amount_due_cents), 0);
  const open = invoices.find((i) => i.invoice_status === 'open');
  if (open) {
    const others = billed - Number(open.amount_due_cents);
    const newAmount = amount - others;
    const adjustment = { previousAmount: formatCents(Number(open.amount_due_cents)), newAmount: formatCents(newAmount), amendmentNumber: Number(form.amendment_number) };
    const changed = await updateRow(a, 'invoices', open, { amount_due_cents: newAmount, form_1_id: form.id });
    await attachInvoicePdf(a, { ...open, amount_due_cents: newAmount, form_1_id: form.id, changed }, form, adjustment);
    return String(open.id);
  }
  const difference = amount - billed;
  if (difference === 0) return String(invoices[invoices.length - 1].id);
  return createInvoice(a, form, difference, { previousAmount: formatCents(billed), newAmount: formatCents(amount), amendmentNumber: Number(form.amendment_number), previousInvoiceNumber: String(invoices[invoices.length - 1].invoice_number) }, invoices.length);
}

/** When an invoice is due: its period's due date, or for an adjustment issued after it, a set number of days after issue. */
export function invoiceDueDate(periodDueDate: string, issueDate: string, isAdjustment: boolean, adjustmentDueDays: number): string {
  if (!isAdjustment || issueDate <= periodDueDate) return periodDueDate;
  return addDays(issueDate, adjustmentDueDays);
}

async function createInvoice(a: Actor, form: Row, cents: number, adjustment: InvoicePdfInput['adjustment'], sequence = 0): Promise<string> {
  const db = dbOf(a);
  const handler = await loadRow(db, 'handlers', form.handler_id);
  const period = await loadRow(db, 'reporting_periods', form.period_id);
  const number = `APC-${String(period.period_month).replace('-', '')}-${String(handler.handler_number)}${sequence > 0 ? `-A${sequence}` : ''}`;
  const dueDate = invoiceDueDate(String(period.due_date), todayOf(a), sequence > 0, a.ctx.config.adjustmentInvoiceDueDays);
  const id = await insertNode(a, 'invoices', {
    title: `Invoice ${number}`, invoice_number: number, amount_due_cents: cents, due_date: dueDate,
    invoice_status: 'open', handler_id: form.handler_id, period_id: form.period_id, form_1_id: form.id,
  });
  const invoice = await loadRow(db, 'invoices', id);
  await attachInvoicePdf(a, invoice, form, adjustment);
  return id;
}

/** Renders the invoice as it now stands and points the invoice at the new PDF (older PDFs stay readable). */
async function attachInvoicePdf(a: Actor, invoice: Row, form: Row, adjustment: InvoicePdfInput['adjustment']): Promise<void> {
  const db = dbOf(a);
  const handler = await loadRow(db, 'handlers', invoice.handler_id);
  const period = await loadRow(db, 'reporting_periods', invoice.period_id);
  const detail = assessmentDetail({
    improved: Number(form.receipts_improved), native: Number(form.receipts_native), substandard: Number(form.receipts_substandard),
  }, String(period.period_month));
  const content = await renderInvoicePdf({
    invoiceNumber: String(invoice.invoice_number), issueDate: todayOf(a),
    handler: { name: String(handler.title), number: String(handler.handler_number), address: handler.address ? String(handler.address).split('\n') : undefined },
    period: { month: String(period.period_month) },
    formReference: `Form 1, ${String(period.title)}${Number(form.amendment_number) > 0 ? `, Amendment ${String(form.amendment_number)}` : ''}`,
    lines: invoiceLines(detail),
    amountDue: formatCents(Number(invoice.amount_due_cents)), dueDate: String(invoice.due_date),
    status: invoice.invoice_status as 'open' | 'paid', paidDate: (invoice.paid_date as string | null) ?? null,
    adjustment,
  });
  const fileId = await storeFile(a, { type: INVOICE_TYPE, id: String(invoice.id) }, `invoice-${String(invoice.invoice_number)}.pdf`, 'application/pdf', content);
  await db.updateTable('invoices').set({ invoice_pdf_id: fileId }).where('id', '=', invoice.id as string).execute();
  await audit(a, { type: 'invoices', id: String(invoice.id), action: 'update', before: invoice, after: { ...invoice, invoice_pdf_id: fileId } });
}

/**
 * The invoice's lines, one per pecan type, in whole cents that add up to the assessment exactly: the money rule
 * (contract money/allocate.ts, docs/FORMS-YEAR-END.md) rounds the total once and gives each line its share by
 * largest remainder, so the PDF's lines never disagree with its total by a cent.
 */
export function invoiceLines(detail: AssessmentDetail): InvoicePdfInput['lines'] {
  const cents = allocateCents(detail.lines.map((l) => l.mills), BigInt(MILLS_PER_CENT));
  return detail.lines.map((l, i) => ({
    type: l.type, pounds: l.pounds,
    // A mill is a tenth of a cent: 10 mills per pound is $0.0100.
    rate: formatFixedPoint(BigInt(l.millsPerPound) * 10n, 4),
    amount: formatCents(cents.lines[i]),
  }));
}

/** Staff record a payment; the invoice PDF is re-rendered as paid. */
export async function markInvoicePaid(a: Actor, invoiceId: string, paidDate: string, reference: string | null): Promise<void> {
  assertStaff(a.viewer, 'mark invoices paid');
  const invoice = await loadRow(dbOf(a), 'invoices', invoiceId);
  if (invoice.invoice_status === 'paid') throw conflict(`Invoice ${String(invoice.invoice_number)} is already paid.`);
  if (!isIsoDate(paidDate)) throw new ApiError(422, 'The payment date must be a real date, YYYY-MM-DD.', { source: { pointer: '/paid_date' } });
  const changed = await updateRow(a, 'invoices', invoice, { invoice_status: 'paid', paid_date: paidDate, paid_reference: reference });
  const form = await loadRow(dbOf(a), 'apc_form_1', invoice.form_1_id);
  await attachInvoicePdf(a, { ...invoice, invoice_status: 'paid', paid_date: paidDate, paid_reference: reference, changed }, form, null);
}
