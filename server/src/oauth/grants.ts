import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { offerUnlock } from '../accounts/unlock.js';
import type { AppContext } from '../context.js';
import { isoTimestamp } from '../lib/time.js';
import { hashPassword, MAX_PASSWORD_LENGTH, needsRehash, verifyPassword } from '../users/passwords.js';
import { authenticateClient, type OAuthClient } from './clients.js';
import { accountPending, invalidClient, invalidGrant, OAuthError } from './errors.js';
import { clientCredentials, formParams, required, type ClientCredentials, type Params } from './params.js';
import { authenticateApiClient, CLIENT_SCOPES, issueClientToken, type ClientScope } from '../api-clients/clients.js';
import { checkSecondFactor } from './second-factor.js';
import {
  attemptFailed,
  attemptSucceeded,
  attemptUndecided,
  beginAttempt,
  throttleKeys,
  type ThrottleSettings,
} from './throttle.js';
import {
  deviceOf,
  hashToken,
  issuePair,
  pruneUserFamilies,
  revokeFamily,
  startFamily,
  type Family,
  type TokenPair,
} from './tokens.js';

/** The body of a successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  token_type: 'Bearer';
  access_token: string;
  expires_in: number;
  refresh_token: string;
  scope?: string;
  /** Only on the sign-in that finishes a staff user's authenticator set-up: their ten recovery codes, shown once. */
  recovery_codes?: string[];
}

const MAX_USERNAME_LENGTH = 255;
const BAD_CREDENTIALS = 'The user credentials were incorrect.';
const BAD_REFRESH = 'The refresh token is invalid, expired or revoked.';

const respond = (pair: TokenPair, scope: string | null): TokenResponse => ({
  token_type: 'Bearer',
  access_token: pair.accessToken,
  expires_in: pair.expiresIn,
  refresh_token: pair.refreshToken,
  ...(scope ? { scope } : {}),
});

const throttleSettings = (ctx: AppContext): ThrottleSettings => ({
  maxFailures: ctx.config.loginMaxFailures,
  lockoutSeconds: ctx.config.loginLockoutSeconds,
});

/** POST /oauth/token: dispatches on grant_type after authenticating the client. */
export async function tokenGrant(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<TokenResponse | ClientTokenResponse> {
  const params = formParams(request);
  const grantType = required(params, 'grant_type');
  if (grantType !== 'password' && grantType !== 'refresh_token' && grantType !== 'client_credentials') {
    throw new OAuthError(400, 'unsupported_grant_type', `The grant type ${grantType} is not supported.`);
  }
  const credentials = clientCredentials(request, params);
  if (grantType === 'client_credentials') return clientCredentialsGrant(ctx, params, credentials);
  const client = await authenticateClient(ctx.db, credentials.clientId, credentials.secret).catch((error: unknown) => {
    throw error instanceof OAuthError && credentials.viaBasic ? invalidClient({ 'WWW-Authenticate': 'Basic' }) : error;
  });
  return grantType === 'password' ? passwordGrant(ctx, request, params, client) : refreshGrant(ctx, params, client);
}

/**
 * A wrong password or an unknown name is answered no sooner than this after the password check began. An account
 * still on an old hash (scrypt, about 95 ms, until its owner next signs in) would otherwise answer a wrong password
 * later than an unknown name (Argon2id, about 11 ms) and so tell that the name exists. Above scrypt's cost on a busy
 * machine; it also slows guessing. A right password is never held back.
 */
const FAILED_CHECK_MIN_MS = 250;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
async function passwordGrant(
  ctx: AppContext,
  request: FastifyRequest,
  params: Params,
  client: OAuthClient,
): Promise<TokenResponse> {
  const username = required(params, 'username');
  const password = required(params, 'password');
  const scope = params('scope') ?? null;
  if (username.length > MAX_USERNAME_LENGTH || password.length > MAX_PASSWORD_LENGTH)
    throw invalidGrant(BAD_CREDENTIALS);

  const now = ctx.clock.now();
  const keys = throttleKeys(username, request.ip);
  const attempt = await beginAttempt(ctx.db, keys, throttleSettings(ctx), now);
  if (attempt.retryAfter > 0) {
    throw new OAuthError(
      429,
      'too_many_requests',
      `Too many failed sign-in attempts. Try again in ${attempt.retryAfter} seconds.`,
      { 'Retry-After': String(attempt.retryAfter) },
    );
  }
  // Usernames are unique whatever their case (migration 008), so "Alice" signs in as alice.
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'pass_hash', 'status', 'role'])
    .where(sql<string>`lower(name)`, '=', username.toLowerCase())
    .executeTakeFirst();
  // An unknown user still costs a full Argon2id check (verifyPassword's dummy path), so timing does not reveal who
  // exists.
  const checkStarted = performance.now();
  const matches = await verifyPassword(password, user?.pass_hash);
  if (!user || !matches) {
    await attemptFailed(ctx.db, throttleSettings(ctx), now);
    if (user && attempt.userHeldBack) await offerUnlock(ctx, username, request.log);
    await sleep(FAILED_CHECK_MIN_MS - (performance.now() - checkStarted));
    throw invalidGrant(BAD_CREDENTIALS);
  }
  // Only someone who knows the password learns that the account is blocked, or still waits for the council.
  if (user.status !== 'active') {
    await attemptSucceeded(ctx.db, keys, attempt);
    if (user.status === 'pending') throw accountPending();
    throw invalidGrant('The user account is blocked.');
  }
  let recoveryCodes: string[] | undefined;
  if (user.role === 'staff') {
    const factor = await checkSecondFactor(ctx.db, params, user.id, now);
    if (factor.kind === 'missing') await attemptUndecided(ctx.db, attempt);
    if (factor.kind === 'wrong') await attemptFailed(ctx.db, throttleSettings(ctx), now);
    if (factor.kind !== 'ok') throw factor.error;
    recoveryCodes = factor.recoveryCodes;
  }
  await attemptSucceeded(ctx.db, keys, attempt);
  if (needsRehash(user.pass_hash)) await rehash(ctx, request, user.id, user.pass_hash, password);
  await pruneUserFamilies(ctx.db, user.id, now);
  const ttl = { access: ctx.config.accessTokenTtl, refresh: ctx.config.refreshTokenTtl };
  const pair = await startFamily(ctx.db, { userId: user.id, clientId: client.id, scope }, now, ttl, deviceOf(request));
  return { ...respond(pair, scope), ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) };
}

