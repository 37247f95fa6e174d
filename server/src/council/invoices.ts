import { formatCents, invoiceListQuery, invoiceTotalsQuery } from '@pecan/contract';
import type { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { notFound } from '../lib/errors.js';
import { existingId, handlerParam, invalidParameters, queryOf, sendCsv, toCsv, type Checked } from './http.js';
import type { InvoiceRow } from '@pecan/contract';
import { portalDb } from '../db/portal-tables.js';

/**
 * Invoices across handlers: a list (and CSV) with filters, and a season's totals. Money: integer cents, decimal strings
 * out.
 */
type InvoiceQuery = Checked<z.output<typeof invoiceListQuery>>;

async function invoiceFilters(ctx: AppContext, { value: q, problems }: InvoiceQuery) {
  const periodId = await existingId(ctx, 'reporting_periods', q.period_id, 'period_id', problems);
  const seasonId = await existingId(ctx, 'seasons', q.season_id, 'season_id', problems);
  const status = q.status;
  const handlerId = await handlerParam(ctx, q.handler, problems);
  if (problems.length > 0) throw invalidParameters(problems);
  return { periodId, seasonId, status, handlerId };
}

export async function listInvoices(ctx: AppContext, q: InvoiceQuery): Promise<InvoiceRow[]> {
  const f = await invoiceFilters(ctx, q);
  let query = portalDb(ctx.db)
    .selectFrom('invoices as i')
    .innerJoin('handlers as h', 'h.id', 'i.handler_id')
    .innerJoin('reporting_periods as p', 'p.id', 'i.period_id')
    .select([
      'i.id',
      'i.invoice_number',
      'i.handler_id',
      'h.handler_number',
      'h.title as handler_name',
      'i.period_id',
      'p.period_month',
      'p.season_id',
      'i.amount_due_cents',
      'i.due_date',
      'i.invoice_status',
      'i.paid_date',
      'i.paid_reference',
      'i.form_1_id',
      'i.created',
    ]);
  if (f.periodId) query = query.where('i.period_id', '=', f.periodId);
  if (f.seasonId) query = query.where('p.season_id', '=', f.seasonId);
  if (f.status) query = query.where('i.invoice_status', '=', f.status);
  if (f.handlerId) query = query.where('i.handler_id', '=', f.handlerId);
  const rows = await query
    .orderBy('p.period_month', 'desc')
    .orderBy('h.handler_number')
    .orderBy('i.invoice_number')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    invoice_number: r.invoice_number,
    handler_id: r.handler_id,
    handler_number: r.handler_number,
    handler_name: r.handler_name,
    period_id: r.period_id,
    period_month: r.period_month,
    season_id: r.season_id,
    amount_due: formatCents(BigInt(r.amount_due_cents)),
    due_date: r.due_date,
    status: r.invoice_status,
    paid_date: r.paid_date ?? null,
    paid_reference: r.paid_reference ?? null,
    form_1_id: r.form_1_id ?? null,
    created: r.created,
  }));
}

interface Sums {
  billed: bigint;
  paid: bigint;
  open: bigint;
  count: number;
}
const empty = (): Sums => ({ billed: 0n, paid: 0n, open: 0n, count: 0 });
const money = (s: Sums) => ({
  billed: formatCents(s.billed),
  paid: formatCents(s.paid),
  open: formatCents(s.open),
  invoices: s.count,
});

export function registerInvoiceRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/invoices', async (request) => {
    const data = await listInvoices(ctx, queryOf(request, invoiceListQuery));
    return { data, meta: { count: data.length } };
  });

  app.get('/invoices.csv', async (request, reply) => {
    const data = await listInvoices(ctx, queryOf(request, invoiceListQuery));
    const header = [
      'invoice_number',
      'handler_number',
      'handler_name',
      'period_month',
      'amount_due',
      'due_date',
      'status',
      'paid_date',
      'paid_reference',
      'id',
    ] as const;
    return sendCsv(
      reply,
      'invoices.csv',
      toCsv(
        [...header],
        data.map((r) => header.map((c) => r[c])),
      ),
    );
  });

  /** A season's billed, paid and open amounts, in total and per handler (credits count negative). */
  app.get('/invoices/totals', async (request) => {
    const { value: q, problems } = queryOf(request, invoiceTotalsQuery);
    const seasonId = await existingId(ctx, 'seasons', q.season_id, 'season_id', problems);
    if (problems.length > 0) throw invalidParameters(problems);
    const season = await portalDb(ctx.db)
      .selectFrom('seasons')
      .select(['id', 'title'])
      .where('id', '=', seasonId!)
      .executeTakeFirst();
    if (!season) throw notFound('There is no season with this id.');
    const rows = await portalDb(ctx.db)
      .selectFrom('invoices as i')
      .innerJoin('reporting_periods as p', 'p.id', 'i.period_id')
      .innerJoin('handlers as h', 'h.id', 'i.handler_id')
      .select(['i.handler_id', 'h.handler_number', 'h.title', 'i.amount_due_cents', 'i.invoice_status'])
      .where('p.season_id', '=', seasonId!)
      .execute();
    const total = empty();
    const perHandler = new Map<string, Sums & { number: string; name: string }>();
    for (const r of rows) {
      const cents = BigInt(r.amount_due_cents);
      const h = perHandler.get(r.handler_id) ?? { ...empty(), number: r.handler_number, name: r.title };
      for (const s of [total, h]) {
        s.billed += cents;
        s.count += 1;
        if (r.invoice_status === 'paid') s.paid += cents;
        else s.open += cents;
      }
      perHandler.set(r.handler_id, h);
    }
    return {
      season: { id: season.id, title: season.title },
      ...money(total),
      by_handler: [...perHandler.entries()]
        .sort((a, b) => a[1].number.localeCompare(b[1].number))
        .map(([id, s]) => ({ handler_id: id, handler_number: s.number, handler_name: s.name, ...money(s) })),
    };
  });
}
