import { randomBytes } from 'node:crypto';
import type { AppContext, Viewer } from '../context.js';
import type { Db } from '../db/database.js';
import { isoTimestamp } from '../lib/time.js';
import { hashToken } from '../oauth/tokens.js';
import { ApiError } from '../lib/errors.js';
import { hashPassword, verifyPassword } from '../users/passwords.js';

/**
 * API clients: a handler's own systems, acting as a service user of that handler through the OAuth 2
 * client_credentials grant (docs/API-CLIENTS.md). The client id is public; the secret is 32 random bytes, shown once
 * and stored as an Argon2id hash (as passwords are, decision 0004). A rotation makes a new secret while the previous
 * one keeps working for an overlap period. Tokens carry a prefix (`pc.`) no sign-in token has (those are base64url,
 * without dots), so the bearer check knows at once which table to look in.
 */
export type ClientScope = 'read' | 'read write';
export const CLIENT_SCOPES: readonly ClientScope[] = ['read', 'read write'];
export const CLIENT_TOKEN_PREFIX = 'pc.';
/** Live (not revoked) clients a handler may have. */
export const MAX_CLIENTS_PER_HANDLER = 20;
export const MAX_CLIENT_NAME = 80;

export interface ApiClientInfo {
  id: string;
  handler_id: string;
  name: string;
  scope: ClientScope;
  created: string;
  last_used: string | null;
  secret_created: string;
  /** While a rotation's overlap lasts: when the previous secret stops working. */
  previous_secret_expires_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked';
}

const newClientId = () => `pc_${randomBytes(15).toString('base64url').replace(/[-_]/g, 'x')}`;
const newSecret = () => randomBytes(32).toString('base64url');

export function clientInfo(row: Record<string, unknown>, now: string): ApiClientInfo {
  const overlap = row.previous_secret_expires_at as string | null;
  return {
    id: String(row.id),
    handler_id: String(row.handler_id),
    name: String(row.name),
    scope: row.scope as ClientScope,
    created: String(row.created),
    last_used: (row.last_used as string | null) ?? null,
    secret_created: String(row.secret_created),
    previous_secret_expires_at: overlap && overlap > now ? overlap : null,
    revoked_at: (row.revoked_at as string | null) ?? null,
    status: row.revoked_at ? 'revoked' : 'active',
  };
}

