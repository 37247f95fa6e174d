import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { isoTimestamp } from '../lib/time.js';
import { hashToken, newToken } from '../oauth/tokens.js';

/**
 * Single-use links mailed to a user (account_tokens, migration 008), kept as SHA-256 hashes like OAuth tokens:
 * `email` confirms an address (a sign-up's, or a new one the user asked for, held in `mail` until then), `unlock`
 * lifts a sign-in slowdown (oauth/throttle.ts). Issuing one ends the user's earlier unused links of that purpose.
 */
export type AccountTokenPurpose = 'email' | 'unlock';
export const MAX_TOKEN_LENGTH = 200;

export async function issueAccountToken(
  ctx: AppContext,
  db: Db,
  p: { userId: string; purpose: AccountTokenPurpose; mail: string | null; ttlSeconds: number },
): Promise<string> {
  const now = ctx.clock.now();
  const token = newToken();
  const at = isoTimestamp(now);
  await db
    .updateTable('account_tokens')
    .set({ used_at: at })
    .where('user_id', '=', p.userId)
    .where('purpose', '=', p.purpose)
    .where('used_at', 'is', null)
    .execute();
  // Tidy up: this user's links that ended a day ago or more.
  await db
    .deleteFrom('account_tokens')
    .where('user_id', '=', p.userId)
    .where('expires_at', '<=', isoTimestamp(new Date(now.getTime() - 24 * 3600 * 1000)))
    .execute();
  await db
    .insertInto('account_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: p.userId,
      purpose: p.purpose,
      mail: p.mail,
      created: at,
      expires_at: isoTimestamp(new Date(now.getTime() + p.ttlSeconds * 1000)),
      used_at: null,
    })
    .execute();
  return token;
}

/**
 * Uses up a link: answers its user and address when it is ours, of this purpose, unused and unexpired, else null.
 * The conditional update makes it single-use even when two requests race; run it in the transaction that acts on it.
 */
export async function useAccountToken(
  ctx: AppContext,
  db: Db,
  token: unknown,
  purpose: AccountTokenPurpose,
): Promise<{ userId: string; mail: string | null } | null> {
  if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) return null;
  const at = isoTimestamp(ctx.clock.now());
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('account_tokens')
    .select(['user_id', 'mail'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (!row) return null;
  const used = await db
    .updateTable('account_tokens')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return null;
  return { userId: row.user_id as string, mail: (row.mail ?? null) as string | null };
}
