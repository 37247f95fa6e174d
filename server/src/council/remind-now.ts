import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { recordAudit } from '../audit/log.js';
import { isoTimestamp, newId } from '../lib/time.js';
import { trySendMail } from '../mail/mailer.js';
import { ApiError } from '../lib/errors.js';
import { reminderMail } from '../reminders/mail.js';
import { MONTHLY_FORMS } from '../workflows/packages.js';
import { remindNowBody } from '@pecan/contract';
import { asStaff, bodyOf, handlerByIdOrNumber, invalid, noSuchHandler, type FieldProblem } from './http.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * POST /api/council/reminders/now {period_id, handler}: staff remind one handler now of a month's forms 1-3 that are
 * not all certified, through the reminder e-mail the job sends (reminders/mail.ts), to each of the handler's active
 * users with an e-mail address. Recorded in reminders_sent as kind `sent_now` (one row per user and month, claimed
 * again by each later send) and in the audit log (`remind`). Not twice within REMIND_NOW_MINUTES for one handler and
 * month: the second is a 409 saying when the next may go, so a double click sends one e-mail.
 */
export const REMIND_NOW_MINUTES = 15;

const FORM_NAMES: Record<string, string> = { apc_form_1: 'Form 1', apc_form_2: 'Form 2', apc_form_3: 'Form 3' };

export interface RemindNowResult {
  period_id: string;
  handler_id: string;
  kind: 'due_soon' | 'overdue';
  sent: string[];
  failed: string[];
  next_allowed_at: string;
}

