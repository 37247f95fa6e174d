import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { invalid, jsonBody, baseUrl, type FieldProblem } from '../accounts/fields.js';
import { WEB_CLIENT_ID } from '../oauth/clients.js';
import type { TokenResponse } from '../oauth/grants.js';
import { deviceOf, pruneUserFamilies, startFamily } from '../oauth/tokens.js';
import { forbidden, notFound } from '../lib/errors.js';
import { activeUserByVerifiedMail } from '../users/identity.js';
import { emailOf, exchangeCode, providerFor, verifyIdToken } from './provider.js';

/**
 * Single sign-on with an OpenID Connect provider (authorization code with PKCE; the browser keeps the verifier and
 * checks the state it made). The provider only proves an e-mail address: it signs in the active portal user with
 * that address and never creates an account.
 */
export const SSO_CALLBACK_PATH = '/auth0loginCallback';
export const SSO_SCOPE = 'openid profile email';
export const NO_ACCOUNT = 'No portal account uses this e-mail address; ask the council to create one.';
export const UNVERIFIED =
  "Your portal account's e-mail address is not confirmed yet: open the link the portal mailed to it, or sign in with your username and password.";
/**
 * Council staff always sign in with their password and authenticator code: the portal cannot tell whether the
 * provider checked a second factor, so single sign-on is refused for staff (docs/SECURITY.md).
 */
export const STAFF_USE_PASSWORD =
  'Council staff sign in with their username, password and authenticator code, not with single sign-on.';

const redirectUriOf = (ctx: AppContext): string => `${baseUrl(ctx.config.publicUrl)}${SSO_CALLBACK_PATH}`;

/** RFC 7636 §4.1. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

interface CallbackInput {
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

function callbackInput(ctx: AppContext, request: FastifyRequest): CallbackInput {
  const body = jsonBody(request);
  const problems: FieldProblem[] = [];
  const text = (field: string, max: number): string | null => {
    const v = body[field];
    if (typeof v !== 'string' || v === '' || v.length > max) {
      problems.push({ field, detail: `${field} is required: the value the provider sent back to the sign-in page.` });
      return null;
    }
    return v;
  };
  const code = text('code', 4096);
  text('state', 1024);
  const verifier = body.code_verifier;
  if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) {
    problems.push({
      field: 'code_verifier',
      detail: 'code_verifier must be the PKCE verifier: 43 to 128 letters, digits or -._~.',
    });
  }
  const redirectUri = body.redirect_uri === undefined ? redirectUriOf(ctx) : body.redirect_uri;
  if (redirectUri !== redirectUriOf(ctx)) {
    problems.push({
      field: 'redirect_uri',
      detail: `redirect_uri must be ${redirectUriOf(ctx)}, the address GET /api/sso/config gives.`,
    });
  }
  if (problems.length > 0) throw invalid(problems);
  return { code: code as string, codeVerifier: verifier as string, redirectUri: redirectUri as string };
}

async function callback(ctx: AppContext, request: FastifyRequest): Promise<TokenResponse> {
  const config = ctx.config.oidc;
  if (!config) throw notFound('Single sign-on is not configured on this portal.');
  const input = callbackInput(ctx, request);
  const provider = await providerFor(config, request.log);
  const answer = await exchangeCode(config, provider, input, request.log);
  const now = ctx.clock.now();
  const claims = await verifyIdToken(config, provider, answer.id_token as string, now, request.log);
  const { email, verified } = await emailOf(config, provider, claims, answer.access_token, request.log);
  if (!email)
    throw forbidden(`${config.label} did not tell the portal your e-mail address, so it cannot find your account.`);
  if (verified === false)
    throw forbidden(`${config.label} has not verified your e-mail address ${email}; verify it there first.`);

  // Exactly one active user whose portal address is verified (users/identity.ts); otherwise a clear refusal.
  const { user, pending, unverified } = await activeUserByVerifiedMail(ctx.db, email);
  if (!user) {
    if (unverified) throw forbidden(UNVERIFIED);
    if (pending) throw forbidden("Your account request is still waiting for the council's approval.");
    throw forbidden(NO_ACCOUNT);
  }
  if (user.role === 'staff') throw forbidden(STAFF_USE_PASSWORD);
  request.log.info({ userId: user.id }, 'single sign-on');
  await pruneUserFamilies(ctx.db, user.id, now);
  const pair = await startFamily(
    ctx.db,
    { userId: user.id, clientId: WEB_CLIENT_ID, scope: null },
    now,
    { access: ctx.config.accessTokenTtl, refresh: ctx.config.refreshTokenTtl },
    deviceOf(request),
  );
  return {
    token_type: 'Bearer',
    access_token: pair.accessToken,
    expires_in: pair.expiresIn,
    refresh_token: pair.refreshToken,
  };
}

export function registerSsoRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/sso/config', async (request) => {
    const config = ctx.config.oidc;
    if (!config) return { enabled: false };
    const provider = await providerFor(config, request.log);
    return {
      enabled: true,
      label: config.label,
      authorizeUrl: provider.discovery.authorization_endpoint,
      clientId: config.clientId,
      scope: SSO_SCOPE,
      ...(config.audience ? { audience: config.audience } : {}),
      redirectUri: redirectUriOf(ctx),
    };
  });
  app.post('/api/sso/callback', async (request, reply) => {
    // Tokens must never be cached (RFC 6749 §5.1), errors included.
    reply.header('Cache-Control', 'no-store');
    reply.header('Pragma', 'no-cache');
    return callback(ctx, request);
  });
}