/**
 * Replaces an old (scrypt) or weaker hash with one of today's, once the password is known to be right. Only if the
 * row still holds the hash that was checked, so a password changed meanwhile is not overwritten with the old one.
 * Best effort: a failure is logged and the sign-in goes on, since the old hash still verifies.
 */
async function rehash(
  ctx: AppContext,
  request: FastifyRequest,
  userId: string,
  checked: string,
  password: string,
): Promise<void> {
  try {
    await ctx.db
      .updateTable('users')
      .set({ pass_hash: await hashPassword(password) })
      .where('id', '=', userId)
      .where('pass_hash', '=', checked)
      .execute();
  } catch (error) {
    request.log.warn({ err: error, userId }, 'password rehash failed; the old hash stays');
  }
}

/**
 * Rotates a refresh token. The token is marked used with a conditional update, so of two requests presenting the
 * same token only one wins; the other, like any replay of a used token, is treated as theft and ends the whole family.
 */
async function refreshGrant(ctx: AppContext, params: Params, client: OAuthClient): Promise<TokenResponse> {
  const token = required(params, 'refresh_token');
  const now = ctx.clock.now();
  const at = isoTimestamp(now);
  const row = await ctx.db
    .selectFrom('oauth_refresh_tokens as r')
    .innerJoin('oauth_token_families as f', 'f.id', 'r.family_id')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select([
      'r.token_hash',
      'r.used_at',
      'f.id',
      'f.user_id',
      'f.client_id',
      'f.scope',
      'f.expires_at',
      'f.revoked_at',
      'u.status',
    ])
    .where('r.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  // A token bound to another client is treated as unknown (RFC 6749 §6).
  if (!row || row.client_id !== client.id) throw invalidGrant(BAD_REFRESH);
  if (row.revoked_at !== null || row.expires_at <= at || row.status !== 'active') throw invalidGrant(BAD_REFRESH);
  const family: Family = {
    id: row.id,
    userId: row.user_id,
    clientId: row.client_id,
    scope: row.scope,
    expiresAt: row.expires_at,
  };

  const pair = await ctx.db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('oauth_refresh_tokens')
      .set({ used_at: at })
      .where('token_hash', '=', row.token_hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) return null;
    // The "last used" time of the active-sessions list: refreshes happen every few minutes while a tab is open.
    await trx.updateTable('oauth_token_families').set({ last_used: at }).where('id', '=', family.id).execute();
    return issuePair(trx, family, now, ctx.config.accessTokenTtl);
  });
  if (!pair) {
    await revokeFamily(ctx.db, family.id, now);
    throw invalidGrant(BAD_REFRESH);
  }
  return respond(pair, family.scope);
}

/** The client_credentials answer: an access token only (RFC 6749 §4.4.3: no refresh token). */
export interface ClientTokenResponse {
  token_type: 'Bearer';
  access_token: string;
  expires_in: number;
  scope: ClientScope;
}

/**
 * POST /oauth/token grant_type=client_credentials (RFC 6749 §4.4): an API client of a handler (docs/API-CLIENTS.md)
 * with its id and secret, by HTTP Basic or in the form. `scope` may narrow the client's scope ("read" of a "read
 * write" client); asking for more than it has is invalid_scope.
 */
async function clientCredentialsGrant(
  ctx: AppContext,
  params: Params,
  credentials: ClientCredentials,
): Promise<ClientTokenResponse> {
  const fail = () => invalidClient(credentials.viaBasic ? { 'WWW-Authenticate': 'Basic' } : {});
  if (!credentials.secret || credentials.secret.length > 200) throw fail();
  const now = ctx.clock.now();
  const client = await authenticateApiClient(ctx.db, credentials.clientId, credentials.secret, now);
  if (!client) throw fail();
  const has = String(client.scope).split(' ');
  const asked = params('scope')
    ?.split(' ')
    .filter((s) => s !== '');
  if (asked && asked.some((s) => !has.includes(s))) {
    throw new OAuthError(
      400,
      'invalid_scope',
      `This client's scope is "${String(client.scope)}"; it cannot have "${asked.join(' ')}".`,
    );
  }
  const scope = (asked && !asked.includes('write') ? 'read' : client.scope) as ClientScope;
  if (!CLIENT_SCOPES.includes(scope)) throw fail();
  const issued = await issueClientToken(ctx.db, String(client.id), scope, now, ctx.config.apiClients.tokenTtl);
  return { token_type: 'Bearer', access_token: issued.token, expires_in: issued.expiresIn, scope };
}
