// The money module alone: the contract's index would bring the form schemas (zod) into the dashboard.
import { formatCents, parseMoney } from '@pecan/contract/money/money';
import { useQuery } from '@tanstack/react-query';
import { DrupalJsonApiParams, jsonApi } from '../jsonapi/client';
import type { Entity } from '../jsonapi/deserialize';
import { str } from './entities';

export const invoicesKey = (handlerId: string) => ['invoices', handlerId] as const;

/** GET /jsonapi/node/invoice for the handler, with period, invoice PDF and the form 1 PDF behind it. */
export function invoicesParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addInclude(['field_reporting_period', 'field_invoice_pdf', 'field_form_1.field_form_1_pdf'])
    // Of form 1 the list shows only its PDF: without its figures the answer is 40 % smaller.
    .addFields('node--apc_form_1', ['field_form_1_pdf'])
    .addPageLimit(200)
    .addSort('field_due_date', 'DESC');
}

export const openInvoicesKey = (handlerId: string) => ['invoices', handlerId, 'open'] as const;

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

/** A handler's invoices as one of the reads above (all of them, or the unpaid ones), every page followed. */
function useInvoiceRead(handlerId: string | null, key: (id: string) => readonly unknown[], params: (id: string) => DrupalJsonApiParams) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: key(handlerId ?? ''),
    queryFn: ({ signal }) => jsonApi.getAll('/jsonapi/node/invoice', params(handlerId!), signal),
    enabled: !!handlerId,
  });
}

export const useOpenInvoices = (handlerId: string | null) => useInvoiceRead(handlerId, openInvoicesKey, openInvoicesParams);
export const useInvoices = (handlerId: string | null) => useInvoiceRead(handlerId, invoicesKey, invoicesParams);

export type InvoiceStatus = 'open' | 'paid' | 'overdue';

export function invoiceStatus(invoice: Entity, today: string): InvoiceStatus {
  if (str(invoice, 'field_invoice_status') === 'paid') return 'paid';
  const due = str(invoice, 'field_due_date');
  return due && today > due ? 'overdue' : 'open';
}

/** An amount due in integer cents (0 when unreadable). */
export function centsOf(invoice: Entity): number {
  const parsed = parseMoney(str(invoice, 'field_amount_due') ?? '0');
  return parsed.ok ? parsed.value : 0;
}

/** The sum of the open (and overdue) amounts, added as integer cents, as the API's decimal string. */
export function openTotal(invoices: Entity[], today: string): { count: number; cents: number; amount: string } {
  let cents = 0;
  let count = 0;
  for (const inv of invoices) {
    if (invoiceStatus(inv, today) === 'paid') continue;
    cents += centsOf(inv);
    count += 1;
  }
  return { count, cents, amount: formatCents(cents) };
}
