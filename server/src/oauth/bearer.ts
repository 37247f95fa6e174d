import type { FastifyRequest } from 'fastify';
import { CompiledQuery, sql } from 'kysely';
import type { AppContext, Viewer } from '../context.js';
import type { Db } from '../db/database.js';
import { isoTimestamp, systemClock } from '../lib/time.js';
import { CLIENT_TOKEN_PREFIX, findClientSession } from '../api-clients/clients.js';
import { hashToken, revokeUserFamilies } from './tokens.js';
import { ApiError } from '../lib/errors.js';

/** A checked access token: who it belongs to, and when it stops working. */
export interface Session {
  viewer: Viewer;
  familyId: string;
  /** ISO timestamp of the access token's expiry. */
  expiresAt: string;
  /** The database's data version when the token was checked (db/data-version.ts): what a kept document is valid for. */
  dataVersion: number;
}

const unauthorized = (detail: string) => new ApiError(401, detail, {}, { 'WWW-Authenticate': 'Bearer' });

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 7235), or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.authorization ?? '');
  return match ? match[1] : null;
}

// Stand-ins for the two values that change between requests, replaced in the compiled query's parameters.
const TOKEN_HASH = '\u0000token-hash';
const NOW = '\u0000now';

/** The session query, compiled once per database: building and compiling it was a visible share of a small read. */
const sessionQueries = new WeakMap<Db, CompiledQuery>();
function sessionQuery(db: Db): CompiledQuery {
  let query = sessionQueries.get(db);
  if (!query) {
    query = db
      .selectFrom('oauth_access_tokens as a')
      .innerJoin('oauth_token_families as f', 'f.id', 'a.family_id')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select(['a.expires_at', 'f.id as family_id', 'u.id as user_id', 'u.name', 'u.role', 'u.handler_id'])
      // Read before anything the request reads, so a document built now is at least as new as this version.
      .select(sql<number>`(select version from data_version where id = 1)`.as('data_version'))
      .where('a.token_hash', '=', TOKEN_HASH)
      .where('a.expires_at', '>', NOW)
      .where('f.expires_at', '>', NOW)
      .where('f.revoked_at', 'is', null)
      .where('u.status', '=', 'active')
      .compile();
    sessionQueries.set(db, query);
  }
  return query;
}

interface SessionRow {
  expires_at: string;
  family_id: string;
  user_id: string;
  name: string;
  role: string;
  handler_id: string | null;
  data_version: number;
}

/**
 * Looks up an access token in one query: the token, its family (not revoked, not past its absolute expiry) and its
 * user (still active). Revoking the family or blocking the user therefore ends the session at the next request.
 * `db` is where a person's token is read (the server's connection unless a read is sent beside a write).
 */
export async function findSession(ctx: AppContext, token: string, db: Db = ctx.db): Promise<Session | null> {
  // An API client's token (docs/API-CLIENTS.md); it is also throttled per client there (429), and its "last used"
  // written: always on the server's connection.
  if (token.startsWith(CLIENT_TOKEN_PREFIX)) return findClientSession(ctx, token);
  const now = isoTimestamp(ctx.clock.now());
  const hash = hashToken(token);
  const query = sessionQuery(db);
  const parameters = query.parameters.map((p) => (p === TOKEN_HASH ? hash : p === NOW ? now : p));
  const row = (await db.executeQuery<SessionRow>(CompiledQuery.raw(query.sql, parameters))).rows[0];
  if (!row) return null;
  const role: Viewer['role'] = row.role === 'staff' ? 'staff' : 'handler';
  return {
    viewer: {
      userId: row.user_id,
      name: row.name,
      role,
      handlerId: role === 'staff' ? null : (row.handler_id ?? null),
    },
    familyId: row.family_id,
    expiresAt: row.expires_at,
    dataVersion: Number(row.data_version),
  };
}

/** The viewer behind the request's bearer token; throws 401 with `WWW-Authenticate: Bearer` otherwise. */
export async function authenticate(ctx: AppContext, request: FastifyRequest, allowClients = false): Promise<Viewer> {
  return (await authenticateSession(ctx, request, allowClients)).viewer;
}

/**
 * The session behind the bearer token. API clients are let in only where the caller says so (`allowClients`: the
 * JSON:API, subrequests, analytics, /oauth/debug); the account and council endpoints are a person's.
 */
export async function authenticateSession(
  ctx: AppContext,
  request: FastifyRequest,
  allowClients = false,
  /** Where a person's session is read: the reader threads for a read during a write transaction (jsonapi/routes.ts). */
  db: Db = ctx.db,
): Promise<Session> {
  const token = bearerToken(request);
  if (!token) throw unauthorized('Sign in: this request needs an access token (Authorization: Bearer).');
  const session = await findSession(ctx, token, db);
  if (!session) throw unauthorized('The access token is invalid or has expired.');
  if (session.viewer.client && !allowClients) {
    throw new ApiError(
      403,
      'API clients use the JSON:API (/jsonapi, /subrequests); this endpoint is for people signed in.',
    );
  }
  return session;
}

/** Ends every session of a user at once (deactivation, password change). */
export async function revokeUserSessions(db: Db, userId: string, now: Date = systemClock.now()): Promise<void> {
  await revokeUserFamilies(db, userId, now);
}
