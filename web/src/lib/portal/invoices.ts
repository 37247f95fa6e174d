// The money module alone: the contract's index would bring the form schemas (zod) into the dashboard.
import { formatCents, parseMoney } from '@pecan/contract/money/money';
import { useQuery } from '@tanstack/react-query';
import { DrupalJsonApiParams, jsonApi } from '../jsonapi/client';
import { invoicesParams, openInvoicesParams } from './invoice-params';
import { attr, type ApiEntity } from './entities';
import { queryKeys } from '../query-keys';

export type Invoice = ApiEntity<'node--invoice'>;

export const invoicesKey = (handlerId: string) => [...queryKeys.invoices, handlerId] as const;

export const openInvoicesKey = (handlerId: string) => [...queryKeys.invoices, handlerId, 'open'] as const;

/**
 * A handler's invoices as one of the reads of invoice-params.ts (all of them, or the unpaid ones), every page followed.
 */
function useInvoiceRead(
  handlerId: string | null,
  key: (id: string) => readonly unknown[],
  params: (id: string) => DrupalJsonApiParams,
) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: key(handlerId ?? ''),
    queryFn: ({ signal }) => jsonApi.getAll<Invoice>('/jsonapi/node/invoice', params(handlerId!), signal),
    enabled: !!handlerId,
  });
}

export const useOpenInvoices = (handlerId: string | null) =>
  useInvoiceRead(handlerId, openInvoicesKey, openInvoicesParams);
export const useInvoices = (handlerId: string | null) => useInvoiceRead(handlerId, invoicesKey, invoicesParams);

export type InvoiceStatus = 'open' | 'paid' | 'overdue';

export function invoiceStatus(invoice: Invoice, today: string): InvoiceStatus {
  if (attr(invoice, 'field_invoice_status') === 'paid') return 'paid';
  const due = attr(invoice, 'field_due_date');
  return due && today > due ? 'overdue' : 'open';
}

/** An amount due in integer cents (0 when unreadable). */
export function centsOf(invoice: Invoice): number {
  const parsed = parseMoney(attr(invoice, 'field_amount_due') ?? '0');
  return parsed.ok ? parsed.value : 0;
}

/** The sum of the open (and overdue) amounts, added as integer cents, as the API's decimal string. */
export function openTotal(invoices: Invoice[], today: string): { count: number; cents: number; amount: string } {
  let cents = 0;
  let count = 0;
  for (const inv of invoices) {
    if (invoiceStatus(inv, today) === 'paid') continue;
    cents += centsOf(inv);
    count += 1;
  }
  return { count, cents, amount: formatCents(cents) };
}

/** The overdue invoices (unpaid past their due date): how many and their sum, as the API's decimal string. */
export function overdueTotal(invoices: Invoice[], today: string): { count: number; cents: number; amount: string } {
  let cents = 0;
  let count = 0;
  for (const inv of invoices) {
    if (invoiceStatus(inv, today) !== 'overdue') continue;
    cents += centsOf(inv);
    count += 1;
  }
  return { count, cents, amount: formatCents(cents) };
}

const URGENCY: Record<InvoiceStatus, number> = { overdue: 0, open: 1, paid: 2 };

/** Overdue first, then open, then paid; within each the latest due date first. */
export function byUrgency(invoices: Invoice[], today: string): Invoice[] {
  const due = (inv: Invoice) => attr(inv, 'field_due_date') ?? '';
  return [...invoices].sort(
    (a, b) => URGENCY[invoiceStatus(a, today)] - URGENCY[invoiceStatus(b, today)] || due(b).localeCompare(due(a)),
  );
}
