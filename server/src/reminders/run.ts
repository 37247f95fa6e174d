import { addDays } from '@pecan/contract';
import type { AppContext } from '../context.js';
import { isoTimestamp, newId } from '../lib/time.js';
import { trySendMail, type MailLog, type MailMessage } from '../mail/mailer.js';
import { MONTHLY_FORMS } from '../workflows/packages.js';
import { reminderMail, type ReminderCandidate, type ReminderKind } from './mail.js';
import { readRecipients, type Recipients } from './recipients.js';
import { yearlyReminders } from './yearly.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * Reminder e-mails to handlers' users: `due_soon` when a month's forms are not all certified and its due date is at
 * most `daysBefore` days away, `overdue` once the due date has passed; the same for form 4 and form 5 (yearly.ts).
 * Each reminder (kind, period, handler, user) reaches its person at most once, whatever the number of server
 * replicas running this job: it is first claimed by inserting its row into reminders_sent, whose unique key lets
 * exactly one insert win (ON CONFLICT DO NOTHING; on PostgreSQL a second replica's insert waits for the first's
 * transaction and then inserts nothing). Only the winner sends, after its claim has committed, and then records
 * whether the mail went out.
 *
 * A mail that fails is retried with backoff: the row becomes `retrying` with the time of its next attempt
 * (retryMinutes, then twice as long each time); a later pass that finds the reminder still due claims the retry by
 * a conditional update (status retrying -> claimed, one winner again) and sends. After maxAttempts sends it is
 * `failed`. A retry is sent only while the reminder is still due (the forms are not certified meanwhile); one that
 * is no longer due is recorded as `cancelled`. A send that went out is never repeated.
 */
export interface ReminderSettings {
  daysBefore: number;
  /** Minutes before the first retry of a failed send; doubled for each further one. Default 15. */
  retryMinutes?: number;
  /** Sends of one reminder, the first included, before it is given up. Default 5. */
  maxAttempts?: number;
}

/** Overdue reminders only for months due at most this long ago, so a first start on old data sends no flood. */
export const OVERDUE_LOOKBACK_DAYS = 45;

export interface ReminderRun {
  claimed: number;
  sent: number;
  failed: number;
  /** Failed sends that will be tried again later. */
  retrying: number;
}

const FORM_NAMES: Record<string, string> = { apc_form_1: 'Form 1', apc_form_2: 'Form 2', apc_form_3: 'Form 3' };
const todayOf = (ctx: AppContext): string => isoTimestamp(ctx.clock.now()).slice(0, 10);

/** What is due for the monthly forms: every (kind, period, handler, user) that should have a reminder today. */
async function monthlyReminders(
  ctx: AppContext,
  settings: ReminderSettings,
  recipients: Recipients,
): Promise<ReminderCandidate[]> {
  const today = todayOf(ctx);
  const periods = await portalDb(ctx.db)
    .selectFrom('reporting_periods')
    .select(['id', 'title', 'period_month', 'due_date'])
    .where('due_date', '<=', addDays(today, settings.daysBefore))
    .where('due_date', '>=', addDays(today, -OVERDUE_LOOKBACK_DAYS))
    .orderBy('due_date')
    .execute();
  const out: ReminderCandidate[] = [];
  for (const period of periods) {
    const kind: ReminderKind = today > period.due_date ? 'overdue' : 'due_soon';
    const handlers = await portalDb(ctx.db)
      .selectFrom('reporting_forms_packages as k')
      .innerJoin('handlers as h', 'h.id', 'k.handler_id')
      .select(['h.id', 'h.handler_number', 'h.title'])
      .where('k.period_id', '=', period.id)
      .where('h.handler_status', '=', 'active')
      .orderBy('h.handler_number')
      .execute();
    if (handlers.length === 0) continue;
    const certified = new Map<string, Set<string>>();
    for (const form of MONTHLY_FORMS) {
      const rows = await portalDb(ctx.db)
        .selectFrom(form)
        .select('handler_id')
        .where('period_id', '=', period.id)
        .where('form_status', '=', 'certified')
        .execute();
      certified.set(form, new Set(rows.map((r) => r.handler_id)));
    }
    for (const h of handlers) {
      const missing = MONTHLY_FORMS.filter((f) => !certified.get(f)!.has(h.id)).map((f) => FORM_NAMES[f]);
      if (missing.length === 0) continue;
      const handler = { id: h.id, number: h.handler_number, name: h.title };
      for (const user of recipients.get(h.id) ?? []) {
        out.push({
          kind,
          periodId: period.id,
          dueDate: period.due_date,
          handler,
          user,
          message: () => reminderMail(ctx, { kind, period, handler, user, missing }),
        });
      }
    }
  }
  return out;
}

/** Every reminder that should have gone out by today, sent or not: monthly forms, form 4, form 5. */
export async function dueReminders(ctx: AppContext, settings: ReminderSettings): Promise<ReminderCandidate[]> {
  const recipients = await readRecipients(ctx);
  return [
    ...(await monthlyReminders(ctx, settings, recipients)),
    ...(await yearlyReminders(ctx, todayOf(ctx), settings.daysBefore, OVERDUE_LOOKBACK_DAYS, recipients)),
  ];
}

const keyOf = (r: { kind: string; period_id: string; handler_id: string; user_id: string }): string =>
  `${r.kind}|${r.period_id}|${r.handler_id}|${r.user_id}`;
