import { addDays } from '@pecan/contract';
import type { AppContext } from '../context.js';
import { yearlyReminderMail, type ReminderCandidate, type ReminderKind } from './mail.js';
import { portalDb } from '../db/portal-tables.js';
import type { Recipients } from './recipients.js';

/**
 * Reminders of the yearly forms, found the way run.ts finds the monthly ones: who should hear today, sent or not.
 * Each reminder is keyed like a monthly one (kind, period, handler, user) so the claim that sends it once is the
 * same; the period is the one that sets its due date.
 *
 * Form 4 (986.162: due by the 10th of the month after the first transfer between the two handlers):
 * - a handler whose certified Form 1 reports inter-handler shipments in a month of the season, and has no active
 *   certified transfer agreement for that season: due with the first such month;
 * - a draft agreement it has not certified: due with its month of first transfer;
 * - a certified agreement the receiving handler has not countersigned: the receiving handler is reminded.
 * One reminder per handler and month lists all of these.
 *
 * Form 5 (986.175: the year-end inventory as of 31 August, due 10 September or as staff set it on the season): every
 * active handler without a certified year-end form, keyed to the season's August period.
 */
interface Window {
  today: string;
  from: string;
  to: string;
  recipients: Recipients;
}
type HandlerRow = { id: string; handler_number: string; title: string };

/** Lines of one handler's reminder, gathered by (handler, period). */
class Pending {
  readonly byKey = new Map<string, { handler: HandlerRow; periodId: string; dueDate: string; lines: string[] }>();
  add(handler: HandlerRow, periodId: string, dueDate: string, line: string): void {
    const key = `${handler.id}|${periodId}`;
    const entry = this.byKey.get(key) ?? { handler, periodId, dueDate, lines: [] };
    entry.lines.push(line);
    this.byKey.set(key, entry);
  }
}

function expand(ctx: AppContext, pending: Pending, form: 'Form 4' | 'Form 5', w: Window): ReminderCandidate[] {
  const out: ReminderCandidate[] = [];
  for (const e of pending.byKey.values()) {
    const overdue = w.today > e.dueDate;
    const kind: ReminderKind =
      form === 'Form 4'
        ? overdue
          ? 'form_4_overdue'
          : 'form_4_due_soon'
        : overdue
          ? 'form_5_overdue'
          : 'form_5_due_soon';
    const handler = { id: e.handler.id, number: e.handler.handler_number, name: e.handler.title };
    for (const user of w.recipients.get(e.handler.id) ?? []) {
      const message = () =>
        yearlyReminderMail(ctx, {
          kind,
          form,
          what: form === 'Form 4' ? 'inter-handler transfer agreement' : 'year-end inventory',
          dueDate: e.dueDate,
          handler,
          user,
          lines: e.lines,
          path: form === 'Form 4' ? '/dashboard/transfers' : '/dashboard/year-end',
        });
      out.push({ kind, periodId: e.periodId, dueDate: e.dueDate, handler, user, message });
    }
  }
  return out;
}

async function periodsByMonth(
  ctx: AppContext,
  months: string[],
): Promise<Map<string, { id: string; due_date: string; title: string }>> {
  if (months.length === 0) return new Map();
  const rows = await portalDb(ctx.db)
    .selectFrom('reporting_periods')
    .select(['id', 'period_month', 'due_date', 'title'])
    .where('period_month', 'in', months)
    .execute();
  return new Map(rows.map((r) => [r.period_month, { id: r.id, due_date: r.due_date, title: r.title }]));
}

