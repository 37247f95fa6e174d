import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { isoTimestamp } from '../lib/time.js';
import { trySendMail } from '../mail/mailer.js';
import { accountUnlockMail } from '../mail/templates.js';
import { pairPrefix, throttleKeys } from '../oauth/throttle.js';
import { ApiError } from '../lib/errors.js';
import { issueAccountToken, useAccountToken } from './account-tokens.js';
import { baseUrl, jsonBody } from './fields.js';
import type { FastifyRequest } from 'fastify';
import { portalDb } from '../db/portal-tables.js';

/**
 * The unlock link: when wrong passwords from anywhere hold a username back (oauth/throttle.ts), its user gets a link
 * by e-mail that clears the username's failures, so a stranger guessing cannot keep the owner out. One live link at
 * a time: further failures while it is valid send no more mail.
 */
export const UNLOCK_TTL_SECONDS = 3600;
const INVALID_LINK =
  'This unlock link is invalid, already used or expired. Wait a few minutes and sign in, or reset your password.';

/** Clears every failure counted against a username (from anywhere and from each address). */
export async function clearUsernameFailures(db: Db, username: string): Promise<void> {
  const prefix = pairPrefix(username);
  await db
    .deleteFrom('login_failures')
    .where((eb) =>
      eb.or([
        eb('throttle_key', '=', throttleKeys(username, '').user),
        eb(sql<string>`substr(throttle_key, 1, ${prefix.length})`, '=', prefix),
      ]),
    )
    .execute();
}

/** After a failed sign-in that holds the username back: mails its user an unlock link, unless one is still live. */
export async function offerUnlock(ctx: AppContext, username: string, log: FastifyBaseLogger): Promise<void> {
  const user = await portalDb(ctx.db)
    .selectFrom('users')
    .select(['id', 'name', 'mail', 'first_name', 'mail_verified_at', 'status'])
    .where(sql<string>`lower(name)`, '=', username.toLowerCase())
    .executeTakeFirst();
  if (!user || user.status !== 'active' || !user.mail || !user.mail_verified_at) return;
  const live = await portalDb(ctx.db)
    .selectFrom('account_tokens')
    .select('token_hash')
    .where('user_id', '=', user.id)
    .where('purpose', '=', 'unlock')
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoTimestamp(ctx.clock.now()))
    .executeTakeFirst();
  if (live) return;
  const token = await issueAccountToken(ctx, ctx.db, {
    userId: user.id,
    purpose: 'unlock',
    mail: null,
    ttlSeconds: UNLOCK_TTL_SECONDS,
  });
  const link = `${baseUrl(ctx.config.publicUrl)}/unlock?token=${encodeURIComponent(token)}`;
  void trySendMail(
    ctx,
    accountUnlockMail({
      to: user.mail,
      name: String(user.first_name),
      username: String(user.name),
      link,
      validMinutes: UNLOCK_TTL_SECONDS / 60,
    }),
    log,
  );
}

/** POST /api/account/unlock {token}: uses up the link and clears the username's failures. */
export async function unlockAccount(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const body = jsonBody(request);
  const db = portalDb(ctx.db);
  await db.transaction().execute(async (trx) => {
    const found = await useAccountToken(ctx, trx, body.token, 'unlock');
    if (!found) throw new ApiError(400, INVALID_LINK);
    const user = await trx.selectFrom('users').select('name').where('id', '=', found.userId).executeTakeFirstOrThrow();
    await clearUsernameFailures(trx, String(user.name));
  });
}
