import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { MailMessage } from '../mail/mailer.js';
import { recordAudit, type AuditActor } from '../audit/log.js';
import { isoTimestamp } from '../lib/time.js';
import { trySendMail } from '../mail/mailer.js';
import { passwordResetMail } from '../mail/templates.js';
import { hashToken, newToken } from '../oauth/tokens.js';
import { revokeUserSessions } from '../oauth/bearer.js';
import { ApiError } from '../lib/errors.js';
import { activeUserByVerifiedMail } from '../users/identity.js';
import { hashPassword, passwordPolicyProblem } from '../users/passwords.js';
import { baseUrl, emailField, invalid, tooMany, type Body, type FieldProblem } from './fields.js';
import { rateKey, takeRateSlot } from './rate-limit.js';
import type { RequestContext } from './requests.js';
import { clearUsernameFailures } from './unlock.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * Forgotten passwords: a single-use link by e-mail, valid for an hour. Only the SHA-256 of the link's token is
 * stored, as for OAuth tokens. Asking answers the same, after the same work, whether or not the address is known.
 * The link goes only to the verified address of exactly one active user (users/identity.ts).
 */
export const RESET_TTL_SECONDS = 3600;
const HOUR = 3600;
/** Mails one address may receive per hour, whoever asks: more are silently not sent. */
const MAILS_PER_ADDRESS_PER_HOUR = 3;
const MAX_TOKEN_LENGTH = 200;
const INVALID_LINK = 'This password reset link is invalid or has expired: ask for a new one.';

/** POST /api/password-reset {email}. */
export async function requestPasswordReset(ctx: AppContext, req: RequestContext, body: Body): Promise<void> {
  const problems: FieldProblem[] = [];
  const email = emailField(body, problems);
  if (email === null) throw invalid(problems);
  const now = ctx.clock.now();
  const wait = await takeRateSlot(
    ctx.db,
    { key: rateKey('reset-ip', req.ip), limit: ctx.config.passwordResetsPerHour, windowSeconds: HOUR },
    now,
  );
  if (wait > 0) throw tooMany('Too many password reset requests from your network.', wait);
  // Counted for every address, known or not, so the answer cannot tell them apart; over the limit, no mail goes out.
  const mailAllowed =
    (await takeRateSlot(
      ctx.db,
      { key: rateKey('reset-mail', email), limit: MAILS_PER_ADDRESS_PER_HOUR, windowSeconds: HOUR },
      now,
    )) === 0;

  // Exactly one active user whose address is verified (users/identity.ts), or nobody: an address someone typed
  // but never confirmed gets no link.
  const { user } = await activeUserByVerifiedMail(ctx.db, email);
  if (!user || !mailAllowed) {
    hashToken(newToken()); // the same work either way
    return;
  }
  const message = await issuePasswordResetLink(ctx, ctx.db, {
    id: user.id as string,
    mail: user.mail as string,
    first_name: String(user.first_name),
  });
  // Not awaited: the answer must not wait for the mail server, or its timing would tell that the address is known.
  void trySendMail(ctx, message, req.log);
}

/**
 * Makes a single-use reset link for a user and returns the e-mail that carries it (the caller sends it once its
 * transaction has committed). Used by the public forgot-password flow and by council staff (council/users.ts).
 */
export async function issuePasswordResetLink(
  ctx: AppContext,
  db: Db,
  user: { id: string; mail: string | null; first_name: string },
  actor: AuditActor = null,
): Promise<MailMessage> {
  const now = ctx.clock.now();
  const token = newToken();
  await db
    .insertInto('password_reset_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: user.id,
      created: isoTimestamp(now),
      expires_at: isoTimestamp(new Date(now.getTime() + RESET_TTL_SECONDS * 1000)),
      used_at: null,
    })
    .execute();
  // Tidy up: this user's links that ended long ago.
  await db
    .deleteFrom('password_reset_tokens')
    .where('user_id', '=', user.id)
    .where('expires_at', '<=', isoTimestamp(new Date(now.getTime() - 24 * HOUR * 1000)))
    .execute();
  if (actor)
    await recordAudit(db, ctx.clock, actor, {
      type: 'users',
      id: user.id,
      action: 'password_reset_sent',
      before: null,
      after: { mail: user.mail },
    });
  const link = `${baseUrl(ctx.config.publicUrl)}/resetpassword?token=${encodeURIComponent(token)}`;
  return passwordResetMail({
    to: user.mail as string,
    name: user.first_name,
    link,
    validMinutes: RESET_TTL_SECONDS / 60,
  });
}

/**
 * POST /api/password-reset/confirm {token, password}: sets the password, uses up the link (and every other link of
 * the user), ends every session of the user and clears the user's failed sign-ins, all in one transaction.
 */
export async function confirmPasswordReset(ctx: AppContext, body: Body): Promise<void> {
  const token = body.token;
  if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH)
    throw new ApiError(400, INVALID_LINK);
  const tokenHash = hashToken(token);
  const now = ctx.clock.now();
  const at = isoTimestamp(now);
  const found = await portalDb(ctx.db)
    .selectFrom('password_reset_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.user_id', 'u.name'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', at)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  if (!found) throw new ApiError(400, INVALID_LINK);

  const password = body.password;
  if (typeof password !== 'string' || password === '')
    throw invalid([{ field: 'password', detail: 'A new password is required.' }]);
  const weak = passwordPolicyProblem(password);
  if (weak) throw invalid([{ field: 'password', detail: weak }]);
  const passHash = await hashPassword(password);

  const db = portalDb(ctx.db);
  await db.transaction().execute(async (trx) => {
    // The conditional update makes the link single-use even when two confirmations race.
    const used = await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new ApiError(400, INVALID_LINK);
    await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: at })
      .where('user_id', '=', found.user_id)
      .where('used_at', 'is', null)
      .execute();
    await trx.updateTable('users').set({ pass_hash: passHash, changed: at }).where('id', '=', found.user_id).execute();
    await recordAudit(trx, ctx.clock, null, {
      type: 'users',
      id: found.user_id,
      action: 'password_change',
      before: null,
      after: { changed: at },
    });
    await revokeUserSessions(trx, found.user_id, now);
    await clearUsernameFailures(trx, String(found.name));
  });
}