export function registerRemindNowRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/reminders/now', async (request, reply) => {
    const body = bodyOf(request, remindNowBody);
    const claimed = await asStaff(ctx, request, async (a) => {
      const db = a.ctx.db;
      const problems: FieldProblem[] = [];
      const period = await db
        .selectFrom('reporting_periods')
        .select(['id', 'title', 'period_month', 'due_date'])
        .where('id', '=', body.period_id)
        .executeTakeFirst();
      if (!period) problems.push({ field: 'period_id', detail: 'period_id names no reporting period.' });
      const handler = await handlerByIdOrNumber(a.ctx, body.handler);
      if (!handler) problems.push(noSuchHandler(body.handler));
      if (problems.length > 0 || !period || !handler) {
        throw invalid(problems);
      }
      if (handler.handler_status !== 'active')
        throw new ApiError(409, `Handler ${handler.handler_number} is inactive: it is not reminded.`);
      const pkg = await db
        .selectFrom('reporting_forms_packages')
        .select('id')
        .where('period_id', '=', period.id)
        .where('handler_id', '=', handler.id)
        .executeTakeFirst();
      if (!pkg) throw new ApiError(409, `Handler ${handler.handler_number} has no forms for ${period.title}.`);
      const missing: string[] = [];
      for (const form of MONTHLY_FORMS) {
        const done = await db
          .selectFrom(form)
          .select('id')
          .where('period_id', '=', period.id)
          .where('handler_id', '=', handler.id)
          .where('form_status', '=', 'certified')
          .executeTakeFirst();
        if (!done) missing.push(FORM_NAMES[form]);
      }
      if (missing.length === 0)
        throw new ApiError(
          409,
          `Handler ${handler.handler_number} has certified every form of ${period.title}: there is nothing to remind it of.`,
        );

      const now = a.ctx.clock.now();
      const stamp = isoTimestamp(now);
      const cutoff = isoTimestamp(new Date(now.getTime() - REMIND_NOW_MINUTES * 60_000));
      const last = await db
        .selectFrom('reminders_sent')
        .select('claimed_at')
        .where('kind', '=', 'sent_now')
        .where('period_id', '=', period.id)
        .where('handler_id', '=', handler.id)
        .where('claimed_at', '>', cutoff)
        .orderBy('claimed_at', 'desc')
        .executeTakeFirst();
      if (last) {
        const next = isoTimestamp(new Date(Date.parse(last.claimed_at) + REMIND_NOW_MINUTES * 60_000));
        throw new ApiError(
          409,
          `Handler ${handler.handler_number} was reminded of ${period.title} at ${last.claimed_at}; the next reminder can be sent from ${next} (one every ${REMIND_NOW_MINUTES} minutes).`,
          { meta: { code: 'reminded_recently', last_sent_at: last.claimed_at, next_allowed_at: next } },
        );
      }
      const users = (
        await db
          .selectFrom('users')
          .select(['id', 'mail', 'first_name'])
          .where('handler_id', '=', handler.id)
          .where('status', '=', 'active')
          .where('role', '=', 'handler')
          .where('mail', 'is not', null)
          .orderBy('name')
          .execute()
      ).filter((u) => String(u.mail).trim() !== '');
      if (users.length === 0)
        throw new ApiError(
          409,
          `Handler ${handler.handler_number} has no active user with an e-mail address to remind.`,
        );

      const kind = stamp.slice(0, 10) > period.due_date ? ('overdue' as const) : ('due_soon' as const);
      const h = { id: handler.id, number: handler.handler_number, name: handler.title };
      const mails: Array<{ rowId: string; message: ReturnType<typeof reminderMail> }> = [];
      for (const u of users) {
        const message = reminderMail(a.ctx, {
          kind,
          period,
          handler: h,
          user: { mail: u.mail as string, first_name: u.first_name },
          missing,
        });
        // One row per user and month: a later send claims it again, but only once the guard's minutes have passed.
        const claim = {
          mail_to: message.to,
          subject: message.subject,
          due_date: period.due_date,
          claimed_at: stamp,
          sent_at: null,
          status: 'claimed',
          attempts: 1,
          next_attempt_at: null,
        } as const;
        const row = await db
          .insertInto('reminders_sent')
          .values({
            id: newId(),
            kind: 'sent_now',
            period_id: period.id,
            handler_id: handler.id,
            user_id: u.id,
            ...claim,
          })
          .onConflict((oc) =>
            oc
              .columns(['kind', 'period_id', 'handler_id', 'user_id'])
              .doUpdateSet(claim)
              .where('reminders_sent.claimed_at', '<=', cutoff),
          )
          .returning('id')
          .executeTakeFirst();
        if (row) mails.push({ rowId: row.id, message });
      }
      if (mails.length === 0)
        throw new ApiError(409, `Handler ${handler.handler_number} was just reminded of ${period.title}.`, {
          meta: { code: 'reminded_recently' },
        });
      await recordAudit(db, a.ctx.clock, a.viewer, {
        type: 'handlers',
        id: handler.id,
        action: 'remind',
        after: {
          kind: 'sent_now',
          reminder_kind: kind,
          period_month: period.period_month,
          missing,
          to: mails.map((m) => m.message.to),
        },
      });
      return {
        period,
        handler,
        kind,
        mails,
        next: isoTimestamp(new Date(now.getTime() + REMIND_NOW_MINUTES * 60_000)),
      };
    });

    // After the commit, as the job does: send, then record whether each went out (no retries: staff can send again).
    const sent: string[] = [];
    const failed: string[] = [];
    for (const m of claimed.mails) {
      const ok = await trySendMail(ctx, m.message, request.log);
      await portalDb(ctx.db)
        .updateTable('reminders_sent')
        .set(ok ? { status: 'sent', sent_at: isoTimestamp(ctx.clock.now()) } : { status: 'failed' })
        .where('id', '=', m.rowId)
        .execute();
      (ok ? sent : failed).push(m.message.to);
    }
    const result: RemindNowResult = {
      period_id: claimed.period.id,
      handler_id: claimed.handler.id,
      kind: claimed.kind,
      sent,
      failed,
      next_allowed_at: claimed.next,
    };
    return reply.code(200).send(result);
  });
}
