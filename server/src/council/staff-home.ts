import { addDays, BOARD_STATUSES, formatCents, type BoardStatus } from '@pecan/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { isoTimestamp } from '../lib/time.js';
import { noQuery } from '@pecan/contract';
import { checkedQuery, todayIn } from './http.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * GET /api/council/home: what needs the council staff today, each figure counted in SQL (SQLite and PostgreSQL
 * alike): the forms 1-3 of the month being filed now by status across the active handlers, with its due date and
 * the days left; the handlers late with an earlier month of the current season; certified amendments of a published
 * month that wait for a revision; account requests; unpaid and overdue invoices with their totals; monthly reports
 * generated but not published that have figures to publish; and the reminder e-mails of the last 30 days.
 */

export interface StaffHome {
  today: string;
  month: {
    period_id: string;
    period_month: string;
    title: string;
    due_date: string;
    days_left: number;
    handlers: number;
    counts: Record<BoardStatus, number>;
  } | null;
  overdue_handlers: Array<{
    handler_id: string;
    handler_number: string;
    handler_name: string;
    months: Array<{ period_id: string; period_month: string; due_date: string }>;
  }>;
  amendments_waiting: { count: number; months: string[] };
  account_requests: { count: number };
  invoices: { unpaid: number; unpaid_total: string; overdue: number; overdue_total: string };
  reports_to_publish: Array<{
    id: string;
    period_id: string;
    period_month: string;
    title: string;
    handlers_count: number;
  }>;
  reminders: { since: string; sent: number; failed: number; retrying: number };
}

/** Days from one ISO date to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

const num = (v: unknown): number => Number(v ?? 0);

/** The month being filed now: the earliest due date from today on; else the newest month. */
async function monthNow(ctx: AppContext, today: string) {
  const next = await portalDb(ctx.db)
    .selectFrom('reporting_periods')
    .select(['id', 'period_month', 'title', 'due_date'])
    .where('due_date', '>=', today)
    .orderBy('due_date')
    .orderBy('period_month')
    .limit(1)
    .executeTakeFirst();
  return (
    next ??
    portalDb(ctx.db)
      .selectFrom('reporting_periods')
      .select(['id', 'period_month', 'title', 'due_date'])
      .orderBy('period_month', 'desc')
      .limit(1)
      .executeTakeFirst()
  );
}

