/**
 * The queries the web app reads invoices with. Apart from invoices.ts (which holds hooks and the fetch client) so
 * that the benchmark (bench/run.ts) sends the very same requests.
 */
import { DrupalJsonApiParams } from '../jsonapi/params';

/** GET /jsonapi/node/invoice for the handler, with period, invoice PDF and the form 1 PDF behind it. */
export function invoicesParams(handlerId: string) {
  return (
    new DrupalJsonApiParams()
      .addFilter('field_handler.id', handlerId)
      .addInclude(['field_reporting_period', 'field_invoice_pdf', 'field_form_1.field_form_1_pdf'])
      // Of form 1 the list shows only its PDF: without its figures the answer is 40 % smaller.
      .addFields('node--apc_form_1', ['field_form_1_pdf'])
      .addPageLimit(200)
      .addSort('field_due_date', 'DESC')
  );
}

/**
 * The handler's unpaid invoices, with only what the dashboard's card adds up (amount, due date, status): the card
 * shows their count and total, and its read is part of the sign-in's batch, which all of the invoices with their
 * periods, forms and PDFs made five times larger (110 invoices at 10 seasons: 766 KB, half of the batch's time).
 */
export function openInvoicesParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_invoice_status', 'open')
    .addFields('node--invoice', ['field_amount_due', 'field_due_date', 'field_invoice_status'])
    .addPageLimit(200);
}
