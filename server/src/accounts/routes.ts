import { changeOwnPassword } from './password-change.js';
import { confirmEmail, requestEmailChange } from './email-change.js';
import { unlockAccount } from './unlock.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { staffViewer } from '../council/http.js';
import { jsonBody } from './fields.js';
import { confirmPasswordReset, requestPasswordReset } from './password-reset.js';
import { endOwnSession, listOwnSessions } from './sessions.js';
import { badId, decideAccount, listPendingAccounts, refusalReason, requestAccount } from './requests.js';

/**
 * Self-service account endpoints (plain JSON in and out; errors are JSON:API error documents):
 * - POST /api/account-requests: sign-up, 202 {status:'pending'}; council staff decide under
 * /api/council/account-requests.
 * - POST /api/password-reset and /api/password-reset/confirm: the forgotten-password link.
 * - POST /api/account/email and /api/account/email/confirm: change one's own e-mail address (email-change.ts).
 * - POST /api/account/unlock: the link mailed when wrong passwords hold a username back (unlock.ts).
 * - POST /api/account/password: change one's own password; GET /api/account/sessions and
 *   DELETE /api/account/sessions/:id: one's active sessions (sessions.ts).
 */
const pathId = (request: FastifyRequest): string => {
  const id = String((request.params as { id: string }).id);
  const bad = badId(id);
  if (bad) throw bad;
  return id;
};

const requestContext = (request: FastifyRequest) => ({ ip: request.ip, log: request.log });

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/account-requests', async (request, reply) => {
    await requestAccount(ctx, requestContext(request), jsonBody(request));
    return reply.code(202).send({ status: 'pending' });
  });

  app.post('/api/account/password', async (request, reply) => {
    await changeOwnPassword(ctx, request);
    return reply.code(204).send();
  });

  app.post('/api/account/email', async (request, reply) =>
    reply.code(202).send(await requestEmailChange(ctx, request)),
  );
  app.post('/api/account/unlock', async (request, reply) => {
    await unlockAccount(ctx, request);
    return reply.code(204).send();
  });
  app.post('/api/account/email/confirm', async (request) => confirmEmail(ctx, request));
  app.get('/api/account/sessions', async (request) => ({ data: await listOwnSessions(ctx, request) }));
  app.delete('/api/account/sessions/:id', async (request, reply) => {
    await endOwnSession(ctx, request);
    return reply.code(204).send();
  });

  app.post('/api/password-reset', async (request, reply) => {
    await requestPasswordReset(ctx, requestContext(request), jsonBody(request));
    return reply.code(202).send({ status: 'accepted' });
  });
  app.post('/api/password-reset/confirm', async (request, reply) => {
    await confirmPasswordReset(ctx, jsonBody(request));
    return reply.code(204).send();
  });
}

/** Council staff decide account requests: paths under the council prefix, whose hook lets in only staff. */
export function registerAccountRequestRoutes(council: FastifyInstance, ctx: AppContext): void {
  council.get('/account-requests', async () => ({ data: await listPendingAccounts(ctx) }));
  council.post('/account-requests/:id/approve', async (request) =>
    decideAccount(ctx, requestContext(request), pathId(request), { approve: true }, staffViewer(request)),
  );
  council.post('/account-requests/:id/refuse', async (request) => {
    const reason = refusalReason(jsonBody(request, true));
    const viewer = staffViewer(request);
    return decideAccount(ctx, requestContext(request), pathId(request), { approve: false, reason }, viewer);
  });
}
