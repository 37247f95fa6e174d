import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { recordAudit } from '../audit/log.js';
import { isoTimestamp } from '../lib/time.js';
import { authenticateSession } from '../oauth/bearer.js';
import { ApiError } from '../lib/errors.js';
import { hashPassword, passwordPolicyProblem, verifyPassword } from '../users/passwords.js';
import { portalDb } from '../db/portal-tables.js';

const fieldError = (field: string, detail: string) =>
  ApiError.many(422, [{ detail, source: { pointer: `/data/attributes/${field}` } }]);

/**
 * POST /api/account/password {current_password, new_password}: a signed-in user changes their password. The
 * current password is asked again (a token left on a shared computer is not enough), and every other session of the
 * user ends; the one that made the change stays signed in.
 */
export async function changeOwnPassword(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const session = await authenticateSession(ctx, request);
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
    string,
    unknown
  >;
  const current = typeof body.current_password === 'string' ? body.current_password : '';
  const next = typeof body.new_password === 'string' ? body.new_password : '';
  const weak = passwordPolicyProblem(next);
  if (weak) throw fieldError('new_password', weak);
  const user = await portalDb(ctx.db)
    .selectFrom('users')
    .select(['id', 'pass_hash'])
    .where('id', '=', session.viewer.userId)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(current, user.pass_hash)))
    throw fieldError('current_password', 'The current password is not right.');
  if (await verifyPassword(next, user.pass_hash))
    throw fieldError('new_password', 'Choose a password other than the current one.');
  const passHash = await hashPassword(next);
  const now = ctx.clock.now();
  const db = portalDb(ctx.db);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ pass_hash: passHash }).where('id', '=', user.id).execute();
    await trx
      .updateTable('oauth_token_families')
      .set({ revoked_at: isoTimestamp(now) })
      .where('user_id', '=', user.id)
      .where('id', '<>', session.familyId)
      .where('revoked_at', 'is', null)
      .execute();
    await recordAudit(trx, ctx.clock, session.viewer, {
      type: 'users',
      id: String(user.id),
      action: 'password_change',
      before: null,
      after: { changed: isoTimestamp(now) },
    });
  });
}
