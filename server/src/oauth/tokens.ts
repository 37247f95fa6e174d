import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { isoTimestamp, newId } from '../lib/time.js';

/** Bearer tokens are 32 random bytes; the database only ever sees their SHA-256, so a leaked backup holds no tokens. */
export const newToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
}

export interface Family {
  id: string;
  userId: string;
  clientId: string;
  scope: string | null;
  /** ISO timestamp; the absolute end of the sign-in, never moved by refreshes. */
  expiresAt: string;
}

interface Ttl {
  access: number;
  refresh: number;
}

const plus = (now: Date, seconds: number): Date => new Date(now.getTime() + seconds * 1000);

/**
 * Adds an access and a refresh token to a family. Neither outlives the family, so the sign-in ends at the family's
 * expiry (the spec's 12-hour auto-logout) however often it is refreshed.
 */
export async function issuePair(db: Db, family: Family, now: Date, accessTtl: number): Promise<TokenPair> {
  const familyEnd = new Date(family.expiresAt);
  const accessEnd = new Date(Math.min(plus(now, accessTtl).getTime(), familyEnd.getTime()));
  const accessToken = newToken();
  const refreshToken = newToken();
  const created = isoTimestamp(now);
  await db
    .insertInto('oauth_access_tokens')
    .values({ token_hash: hashToken(accessToken), family_id: family.id, expires_at: isoTimestamp(accessEnd), created })
    .execute();
  await db
    .insertInto('oauth_refresh_tokens')
    .values({
      token_hash: hashToken(refreshToken),
      family_id: family.id,
      expires_at: family.expiresAt,
      used_at: null,
      created,
    })
    .execute();
  // Timestamps are stored to the second, so count from the stored (truncated) expiry.
  const expiresIn = Math.max(0, Math.floor((new Date(isoTimestamp(accessEnd)).getTime() - now.getTime()) / 1000));
  return { accessToken, refreshToken, expiresIn };
}

/** Where a sign-in came from, as the active-sessions list shows it. */
export interface Device {
  userAgent: string | null;
  address: string | null;
}

const MAX_USER_AGENT = 300;
export const deviceOf = (request: FastifyRequest): Device => {
  const agent = request.headers['user-agent'];
  return {
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, MAX_USER_AGENT) : null,
    address: request.ip || null,
  };
};

/** A new sign-in: one family with its first token pair, written together. */
export async function startFamily(
  db: Db,
  owner: { userId: string; clientId: string; scope: string | null },
  now: Date,
  ttl: Ttl,
  device: Device = { userAgent: null, address: null },
): Promise<TokenPair> {
  const family: Family = { id: newId(), ...owner, expiresAt: isoTimestamp(plus(now, ttl.refresh)) };
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('oauth_token_families')
      .values({
        id: family.id,
        user_id: family.userId,
        client_id: family.clientId,
        scope: family.scope,
        created: isoTimestamp(now),
        expires_at: family.expiresAt,
        revoked_at: null,
        user_agent: device.userAgent,
        address: device.address,
        last_used: isoTimestamp(now),
      })
      .execute();
    return issuePair(trx, family, now, ttl.access);
  });
}

/** Ends a sign-in: every access and refresh token of the family stops working at once (they are checked through it). */
export async function revokeFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await db
    .updateTable('oauth_token_families')
    .set({ revoked_at: isoTimestamp(now) })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every sign-in of a user, e.g. on deactivation or a password change. */
export async function revokeUserFamilies(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('oauth_token_families')
    .set({ revoked_at: isoTimestamp(now) })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The family a token (refresh or access, given as plain text) belongs to, whatever its state; for revocation. */
export async function familyOfToken(db: Db, token: string, hint: string | undefined): Promise<string | null> {
  const hash = hashToken(token);
  const tables =
    hint === 'access_token'
      ? (['oauth_access_tokens', 'oauth_refresh_tokens'] as const)
      : (['oauth_refresh_tokens', 'oauth_access_tokens'] as const);
  for (const table of tables) {
    const row = await db.selectFrom(table).select('family_id').where('token_hash', '=', hash).executeTakeFirst();
    if (row) return row.family_id as string;
  }
  return null;
}

/**
 * Deletes a user's ended sign-ins and their tokens. Run at each sign-in so the token tables stay proportional to the
 * live sessions without a separate clean-up job; it only touches rows of one user, through indexed columns.
 */
export async function pruneUserFamilies(db: Db, userId: string, now: Date): Promise<void> {
  const ended = db
    .selectFrom('oauth_token_families')
    .select('id')
    .where('user_id', '=', userId)
    .where('expires_at', '<=', isoTimestamp(now));
  await db.deleteFrom('oauth_access_tokens').where('family_id', 'in', ended).execute();
  await db.deleteFrom('oauth_refresh_tokens').where('family_id', 'in', ended).execute();
  await db.deleteFrom('oauth_token_families').where('id', 'in', ended).execute();
}
