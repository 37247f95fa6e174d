import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { recordAudit } from '../audit/log.js';
import { isoTimestamp } from '../lib/time.js';
import { trySendMail } from '../mail/mailer.js';
import { confirmEmailChangeMail, emailChangeNoticeMail } from '../mail/templates.js';
import { authenticateSession } from '../oauth/bearer.js';
import { ApiError, conflict } from '../lib/errors.js';
import { isUniqueViolation, mailProblem, normalEmail } from '../users/identity.js';
import { verifyPassword } from '../users/passwords.js';
import { issueAccountToken, useAccountToken } from './account-tokens.js';
import { baseUrl, invalid, jsonBody, tooMany } from './fields.js';
import { rateKey, takeRateSlot } from './rate-limit.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * Changing one's e-mail address (docs/SECURITY.md, "Identity"): the current password is asked again, and the address
 * changes only when a link mailed to the new address is followed, so nobody can take an address they cannot read;
 * the old address is told at once. The same link confirms a sign-up's address (accounts/requests.ts).
 */
export const EMAIL_LINK_TTL_SECONDS = 48 * 3600;
/** Asks per user and hour, wrong passwords included: a stolen session cannot guess the password here at speed. */
const CHANGES_PER_HOUR = 10;
const INVALID_LINK =
  'This e-mail confirmation link is invalid, already used or expired: ask for a new one on your profile page.';

export const emailConfirmLink = (ctx: AppContext, token: string): string =>
  `${baseUrl(ctx.config.publicUrl)}/confirm-email?token=${encodeURIComponent(token)}`;

/** POST /api/account/email {current_password, new_email}: 202 once the confirmation link is on its way. */
export async function requestEmailChange(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ status: 'confirmation_sent'; email: string }> {
  const session = await authenticateSession(ctx, request);
  const body = jsonBody(request);
  const userId = session.viewer.userId;
  const wait = await takeRateSlot(
    ctx.db,
    { key: rateKey('email-change', userId), limit: CHANGES_PER_HOUR, windowSeconds: 3600 },
    ctx.clock.now(),
  );
  if (wait > 0) throw tooMany('Too many e-mail address changes asked for.', wait);
  const user = await portalDb(ctx.db)
    .selectFrom('users')
    .select(['id', 'name', 'mail', 'pass_hash', 'first_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const current = typeof body.current_password === 'string' ? body.current_password : '';
  if (!(await verifyPassword(current, user.pass_hash))) {
    throw invalid([{ field: 'current_password', detail: 'The current password is not right.' }]);
  }
  const given = typeof body.new_email === 'string' ? normalEmail(body.new_email) : '';
  if (given === '') throw invalid([{ field: 'new_email', detail: 'The new e-mail address is required.' }]);
  if (user.mail && given.toLowerCase() === String(user.mail).toLowerCase()) {
    throw invalid([{ field: 'new_email', detail: 'This is already your e-mail address.' }]);
  }
  const problem = await mailProblem(ctx.db, given, userId);
  if (problem) throw invalid([{ field: 'new_email', detail: problem.detail }]);

  const db = portalDb(ctx.db);
  const token = await db.transaction().execute(async (trx) => {
    const t = await issueAccountToken(ctx, trx, {
      userId,
      purpose: 'email',
      mail: given,
      ttlSeconds: EMAIL_LINK_TTL_SECONDS,
    });
    await recordAudit(trx, ctx.clock, session.viewer, {
      type: 'users',
      id: userId,
      action: 'email_change_requested',
      before: { mail: user.mail },
      after: { mail: given },
    });
    return t;
  });
  const who = { name: String(user.first_name), username: String(user.name) };
  await trySendMail(
    ctx,
    confirmEmailChangeMail({
      to: given,
      ...who,
      link: emailConfirmLink(ctx, token),
      validHours: EMAIL_LINK_TTL_SECONDS / 3600,
    }),
    request.log,
  );
  if (user.mail)
    await trySendMail(ctx, emailChangeNoticeMail({ to: String(user.mail), ...who, newMail: given }), request.log);
  return { status: 'confirmation_sent', email: given };
}

/**
 * POST /api/account/email/confirm {token}: the link from the mail. Needs no sign-in (the link is the proof, and it
 * may be opened on another device); sets the address and marks it verified, in one transaction.
 */
export async function confirmEmail(ctx: AppContext, request: FastifyRequest): Promise<{ email: string }> {
  const body = jsonBody(request);
  try {
    const db = portalDb(ctx.db);
    return await db.transaction().execute(async (trx) => {
      const found = await useAccountToken(ctx, trx, body.token, 'email');
      if (!found || !found.mail) throw new ApiError(400, INVALID_LINK);
      const user = await trx
        .selectFrom('users')
        .select(['id', 'name', 'role', 'mail', 'status', 'mail_verified_at'])
        .where('id', '=', found.userId)
        .executeTakeFirstOrThrow();
      if (user.status !== 'active' && user.status !== 'pending') throw new ApiError(400, INVALID_LINK);
      // Another account may have taken the address since the link was sent.
      if (await mailProblem(trx, found.mail, found.userId))
        throw conflict('Another account uses this e-mail address now, so it cannot become yours.');
      const at = isoTimestamp(ctx.clock.now());
      await trx
        .updateTable('users')
        .set({ mail: found.mail, mail_verified_at: at, changed: at })
        .where('id', '=', found.userId)
        .execute();
      await recordAudit(
        trx,
        ctx.clock,
        { userId: found.userId, name: String(user.name), role: user.role as 'handler' | 'staff' },
        {
          type: 'users',
          id: found.userId,
          action: 'email_confirmed',
          before: { mail: user.mail, mail_verified_at: user.mail_verified_at },
          after: { mail: found.mail, mail_verified_at: at },
        },
      );
      return { email: found.mail };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('Another account uses this e-mail address now, so it cannot become yours.');
    throw error;
  }
}