export async function form4Reminders(ctx: AppContext, w: Window): Promise<ReminderCandidate[]> {
  const pending = new Pending();
  // Transfers reported on a certified Form 1, by handler and season: the first month of each.
  const shipped = await portalDb(ctx.db)
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .innerJoin('handlers as h', 'h.id', 'f.handler_id')
    .select([
      'h.id',
      'h.handler_number',
      'h.title',
      'p.season_id',
      'p.id as period_id',
      'p.period_month',
      'p.due_date',
      'p.title as period_title',
    ])
    .where('f.form_status', '=', 'certified')
    .where('f.interhandler_shipped', '>', 0)
    .where('h.handler_status', '=', 'active')
    // Only seasons with a month due in the window can have their first transfer month due in it: the whole history
    // was 42 ms of one statement at 1,000 handlers x 2 seasons, every pass.
    .where('p.season_id', 'in', (q) =>
      q
        .selectFrom('reporting_periods')
        .select('season_id')
        .where('due_date', '>=', w.from)
        .where('due_date', '<=', w.to),
    )
    .orderBy('p.period_month')
    .execute();
  const firstBySeason = new Map<string, (typeof shipped)[number]>();
  for (const r of shipped)
    if (!firstBySeason.has(`${r.id}|${r.season_id}`)) firstBySeason.set(`${r.id}|${r.season_id}`, r);
  const agreements = await portalDb(ctx.db)
    .selectFrom('apc_form_4 as t')
    .innerJoin('handlers as r', 'r.id', 't.receiving_handler_id')
    .innerJoin('handlers as s', 's.id', 't.transferring_handler_id')
    .select([
      't.transferring_handler_id',
      't.receiving_handler_id',
      't.season_id',
      't.form_status',
      't.first_transfer_month',
      't.due_date',
      't.receiving_certification_name',
      'r.handler_number as receiving_number',
      'r.title as receiving_name',
      's.handler_number as transferring_number',
      's.title as transferring_name',
      's.handler_status as transferring_status',
      'r.handler_status as receiving_status',
    ])
    .where('t.form_activity', '=', 'active')
    .execute();
  const certifiedSeasons = new Set(
    agreements.filter((t) => t.form_status === 'certified').map((t) => `${t.transferring_handler_id}|${t.season_id}`),
  );
  for (const [key, first] of firstBySeason) {
    if (certifiedSeasons.has(key) || first.due_date < w.from || first.due_date > w.to) continue;
    pending.add(
      first,
      first.period_id,
      first.due_date,
      `Your ${first.period_title} Form 1 reports inter-handler transfers: file and certify a Form 4 agreement with each receiving handler.`,
    );
  }
  const inWindow = agreements.filter((t) => t.due_date && t.due_date >= w.from && t.due_date <= w.to);
  const periods = await periodsByMonth(ctx, [...new Set(inWindow.map((t) => t.first_transfer_month as string))]);
  for (const t of inWindow) {
    const period = periods.get(t.first_transfer_month as string);
    if (!period) continue;
    if (t.form_status === 'draft' && t.transferring_status === 'active') {
      pending.add(
        {
          id: t.transferring_handler_id,
          handler_number: t.transferring_number,
          title: t.transferring_name,
        },
        period.id,
        t.due_date as string,
        `The agreement with ${t.receiving_name} (handler ${t.receiving_number}) is a draft: certify it.`,
      );
    } else if (t.form_status === 'certified' && !t.receiving_certification_name && t.receiving_status === 'active') {
      pending.add(
        {
          id: t.receiving_handler_id,
          handler_number: t.receiving_number,
          title: t.receiving_name,
        },
        period.id,
        t.due_date as string,
        `${t.transferring_name} (handler ${t.transferring_number}) certified a transfer agreement with you: countersign it.`,
      );
    }
  }
  return expand(ctx, pending, 'Form 4', w);
}

export async function form5Reminders(ctx: AppContext, w: Window): Promise<ReminderCandidate[]> {
  const pending = new Pending();
  const seasons = await portalDb(ctx.db)
    .selectFrom('seasons')
    .select(['id', 'title', 'season_end_date', 'reporting_due_date'])
    .where('reporting_due_date', '>=', w.from)
    .where('reporting_due_date', '<=', w.to)
    .execute();
  const periods = await periodsByMonth(
    ctx,
    seasons.map((s) => String(s.season_end_date).slice(0, 7)),
  );
  const handlers = (await portalDb(ctx.db)
    .selectFrom('handlers')
    .select(['id', 'handler_number', 'title'])
    .where('handler_status', '=', 'active')
    .orderBy('handler_number')
    .execute()) as HandlerRow[];
  for (const s of seasons) {
    const august = periods.get(String(s.season_end_date).slice(0, 7));
    if (!august) continue;
    const filed = new Set(
      (
        await portalDb(ctx.db)
          .selectFrom('apc_form_5')
          .select('handler_id')
          .where('season_id', '=', s.id)
          .where('form_status', 'in', ['certified', 'superseded'])
          .execute()
      ).map((r) => r.handler_id),
    );
    for (const h of handlers.filter((x) => !filed.has(x.id))) {
      pending.add(
        h,
        august.id,
        s.reporting_due_date,
        `The ${s.title} year-end inventory (as of 31 August) is not certified yet.`,
      );
    }
  }
  return expand(ctx, pending, 'Form 5', w);
}

/** Both yearly forms' reminders for the window of days around today. */
export async function yearlyReminders(
  ctx: AppContext,
  today: string,
  daysBefore: number,
  lookbackDays: number,
  recipients: Recipients,
): Promise<ReminderCandidate[]> {
  const w = { today, from: addDays(today, -lookbackDays), to: addDays(today, daysBefore), recipients };
  return [...(await form4Reminders(ctx, w)), ...(await form5Reminders(ctx, w))];
}
