import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { isoTimestamp } from '../lib/time.js';
import { authenticateSession } from '../oauth/bearer.js';
import { notFound } from '../lib/errors.js';
import { revokeFamily } from '../oauth/tokens.js';
import type { ActiveSession } from '@pecan/contract';
import { portalDb } from '../db/portal-tables.js';

/**
 * A user's active sessions: each sign-in (a refresh-token family, oauth/tokens.ts) that has not ended. Ending one
 * revokes its family, so its access tokens answer 401 at their next request and its refresh token is refused.
 * Only the user's own sessions are listed or ended; someone else's answers 404 like an unknown one.
 */

export async function listOwnSessions(ctx: AppContext, request: FastifyRequest): Promise<ActiveSession[]> {
  const session = await authenticateSession(ctx, request);
  const now = isoTimestamp(ctx.clock.now());
  const rows = await portalDb(ctx.db)
    .selectFrom('oauth_token_families as f')
    .innerJoin('oauth_clients as c', 'c.id', 'f.client_id')
    .select(['f.id', 'f.created', 'f.last_used', 'f.expires_at', 'f.user_agent', 'f.address', 'c.label'])
    .where('f.user_id', '=', session.viewer.userId)
    .where('f.revoked_at', 'is', null)
    .where('f.expires_at', '>', now)
    .orderBy('f.created', 'desc')
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    created: r.created,
    last_used: r.last_used ?? r.created,
    expires_at: r.expires_at,
    client: r.label,
    user_agent: r.user_agent ?? null,
    address: r.address ?? null,
    current: r.id === session.familyId,
  }));
}

export async function endOwnSession(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const session = await authenticateSession(ctx, request);
  const id = String((request.params as { id: string }).id);
  const now = ctx.clock.now();
  const row = await portalDb(ctx.db)
    .selectFrom('oauth_token_families')
    .select('id')
    .where('id', '=', id.slice(0, 100))
    .where('user_id', '=', session.viewer.userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', isoTimestamp(now))
    .executeTakeFirst();
  if (!row) throw notFound('You have no active session with this id.');
  await revokeFamily(ctx.db, id, now);
}
