import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../lib/errors.js';
import { authenticateSession, bearerToken } from './bearer.js';
import { invalidGrant, invalidRequest, OAuthError } from './errors.js';
import { tokenGrant } from './grants.js';
import { enrollmentKey } from './mfa.js';
import { formParams, required } from './params.js';
import { familyOfToken, revokeFamily } from './tokens.js';

/** Maps anything thrown under /oauth to the OAuth error shape; unexpected errors stay opaque 500s. */
function sendOAuthError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let known: OAuthError;
  if (error instanceof OAuthError) known = error;
  else if (error instanceof ApiError && error.status < 500) {
    const code = error.status === 401 ? 'invalid_token' : 'invalid_request';
    known = new OAuthError(error.status, code, error.message, error.headers);
  } else if ('statusCode' in error && typeof error.statusCode === 'number' && error.statusCode < 500) {
    known = new OAuthError(error.statusCode, 'invalid_request', 'The request could not be read.');
  } else {
    request.log.error({ err: error }, 'oauth request failed');
    known = new OAuthError(
      500,
      'server_error',
      `Something went wrong. Quote request id ${request.id} when reporting it.`,
    );
  }
  for (const [name, value] of Object.entries(known.headers)) reply.header(name, value);
  return reply.code(known.status).type('application/json').send(known.body());
}

/** POST /oauth/revoke (RFC 7009): ends the sign-in the token belongs to. Unknown tokens are not an error. */
async function revoke(ctx: AppContext, request: FastifyRequest): Promise<Record<string, never>> {
  const params = formParams(request);
  const now = ctx.clock.now();
  const token = params('token');
  if (token !== undefined) {
    const familyId = await familyOfToken(ctx.db, token, params('token_type_hint'));
    if (familyId) await revokeFamily(ctx.db, familyId, now);
    return {};
  }
  // Logging out with just the bearer access token the web app already holds.
  if (!bearerToken(request)) throw invalidRequest('The parameter token is required.');
  const session = await authenticateSession(ctx, request).catch(() => null);
  if (session) await revokeFamily(ctx.db, session.familyId, now);
  return {};
}

/**
 * POST /oauth/mfa/enrollment (form: enrollment_token): the key of an open authenticator set-up, as text and as an
 * otpauth:// URI for a QR code. Only while the enrolment is open: once confirmed, the key is never shown again.
 */
async function enrollment(ctx: AppContext, request: FastifyRequest) {
  const key = await enrollmentKey(ctx.db, required(formParams(request), 'enrollment_token'), ctx.clock.now());
  if (!key) throw invalidGrant('The set-up of the authenticator app has expired. Sign in again to start over.');
  return key;
}

/** GET /oauth/debug: who the bearer token belongs to, Drupal simple_oauth style. */
async function debug(ctx: AppContext, request: FastifyRequest) {
  const session = await authenticateSession(ctx, request, true);
  const { viewer } = session;
  return {
    id: viewer.userId,
    name: viewer.name,
    roles: viewer.client ? ['authenticated', 'api_client'] : ['authenticated', viewer.role],
    ...(viewer.client
      ? {
          client_id: viewer.client.id,
          handler_id: viewer.handlerId,
          scope: viewer.client.write ? 'read write' : 'read',
        }
      : {}),
    expires: Math.floor(Date.parse(session.expiresAt) / 1000),
  };
}

export async function registerOAuthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // An encapsulated scope, so the OAuth error shape and HTTP/1.0's Pragma apply here and nowhere else (every data
  // answer already says no-store: plugins/security-headers.ts; set again here so that no route can undo it).
  await app.register(async (scope) => {
    scope.setErrorHandler(sendOAuthError);
    scope.addHook('onSend', (_request, reply, _payload, done) => {
      // Tokens must never be cached (RFC 6749 §5.1), errors included. (`done`, not async: see app.ts.)
      reply.header('Cache-Control', 'no-store');
      reply.header('Pragma', 'no-cache');
      done();
    });
    scope.post('/oauth/token', async (request) => tokenGrant(ctx, request));
    scope.post('/oauth/revoke', async (request) => revoke(ctx, request));
    scope.post('/oauth/mfa/enrollment', async (request) => enrollment(ctx, request));
    scope.get('/oauth/debug', async (request) => debug(ctx, request));
  });
}
