import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isStaff, type AppContext, type Viewer } from '../context.js';
import { isoTimestamp } from '../lib/time.js';
import { authenticate } from '../oauth/bearer.js';
import { staffViewer } from '../council/http.js';
import { ApiError, forbidden, notFound } from '../lib/errors.js';
import { recordAudit } from '../audit/log.js';
import type { Db } from '../db/database.js';
import {
  clientInfo,
  CLIENT_SCOPES,
  createClient,
  listClients,
  loadClient,
  MAX_CLIENT_NAME,
  revokeClient,
  rotateSecret,
  type ClientScope,
} from './clients.js';

/**
 * Managing API clients (docs/API-CLIENTS.md, docs/COUNCIL-API.md). Plain JSON; errors are JSON:API error documents.
 * - A handler's admin users (users.handler_admin): GET/POST /api/account/api-clients, POST
 *   /api/account/api-clients/:id/rotate and /revoke, for their own handler's clients only.
 * - Council staff, for any handler: GET/POST /api/council/handlers/:handler/api-clients, POST
 *   /api/council/api-clients/:id/rotate and /revoke.
 * A new secret (create, rotate) is in the answer once (`client_secret`) and never again. Each change is audited.
 */
interface Manager {
  viewer: Viewer;
  handlerId: string | null;
}

async function manager(ctx: AppContext, request: FastifyRequest): Promise<Manager & { admin: boolean }> {
  const viewer = await authenticate(ctx, request);
  if (isStaff(viewer)) return { viewer, handlerId: null, admin: true };
  const row = await ctx.db
    .selectFrom('users')
    .select('handler_admin')
    .where('id', '=', viewer.userId)
    .executeTakeFirst();
  const admin = row?.handler_admin === true || row?.handler_admin === 1;
  return { viewer, handlerId: viewer.handlerId, admin };
}

async function handlerAdmin(ctx: AppContext, request: FastifyRequest): Promise<Manager & { handlerId: string }> {
  const m = await manager(ctx, request);
  if (isStaff(m.viewer))
    throw forbidden(
      'Council staff manage API clients in the council console (/api/council/handlers/:handler/api-clients).',
    );
  if (!m.admin || !m.handlerId)
    throw forbidden(
      "Only your company's administrators can manage its API clients: ask council staff to make you one.",
    );
  return { ...m, handlerId: m.handlerId };
}

/** Council staff, let in by the council prefix's hook: any handler's clients. */
const staff = (request: FastifyRequest): Manager => ({ viewer: staffViewer(request), handlerId: null });

type Problem = { detail: string; source: { pointer: string } };
function newClientInput(request: FastifyRequest): { name: string; scope: ClientScope } {
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(400, 'The request body must be a JSON object (Content-Type: application/json).');
  const b = body as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const key of Object.keys(b))
    if (key !== 'name' && key !== 'scope')
      problems.push({
        detail: `${key} is not a field of this request (expected: name, scope).`,
        source: { pointer: `/${key}` },
      });
  const name = typeof b.name === 'string' ? b.name.trim() : '';
  if (name === '' || name.length > MAX_CLIENT_NAME || /\p{Cc}/u.test(name)) {
    problems.push({
      detail: `name is required: text of 1 to ${MAX_CLIENT_NAME} characters that says which system uses the client.`,
      source: { pointer: '/name' },
    });
  }
  if (!CLIENT_SCOPES.includes(b.scope as ClientScope))
    problems.push({
      detail: 'scope is required: "read", or "read write" to save drafts too.',
      source: { pointer: '/scope' },
    });
  if (problems.length > 0) throw ApiError.many(422, problems);
  return { name, scope: b.scope as ClientScope };
}

const idParam = (request: FastifyRequest) => String((request.params as Record<string, string>).id);

