import { auditQuery } from '@pecan/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { allResources } from '../resources/index.js';
import { handlerParam, invalidParameters, queryOf } from './http.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * GET /api/council/audit: the audit log, newest first, searchable. Read only: there is no way to change or delete
 * an entry (and the database refuses it, see migration 004).
 */
const PAGE_SIZE = 50;

/** JSON:API type of a table, where there is one (`apc_form_1` -> `node--apc_form_1`). */
const TYPE_OF_TABLE = new Map(allResources.map((d) => [d.table, d.type]));
const TABLE_OF_TYPE = new Map(allResources.map((d) => [d.type, d.table]));

const parse = (text: unknown): unknown => (typeof text === 'string' ? JSON.parse(text) : null);

export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/audit', async (request) => {
    const { value: q, problems } = queryOf(request, auditQuery);
    const handlerId = await handlerParam(ctx, q.handler, problems);
    let userId: string | undefined;
    if (q.user !== undefined) {
      const u = await portalDb(ctx.db)
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('id', '=', q.user!), eb('name', '=', q.user!)]))
        .executeTakeFirst();
      if (!u) problems.push({ field: 'user', detail: `There is no user ${q.user} (give an id or a username).` });
      else userId = u.id;
    }
    const table = q.type === undefined ? undefined : (TABLE_OF_TYPE.get(q.type) ?? q.type);
    const { from, to } = q;
    if (from && to && from > to) problems.push({ field: 'to', detail: 'to must not be before from.' });
    const page = q.page ?? 1;
    if (problems.length > 0) throw invalidParameters(problems);

    let query = portalDb(ctx.db).selectFrom('audit_log');
    if (handlerId) query = query.where('handler_id', '=', handlerId);
    if (userId) query = query.where('actor_id', '=', userId);
    if (table) query = query.where('entity_type', '=', table);
    if (q.id) query = query.where('entity_id', '=', q.id);
    if (q.action) query = query.where('action', '=', q.action);
    if (from) query = query.where('occurred_at', '>=', from);
    if (to) query = query.where('occurred_at', '<=', to);
    const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await query
      .selectAll()
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE)
      .execute();
    // Entries about a user name the user (their username), not only its id: the reader cannot look an id up.
    const userIds = [...new Set(rows.filter((r) => r.entity_type === 'users').map((r) => String(r.entity_id)))];
    const userNames = new Map(
      userIds.length
        ? (await portalDb(ctx.db).selectFrom('users').select(['id', 'name']).where('id', 'in', userIds).execute()).map(
            (u) => [String(u.id), String(u.name)],
          )
        : [],
    );
    return {
      data: rows.map((r) => ({
        id: r.id,
        occurred_at: r.occurred_at,
        actor:
          r.actor_id || r.actor_name
            ? { id: r.actor_id ?? null, name: r.actor_name ?? null, role: r.actor_role ?? null }
            : null,
        type: r.entity_type,
        resource_type: TYPE_OF_TABLE.get(r.entity_type) ?? null,
        entity_id: r.entity_id,
        entity_name: r.entity_type === 'users' ? (userNames.get(String(r.entity_id)) ?? null) : null,
        action: r.action,
        handler_id: r.handler_id ?? null,
        before: parse(r.before_values),
        after: parse(r.after_values),
      })),
      meta: { total, page, per_page: PAGE_SIZE, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)) },
    };
  });
}