export async function listClients(db: Db, handlerId: string, now: string): Promise<ApiClientInfo[]> {
  const rows = await db
    .selectFrom('api_clients')
    .selectAll()
    .where('handler_id', '=', handlerId)
    .orderBy('created', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((r) => clientInfo(r, now));
}

export async function loadClient(db: Db, id: string): Promise<Record<string, unknown>> {
  const row =
    id.length <= 64
      ? await db.selectFrom('api_clients').selectAll().where('id', '=', id).executeTakeFirst()
      : undefined;
  if (!row) throw new ApiError(404, 'There is no API client with this id.');
  return row;
}

export async function createClient(
  db: Db,
  p: { handlerId: string; name: string; scope: ClientScope; createdBy: string; now: Date },
) {
  const live = await db
    .selectFrom('api_clients')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('handler_id', '=', p.handlerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= MAX_CLIENTS_PER_HANDLER) {
    throw new ApiError(
      409,
      `A handler can have at most ${MAX_CLIENTS_PER_HANDLER} active API clients: revoke one first.`,
    );
  }
  const secret = newSecret();
  const at = isoTimestamp(p.now);
  const row = {
    id: newClientId(),
    handler_id: p.handlerId,
    name: p.name,
    scope: p.scope,
    secret_hash: await hashPassword(secret),
    secret_created: at,
    previous_secret_hash: null,
    previous_secret_expires_at: null,
    created: at,
    created_by: p.createdBy,
    last_used: null,
    revoked_at: null,
  };
  await db.insertInto('api_clients').values(row).execute();
  return { row, secret };
}

/** A new secret; the current one keeps working for `overlapHours` (0: stops at once), any older one stops now. */
export async function rotateSecret(db: Db, row: Record<string, unknown>, overlapHours: number, now: Date) {
  if (row.revoked_at) throw new ApiError(409, 'This API client is revoked: create a new one instead.');
  const secret = newSecret();
  const at = isoTimestamp(now);
  const values = {
    secret_hash: await hashPassword(secret),
    secret_created: at,
    previous_secret_hash: overlapHours > 0 ? row.secret_hash : null,
    previous_secret_expires_at:
      overlapHours > 0 ? isoTimestamp(new Date(now.getTime() + overlapHours * 3_600_000)) : null,
  };
  await db.updateTable('api_clients').set(values).where('id', '=', String(row.id)).execute();
  return { row: { ...row, ...values }, secret };
}

/**
 * Ends a client: it authenticates no more, and its tokens stop at the next request (the bearer check joins the client).
 */
export async function revokeClient(db: Db, row: Record<string, unknown>, now: Date) {
  if (row.revoked_at) return row;
  const values = { revoked_at: isoTimestamp(now), previous_secret_hash: null, previous_secret_expires_at: null };
  await db.updateTable('api_clients').set(values).where('id', '=', String(row.id)).execute();
  await db.deleteFrom('api_client_tokens').where('client_id', '=', String(row.id)).execute();
  return { ...row, ...values };
}

/**
 * Checks a client's id and secret (the current one, or the previous one while its overlap lasts). An unknown or
 * revoked client costs a full Argon2id check too, so the time taken does not tell which ids exist.
 */
export async function authenticateApiClient(
  db: Db,
  id: string,
  secret: string,
  now: Date,
): Promise<Record<string, unknown> | null> {
  const row =
    id.length <= 64
      ? await db.selectFrom('api_clients').selectAll().where('id', '=', id).executeTakeFirst()
      : undefined;
  const live = row && !row.revoked_at ? row : undefined;
  if (await verifyPassword(secret, live?.secret_hash as string | undefined)) return live ?? null;
  if (
    live?.previous_secret_hash &&
    String(live.previous_secret_expires_at) > isoTimestamp(now) &&
    (await verifyPassword(secret, live.previous_secret_hash as string))
  )
    return live;
  return null;
}

/** An access token for a client (no refresh token: RFC 6749 §4.4.3); the client's expired tokens are deleted. */
export async function issueClientToken(db: Db, clientId: string, scope: ClientScope, now: Date, ttl: number) {
  const token = CLIENT_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const at = isoTimestamp(now);
  await db.deleteFrom('api_client_tokens').where('client_id', '=', clientId).where('expires_at', '<=', at).execute();
  await db
    .insertInto('api_client_tokens')
    .values({
      token_hash: hashToken(token),
      client_id: clientId,
      scope,
      created: at,
      expires_at: isoTimestamp(new Date(now.getTime() + ttl * 1000)),
    })
    .execute();
  await db.updateTable('api_clients').set({ last_used: at }).where('id', '=', clientId).execute();
  return { token, expiresIn: ttl };
}

export interface ClientSession {
  viewer: Viewer;
  familyId: string;
  expiresAt: string;
  dataVersion: number;
}

/** The file links a client is handed are bound to the client, as a person's are to the sign-in (files/routes.ts). */
export const CLIENT_FAMILY_PREFIX = 'api-client:';

/** A client's access token: the token, not expired; its client, not revoked. One query, as for sign-ins. */
export async function findClientSession(ctx: AppContext, token: string): Promise<ClientSession | null> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .selectFrom('api_client_tokens as t')
    .innerJoin('api_clients as c', 'c.id', 't.client_id')
    .select(['t.expires_at', 't.scope', 'c.id', 'c.name', 'c.handler_id', 'c.last_used'])
    .select((eb) => eb.selectFrom('data_version').select('version').where('id', '=', 1).as('data_version'))
    .where('t.token_hash', '=', hashToken(token))
    .where('t.expires_at', '>', isoTimestamp(now))
    .where('c.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const id = String(row.id);
  throttle(ctx, id, now.getTime());
  await touch(ctx, id, row.last_used as string | null, now);
  return {
    viewer: {
      userId: id,
      name: String(row.name),
      role: 'handler',
      handlerId: String(row.handler_id),
      client: { id, write: String(row.scope).split(' ').includes('write') },
    },
    familyId: CLIENT_FAMILY_PREFIX + id,
    expiresAt: String(row.expires_at),
    dataVersion: Number(row.data_version),
  };
}

/**
 * "Last used", without a write on every request: written when the stored time is a minute old or more. Best
 * effort: a failed write is not the request's failure.
 */
async function touch(ctx: AppContext, id: string, stored: string | null, now: Date): Promise<void> {
  if (stored && now.getTime() - Date.parse(stored) < 60_000) return;
  await ctx.db
    .updateTable('api_clients')
    .set({ last_used: isoTimestamp(now) })
    .where('id', '=', id)
    .execute()
    .catch(() => undefined);
}

/**
 * Requests per client: a token bucket per process holding a minute's allowance, refilled continuously. Beyond it,
 * 429 with Retry-After (seconds until one request is allowed again). With several server processes each keeps its own.
 */
const buckets = new WeakMap<AppContext['config'], Map<string, { tokens: number; at: number }>>();
function throttle(ctx: AppContext, id: string, nowMs: number): void {
  const perMinute = ctx.config.apiClients.perMinute;
  let map = buckets.get(ctx.config);
  if (!map) {
    map = new Map();
    buckets.set(ctx.config, map);
  }
  const b = map.get(id) ?? { tokens: perMinute, at: nowMs };
  b.tokens = Math.min(perMinute, b.tokens + ((nowMs - b.at) / 60_000) * perMinute);
  b.at = nowMs;
  if (b.tokens < 1) {
    map.set(id, b);
    const wait = Math.max(1, Math.ceil(((1 - b.tokens) / perMinute) * 60));
    throw new ApiError(
      429,
      `This API client sent more than ${perMinute} requests a minute. Try again in ${wait} seconds.`,
      {},
      { 'Retry-After': String(wait) },
    );
  }
  b.tokens -= 1;
  map.set(id, b);
}
