import { CLIENT_FAMILY_PREFIX } from '../api-clients/clients.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { Compiler } from '../jsonapi/compile.js';
import { Registry } from '../jsonapi/registry.js';
import { bearerToken, findSession } from '../oauth/bearer.js';
import { ApiError } from '../lib/errors.js';
import { allResources } from '../resources/index.js';
import { verifyFileSignature } from './signing.js';
import { isoTimestamp } from '../lib/time.js';

/**
 * GET /files/{id}/{name}: a file's content, for a valid signed link (from `uri.url`) or for a bearer token whose
 * user may read the file's owner. Anything else is 401, or 403 for a signed-in user without access.
 */
export async function registerFileRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const registry = new Registry(allResources);
  const fileDef = registry.get('file--file');

  app.get<{
    Params: { id: string; name: string };
    Querystring: { expires?: string; session?: string; signature?: string };
  }>('/files/:id/:name', async (request, reply) => {
    const { id } = request.params;
    const now = Math.floor(ctx.clock.now().getTime() / 1000);
    const q = request.query;
    const session = verifyFileSignature(ctx.fileLinkSecret, id, q.expires, q.session, q.signature, now);
    if (session) await assertSessionLive(ctx, session);
    else await assertBearerMayRead(ctx, registry, fileDef, request, id);
    const file = await ctx.db
      .selectFrom('files')
      .select(['filename', 'filemime', 'content'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!file) throw new ApiError(404, 'There is no such file.');
    const content = Buffer.from(file.content as Uint8Array);
    return reply
      .header('content-type', file.filemime)
      .header('content-disposition', `attachment; filename="${String(file.filename).replace(/[^\w.\- ]/g, '_')}"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(content);
  });
}

/**
 * A signed link works only while the session it was handed to goes on: not revoked (signed out, ended, password
 * changed or reset, user blocked), not past its absolute expiry, its user still active. Otherwise 410.
 */
async function assertSessionLive(ctx: AppContext, familyId: string): Promise<void> {
  // A link handed to an API client works while the client is not revoked (docs/API-CLIENTS.md).
  if (familyId.startsWith(CLIENT_FAMILY_PREFIX)) {
    const client = await ctx.db
      .selectFrom('api_clients')
      .select('revoked_at')
      .where('id', '=', familyId.slice(CLIENT_FAMILY_PREFIX.length))
      .executeTakeFirst();
    if (client && client.revoked_at === null) return;
    throw new ApiError(410, 'This file link belonged to an API client that has been revoked.');
  }
  const row = await ctx.db
    .selectFrom('oauth_token_families as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.revoked_at', 'f.expires_at', 'u.status'])
    .where('f.id', '=', familyId)
    .executeTakeFirst();
  if (
    row &&
    row.revoked_at === null &&
    String(row.expires_at) > isoTimestamp(ctx.clock.now()) &&
    row.status === 'active'
  )
    return;
  throw new ApiError(
    410,
    'This file link belonged to a session that has ended (signed out, or ended from another device): sign in and open the file again from the portal.',
  );
}

async function assertBearerMayRead(
  ctx: AppContext,
  registry: Registry,
  fileDef: ReturnType<Registry['get']>,
  request: Parameters<typeof bearerToken>[0],
  id: string,
) {
  const token = bearerToken(request);
  const session = token ? await findSession(ctx, token) : null;
  if (!session)
    throw new ApiError(
      401,
      'This link has expired or is not valid: open the file again from the portal.',
      {},
      { 'WWW-Authenticate': 'Bearer' },
    );
  const compiler = new Compiler(registry, session.viewer, ctx.dialect, ctx.config.mechanisms['shape-cache']);
  const rows = await sql`select 1 from files as f where f.id = ${id} and ${compiler.readable(fileDef, 'f')}`.execute(
    ctx.db,
  );
  if (rows.rows.length === 0) throw new ApiError(403, 'You are not allowed to download this file.');
}