async function create(ctx: AppContext, m: Manager, handlerId: string, input: { name: string; scope: ClientScope }) {
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const { row, secret } = await createClient(trx, { handlerId, ...input, createdBy: m.viewer.userId, now });
    await recordAudit(trx, ctx.clock, m.viewer, {
      type: 'api_clients',
      id: row.id,
      action: 'create',
      before: null,
      after: row,
    });
    return { data: clientInfo(row, isoTimestamp(now)), client_secret: secret };
  });
}

/** Rotate or revoke one client, which must be the manager's handler's (a handler admin) or any (staff). */
async function change(ctx: AppContext, m: Manager, id: string, what: 'rotate' | 'revoke') {
  return ctx.db.transaction().execute(async (trx: Db) => {
    const now = ctx.clock.now();
    const row = await loadClient(trx, id);
    if (m.handlerId !== null && row.handler_id !== m.handlerId) throw notFound('There is no API client with this id.');
    if (what === 'rotate') {
      const done = await rotateSecret(trx, row, ctx.config.apiClients.overlapHours, now);
      await recordAudit(trx, ctx.clock, m.viewer, {
        type: 'api_clients',
        id,
        action: 'rotate_secret',
        before: row,
        after: done.row,
      });
      return { data: clientInfo(done.row, isoTimestamp(now)), client_secret: done.secret };
    }
    const done = await revokeClient(trx, row, now);
    if (done !== row)
      await recordAudit(trx, ctx.clock, m.viewer, {
        type: 'api_clients',
        id,
        action: 'revoke',
        before: row,
        after: done,
      });
    return { data: clientInfo(done, isoTimestamp(now)) };
  });
}

async function handlerOf(ctx: AppContext, request: FastifyRequest): Promise<string> {
  const value = String((request.params as Record<string, string>).handler);
  const row =
    value.length <= 64
      ? await ctx.db
          .selectFrom('handlers')
          .select('id')
          .where((eb) => eb.or([eb('id', '=', value), eb('handler_number', '=', value)]))
          .executeTakeFirst()
      : undefined;
  if (!row) throw notFound(`There is no handler ${value} (give its id or its handler number).`);
  return String(row.id);
}

export function registerApiClientRoutes(app: FastifyInstance, ctx: AppContext): void {
  const now = () => isoTimestamp(ctx.clock.now());

  // Always 200 for a signed-in person, so the profile page can tell whether to show the section.
  app.get('/api/account/api-clients', async (request) => {
    const m = await manager(ctx, request);
    const mayManage = !isStaff(m.viewer) && m.admin && m.handlerId !== null;
    return { admin: mayManage, data: mayManage ? await listClients(ctx.db, m.handlerId as string, now()) : [] };
  });
  app.post('/api/account/api-clients', async (request, reply) => {
    const m = await handlerAdmin(ctx, request);
    return reply.code(201).send(await create(ctx, m, m.handlerId, newClientInput(request)));
  });
  app.post('/api/account/api-clients/:id/rotate', async (request) =>
    change(ctx, await handlerAdmin(ctx, request), idParam(request), 'rotate'),
  );
  app.post('/api/account/api-clients/:id/revoke', async (request) =>
    change(ctx, await handlerAdmin(ctx, request), idParam(request), 'revoke'),
  );
}

/** Council staff manage any handler's API clients: paths under the council prefix, whose hook lets in only staff. */
export function registerCouncilApiClientRoutes(council: FastifyInstance, ctx: AppContext): void {
  const now = () => isoTimestamp(ctx.clock.now());
  council.get('/handlers/:handler/api-clients', async (request) => {
    return { data: await listClients(ctx.db, await handlerOf(ctx, request), now()) };
  });
  council.post('/handlers/:handler/api-clients', async (request, reply) => {
    const m = staff(request);
    const handlerId = await handlerOf(ctx, request);
    return reply.code(201).send(await create(ctx, m, handlerId, newClientInput(request)));
  });
  council.post('/api-clients/:id/rotate', async (request) => change(ctx, staff(request), idParam(request), 'rotate'));
  council.post('/api-clients/:id/revoke', async (request) => change(ctx, staff(request), idParam(request), 'revoke'));
}
