import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { reminderListQuery } from '@pecan/contract';
import { existingId, handlerParam, invalidParameters, queryOf } from './http.js';
import { portalDb } from '../db/portal-tables.js';

/** GET /api/council/reminders: the reminder e-mails the job has sent (or tried to), newest first. */
const PAGE_SIZE = 100;

export function registerReminderRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/reminders', async (request) => {
    const { value: q, problems } = queryOf(request, reminderListQuery);
    const periodId = await existingId(ctx, 'reporting_periods', q.period_id, 'period_id', problems);
    const handlerId = await handlerParam(ctx, q.handler, problems);
    const { kind, status } = q;
    const page = q.page ?? 1;
    if (problems.length > 0) throw invalidParameters(problems);
    let query = portalDb(ctx.db)
      .selectFrom('reminders_sent as r')
      .innerJoin('handlers as h', 'h.id', 'r.handler_id')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .innerJoin('reporting_periods as p', 'p.id', 'r.period_id');
    if (periodId) query = query.where('r.period_id', '=', periodId);
    if (handlerId) query = query.where('r.handler_id', '=', handlerId);
    if (kind) query = query.where('r.kind', '=', kind);
    if (status) query = query.where('r.status', '=', status);
    const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await query
      .select([
        'r.id',
        'r.kind',
        'r.status',
        'r.mail_to',
        'r.subject',
        'r.due_date',
        'r.claimed_at',
        'r.sent_at',
        'r.attempts',
        'r.next_attempt_at',
        'r.period_id',
        'p.period_month',
        'r.handler_id',
        'h.handler_number',
        'h.title as handler_name',
        'r.user_id',
        'u.name as username',
      ])
      .orderBy('r.claimed_at', 'desc')
      .orderBy('h.handler_number')
      .orderBy('u.name')
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE)
      .execute();
    return {
      data: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        status: r.status,
        to: r.mail_to,
        subject: r.subject,
        due_date: r.due_date,
        claimed_at: r.claimed_at,
        sent_at: r.sent_at ?? null,
        attempts: Number(r.attempts),
        next_attempt_at: r.next_attempt_at ?? null,
        period_id: r.period_id,
        period_month: r.period_month,
        handler_id: r.handler_id,
        handler_number: r.handler_number,
        handler_name: r.handler_name,
        user_id: r.user_id,
        username: r.username,
      })),
      meta: { total, page, per_page: PAGE_SIZE },
    };
  });
}