const candidateKey = (c: ReminderCandidate): string =>
  keyOf({ kind: c.kind, period_id: c.periodId, handler_id: c.handler.id, user_id: c.user.id });

/** Claims a reminder; its row id when this call's insert won (no replica has claimed it before). */
async function claim(ctx: AppContext, c: ReminderCandidate, message: MailMessage): Promise<string | null> {
  const id = newId();
  const db = portalDb(ctx.db);
  const result = await db.transaction().execute((trx) =>
    trx
      .insertInto('reminders_sent')
      .values({
        id,
        kind: c.kind,
        period_id: c.periodId,
        handler_id: c.handler.id,
        user_id: c.user.id,
        mail_to: message.to,
        subject: message.subject,
        due_date: c.dueDate,
        claimed_at: isoTimestamp(ctx.clock.now()),
        sent_at: null,
        status: 'claimed',
        attempts: 1,
      })
      .onConflict((oc) => oc.columns(['kind', 'period_id', 'handler_id', 'user_id']).doNothing())
      .executeTakeFirst(),
  );
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? id : null;
}

/** Claims a retry whose time has come: one replica's conditional update wins; the attempt is counted. */
async function claimRetry(ctx: AppContext, row: { id: string; attempts: number }): Promise<boolean> {
  const now = isoTimestamp(ctx.clock.now());
  const result = await portalDb(ctx.db)
    .updateTable('reminders_sent')
    .set({ status: 'claimed', claimed_at: now, attempts: row.attempts + 1, next_attempt_at: null })
    .where('id', '=', row.id)
    .where('status', '=', 'retrying')
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0) === 1;
}

/** retryMinutes x 2^(attempts - 1): 15, 30, 60, 120 minutes with the defaults. */
export function retryDelayMinutes(attempts: number, retryMinutes: number): number {
  return retryMinutes * 2 ** Math.max(0, attempts - 1);
}

async function send(
  ctx: AppContext,
  settings: ReminderSettings,
  message: MailMessage,
  id: string,
  attempts: number,
  run: ReminderRun,
  log?: MailLog,
): Promise<void> {
  const ok = await trySendMail(ctx, message, log);
  const now = ctx.clock.now();
  if (ok) {
    await portalDb(ctx.db)
      .updateTable('reminders_sent')
      .set({ status: 'sent', sent_at: isoTimestamp(now), next_attempt_at: null })
      .where('id', '=', id)
      .execute();
    run.sent += 1;
    return;
  }
  if (attempts < (settings.maxAttempts ?? 5)) {
    const next = new Date(now.getTime() + retryDelayMinutes(attempts, settings.retryMinutes ?? 15) * 60_000);
    await portalDb(ctx.db)
      .updateTable('reminders_sent')
      .set({ status: 'retrying', next_attempt_at: isoTimestamp(next) })
      .where('id', '=', id)
      .execute();
    run.retrying += 1;
    return;
  }
  await portalDb(ctx.db)
    .updateTable('reminders_sent')
    .set({ status: 'failed', next_attempt_at: null })
    .where('id', '=', id)
    .execute();
  run.failed += 1;
}

/** One pass of the job: claim what is due and not yet claimed (or due for a retry), then send it. */
export async function runReminders(ctx: AppContext, settings: ReminderSettings, log?: MailLog): Promise<ReminderRun> {
  const run: ReminderRun = { claimed: 0, sent: 0, failed: 0, retrying: 0 };
  const candidates = await dueReminders(ctx, settings);
  const existing =
    candidates.length === 0
      ? []
      : await portalDb(ctx.db)
          .selectFrom('reminders_sent')
          .select(['id', 'kind', 'period_id', 'handler_id', 'user_id', 'status', 'attempts', 'next_attempt_at'])
          .where('period_id', 'in', [...new Set(candidates.map((c) => c.periodId))])
          .execute();
  const rows = new Map(existing.map((r) => [keyOf(r), r]));
  const now = isoTimestamp(ctx.clock.now());
  for (const c of candidates) {
    const row = rows.get(candidateKey(c));
    if (row) {
      // Claimed before: only a retry whose time has come is sent again.
      if (row.status !== 'retrying' || !row.next_attempt_at || row.next_attempt_at > now) continue;
      if (!(await claimRetry(ctx, { id: row.id, attempts: Number(row.attempts) }))) continue;
      run.claimed += 1;
      await send(ctx, settings, c.message(), row.id, Number(row.attempts) + 1, run, log);
      continue;
    }
    const message = c.message();
    const id = await claim(ctx, c, message);
    if (!id) continue;
    run.claimed += 1;
    await send(ctx, settings, message, id, 1, run, log);
  }
  await cancelStaleRetries(ctx, new Set(candidates.map(candidateKey)));
  return run;
}

/** Retries of reminders that are no longer due (the forms were certified, or the kind moved on) are not sent. */
async function cancelStaleRetries(ctx: AppContext, due: Set<string>): Promise<void> {
  const retrying = await portalDb(ctx.db)
    .selectFrom('reminders_sent')
    .select(['id', 'kind', 'period_id', 'handler_id', 'user_id'])
    .where('status', '=', 'retrying')
    .execute();
  const stale = retrying.filter((r) => !due.has(keyOf(r))).map((r) => r.id);
  if (stale.length > 0)
    await portalDb(ctx.db)
      .updateTable('reminders_sent')
      .set({ status: 'cancelled', next_attempt_at: null })
      .where('id', 'in', stale)
      .where('status', '=', 'retrying')
      .execute();
}