/** Forms 1-3 of a period by the board's status (council/board.ts filingStatus), one row per active handler and form. */
async function monthCounts(
  ctx: AppContext,
  periodId: string,
  overdue: boolean,
): Promise<{ counts: Record<BoardStatus, number>; handlers: number }> {
  const lateWhen = overdue ? sql`1 = 1` : sql`1 = 0`;
  const rows = await sql<{ status: string; n: unknown }>`
    with v as (
      select 'apc_form_1' as form, handler_id, form_status, amendment_number, created, changed from apc_form_1 where period_id = ${periodId}
      union all select 'apc_form_2', handler_id, form_status, amendment_number, created, changed from apc_form_2 where period_id = ${periodId}
      union all select 'apc_form_3', handler_id, form_status, amendment_number, created, changed from apc_form_3 where period_id = ${periodId}
    ), forms as (
      select 'apc_form_1' as form union all select 'apc_form_2' union all select 'apc_form_3'
    ), f as (
      select h.id as handler_id, forms.form,
        sum(case when v.form_status = 'certified' then 1 else 0 end) as certified,
        sum(case when v.form_status = 'certified' and v.amendment_number > 0 then 1 else 0 end) as amended,
        count(v.handler_id) as versions,
        sum(case when v.changed <> v.created then 1 else 0 end) as touched
      from handlers h cross join forms
      left join v on v.handler_id = h.id and v.form = forms.form
      where h.handler_status = 'active'
      group by h.id, forms.form
    )
    select case
        when amended > 0 then 'amended'
        when certified > 0 then 'certified'
        when ${lateWhen} then 'overdue'
        when versions = 0 or (versions = 1 and touched = 0) then 'not_started'
        else 'draft' end as status,
      count(*) as n
    from f group by 1`.execute(ctx.db);
  const counts = Object.fromEntries(BOARD_STATUSES.map((s) => [s, 0])) as Record<BoardStatus, number>;
  for (const r of rows.rows) counts[r.status as BoardStatus] = num(r.n);
  const handlers = num(
    (
      await portalDb(ctx.db)
        .selectFrom('handlers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('handler_status', '=', 'active')
        .executeTakeFirst()
    )?.n,
  );
  return { counts, handlers };
}

/** Active handlers with a month of the current season past its due date whose forms 1-3 are not all certified. */
async function overdueHandlers(ctx: AppContext, today: string): Promise<StaffHome['overdue_handlers']> {
  const certified = (form: string) =>
    sql`exists (select 1 from ${sql.table(form)} f where f.period_id = p.id and f.handler_id = h.id and f.form_status = 'certified')`;
  const rows = await sql<{
    handler_id: string;
    handler_number: string;
    handler_name: string;
    period_id: string;
    period_month: string;
    due_date: string;
  }>`
    select h.id as handler_id, h.handler_number, h.title as handler_name, p.id as period_id, p.period_month, p.due_date
    from reporting_forms_packages k
    join handlers h on h.id = k.handler_id
    join reporting_periods p on p.id = k.period_id
    join seasons s on s.id = p.season_id
    where h.handler_status = 'active' and p.due_date < ${today} and s.current_season = ${sql.lit(true)}
      and not (${certified('apc_form_1')} and ${certified('apc_form_2')} and ${certified('apc_form_3')})
    order by h.handler_number, p.period_month`.execute(ctx.db);
  const out: StaffHome['overdue_handlers'] = [];
  for (const r of rows.rows) {
    let h = out.at(-1);
    if (!h || h.handler_id !== r.handler_id) {
      h = { handler_id: r.handler_id, handler_number: r.handler_number, handler_name: r.handler_name, months: [] };
      out.push(h);
    }
    h.months.push({ period_id: r.period_id, period_month: r.period_month, due_date: r.due_date });
  }
  return out;
}

/** Certified amendments of forms 1-3 made after their month's published report was generated: a revision waits. */
async function amendmentsWaiting(ctx: AppContext): Promise<StaffHome['amendments_waiting']> {
  const part = (form: string) => sql`select p.period_month from ${sql.table(form)} f
    join reporting_periods p on p.id = f.period_id
    join monthly_position_reports r on r.period_id = p.id and r.publish_to_portal = ${sql.lit(true)}
    join files fl on fl.id = r.position_report_pdf_id
    where f.form_status = 'certified' and f.amendment_number > 0 and f.certification_datetime > fl.created`;
  const rows = await sql<{
    period_month: string;
  }>`${part('apc_form_1')} union all ${part('apc_form_2')} union all ${part('apc_form_3')}`.execute(ctx.db);
  return { count: rows.rows.length, months: [...new Set(rows.rows.map((r) => r.period_month))].sort() };
}

export async function staffHome(ctx: AppContext): Promise<StaffHome> {
  const today = todayIn(ctx);
  const since = addDays(today, -30);
  const period = await monthNow(ctx, today);
  let month: StaffHome['month'] = null;
  if (period) {
    const { counts, handlers } = await monthCounts(ctx, period.id, today > period.due_date);
    month = {
      period_id: period.id,
      period_month: period.period_month,
      title: period.title,
      due_date: period.due_date,
      days_left: daysBetween(today, period.due_date),
      handlers,
      counts,
    };
  }
  const [late, amendments, requests, invoices, reports, reminders] = await Promise.all([
    overdueHandlers(ctx, today),
    amendmentsWaiting(ctx),
    portalDb(ctx.db)
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirst(),
    sql<{ unpaid: unknown; unpaid_cents: unknown; overdue: unknown; overdue_cents: unknown }>`
      select count(*) as unpaid, coalesce(sum(amount_due_cents), 0) as unpaid_cents,
        sum(case when due_date < ${today} then 1 else 0 end) as overdue,
        coalesce(sum(case when due_date < ${today} then amount_due_cents else 0 end), 0) as overdue_cents
      from invoices where invoice_status = 'open'`.execute(ctx.db),
    portalDb(ctx.db)
      .selectFrom('monthly_position_reports as r')
      .innerJoin('reporting_periods as p', 'p.id', 'r.period_id')
      .select(['r.id', 'r.period_id', 'p.period_month', 'r.title', 'r.handlers_count'])
      .where('r.publish_to_portal', '=', sql.lit(false))
      .where('r.handlers_count', '>', 0)
      .orderBy('p.period_month', 'desc')
      .execute(),
    sql<{
      status: string;
      n: unknown;
    }>`select status, count(*) as n from reminders_sent where claimed_at >= ${`${since}T00:00:00`} group by status`.execute(
      ctx.db,
    ),
  ]);
  const inv = invoices.rows[0];
  const reminderCount = (s: string) => num(reminders.rows.find((r) => r.status === s)?.n);
  return {
    today,
    month,
    overdue_handlers: late,
    amendments_waiting: amendments,
    account_requests: { count: num(requests?.n) },
    invoices: {
      unpaid: num(inv?.unpaid),
      unpaid_total: formatCents(BigInt(String(inv?.unpaid_cents ?? 0))),
      overdue: num(inv?.overdue),
      overdue_total: formatCents(BigInt(String(inv?.overdue_cents ?? 0))),
    },
    reports_to_publish: reports.map((r) => ({
      id: r.id,
      period_id: r.period_id,
      period_month: r.period_month,
      title: r.title,
      handlers_count: num(r.handlers_count),
    })),
    reminders: {
      since,
      sent: reminderCount('sent'),
      failed: reminderCount('failed'),
      retrying: reminderCount('retrying'),
    },
  };
}

export function registerStaffHomeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/home', async (request) => {
    checkedQuery(request, noQuery);
    return staffHome(ctx);
  });
}

export const nowStamp = (ctx: AppContext): string => isoTimestamp(ctx.clock.now());
