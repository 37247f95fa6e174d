import { addDays } from '@pecan/contract';
import type { AppContext } from '../context.js';
import { isoTimestamp, newId } from '../lib/time.js';
import { trySendMail, type MailLog, type MailMessage } from '../mail/mailer.js';
import { MONTHLY_FORMS } from '../workflows/packages.js';
import { reminderMail, type ReminderKind } from './mail.js';

/**
 * Reminder e-mails to handlers' users: `due_soon` when a month's forms are not all certified and its due date is at
 * most `daysBefore` days away, `overdue` once the due date has passed. Each reminder (kind, period, handler, user) is
 * sent at most once, whatever the number of server replicas running this job: it is first claimed by inserting its
 * row into reminders_sent, whose unique key lets exactly one insert win (ON CONFLICT DO NOTHING; on PostgreSQL a
 * second replica's insert waits for the first's transaction and then inserts nothing). Only the winner sends, after
 * its claim has committed, and then records whether the mail went out. A mail that fails is logged as `failed` and
 * not retried (at most once, never twice).
 */
export interface ReminderSettings {
  daysBefore: number;
}

/** Overdue reminders only for months due at most this long ago, so a first start on old data sends no flood. */
export const OVERDUE_LOOKBACK_DAYS = 45;

export interface ReminderRun {
  claimed: number;
  sent: number;
  failed: number;
}

interface Candidate {
  kind: ReminderKind;
  period: { id: string; title: string; period_month: string; due_date: string };
  handler: { id: string; number: string; name: string };
  user: { id: string; mail: string; first_name: string };
  missing: string[];
}

const FORM_NAMES: Record<string, string> = { apc_form_1: 'Form 1', apc_form_2: 'Form 2', apc_form_3: 'Form 3' };

/** What is due: every (kind, period, handler, user) that should have a reminder today, sent or not. */
export async function dueReminders(ctx: AppContext, settings: ReminderSettings): Promise<Candidate[]> {
  const today = isoTimestamp(ctx.clock.now()).slice(0, 10);
  const periods = await ctx.db.selectFrom('reporting_periods').select(['id', 'title', 'period_month', 'due_date'])
    .where('due_date', '<=', addDays(today, settings.daysBefore)).where('due_date', '>=', addDays(today, -OVERDUE_LOOKBACK_DAYS))
    .orderBy('due_date').execute();
  const out: Candidate[] = [];
  for (const period of periods) {
    const kind: ReminderKind = today > period.due_date ? 'overdue' : 'due_soon';
    const handlers = await ctx.db.selectFrom('reporting_forms_packages as k').innerJoin('handlers as h', 'h.id', 'k.handler_id')
      .select(['h.id', 'h.handler_number', 'h.title']).where('k.period_id', '=', period.id).where('h.handler_status', '=', 'active')
      .orderBy('h.handler_number').execute();
    if (handlers.length === 0) continue;
    const certified = new Map<string, Set<string>>();
    for (const form of MONTHLY_FORMS) {
      const rows = await ctx.db.selectFrom(form).select('handler_id').where('period_id', '=', period.id).where('form_status', '=', 'certified').execute();
      certified.set(form, new Set(rows.map((r) => r.handler_id as string)));
    }
    const users = await ctx.db.selectFrom('users').select(['id', 'mail', 'first_name', 'handler_id'])
      .where('handler_id', 'in', handlers.map((h) => h.id)).where('status', '=', 'active').where('role', '=', 'handler')
      .where('mail', 'is not', null).orderBy('name').execute();
    for (const h of handlers) {
      const missing = MONTHLY_FORMS.filter((f) => !certified.get(f)!.has(h.id)).map((f) => FORM_NAMES[f]);
      if (missing.length === 0) continue;
      for (const u of users.filter((x) => x.handler_id === h.id && String(x.mail).trim() !== '')) {
        out.push({ kind, period, handler: { id: h.id, number: h.handler_number, name: h.title }, user: { id: u.id, mail: u.mail, first_name: u.first_name }, missing });
      }
    }
  }
  return out;
}

/** Claims a reminder; true when this call's insert won (no replica has claimed it before). */
async function claim(ctx: AppContext, c: Candidate, message: MailMessage): Promise<string | null> {
  const id = newId();
  const result = await ctx.db.transaction().execute((trx) => trx.insertInto('reminders_sent').values({
    id, kind: c.kind, period_id: c.period.id, handler_id: c.handler.id, user_id: c.user.id, mail_to: message.to,
    subject: message.subject, due_date: c.period.due_date, claimed_at: isoTimestamp(ctx.clock.now()), sent_at: null, status: 'claimed',
  }).onConflict((oc) => oc.columns(['kind', 'period_id', 'handler_id', 'user_id']).doNothing()).executeTakeFirst());
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? id : null;
}

/** One pass of the job: claim what is due and not yet claimed, then send it. */
export async function runReminders(ctx: AppContext, settings: ReminderSettings, log?: MailLog): Promise<ReminderRun> {
  const run: ReminderRun = { claimed: 0, sent: 0, failed: 0 };
  const candidates = await dueReminders(ctx, settings);
  if (candidates.length === 0) return run;
  const claimedKeys = new Set((await ctx.db.selectFrom('reminders_sent').select(['kind', 'period_id', 'handler_id', 'user_id'])
    .where('period_id', 'in', [...new Set(candidates.map((c) => c.period.id))]).execute())
    .map((r) => `${r.kind}|${r.period_id}|${r.handler_id}|${r.user_id}`));
  for (const c of candidates) {
    if (claimedKeys.has(`${c.kind}|${c.period.id}|${c.handler.id}|${c.user.id}`)) continue; // cheap pre-check; the claim decides
    const message = reminderMail(ctx, c);
    const id = await claim(ctx, c, message);
    if (!id) continue;
    run.claimed += 1;
    const ok = await trySendMail(ctx, message, log);
    await ctx.db.updateTable('reminders_sent').set({ status: ok ? 'sent' : 'failed', sent_at: ok ? isoTimestamp(ctx.clock.now()) : null })
      .where('id', '=', id).execute();
    if (ok) run.sent += 1;
    else run.failed += 1;
  }
  return run;
}
