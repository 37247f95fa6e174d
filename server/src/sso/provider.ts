import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { FastifyBaseLogger } from 'fastify';
import type { OidcConfig } from '../config/config.js';
import { ApiError } from '../lib/errors.js';

/**
 * The OpenID Connect relying party, with plain fetch and `jose`: discovery, the authorization-code exchange (client
 * secret plus the browser's PKCE verifier) and ID-token verification (signature by the issuer's JWKS, issuer,
 * audience, expiry).
 */
export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  token_endpoint_auth_methods_supported?: string[];
  id_token_signing_alg_values_supported?: string[];
}

export interface Provider {
  discovery: Discovery;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

const TIMEOUT_MS = 10_000;
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const cache = new Map<string, { until: number; provider: Promise<Provider> }>();

const sameIssuer = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
const unreachable = () =>
  new ApiError(
    503,
    'The single sign-on provider cannot be reached right now. Try again later, or sign in with your password.',
  );

async function discover(config: OidcConfig, log: FastifyBaseLogger): Promise<Provider> {
  const url = `${config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let doc: Partial<Discovery>;
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    doc = (await response.json()) as Partial<Discovery>;
  } catch (err) {
    log.error({ err, url }, 'OpenID discovery failed');
    throw unreachable();
  }
  const missing = (['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const).filter(
    (k) => typeof doc[k] !== 'string',
  );
  if (missing.length > 0 || !sameIssuer(doc.issuer as string, config.issuer)) {
    log.error({ url, missing, issuer: doc.issuer }, 'OpenID discovery document does not fit OIDC_ISSUER');
    throw unreachable();
  }
  const discovery = doc as Discovery;
  return { discovery, jwks: createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: TIMEOUT_MS }) };
}

/** The provider's metadata, fetched once an hour per issuer (a failure is not remembered). */
export async function providerFor(config: OidcConfig, log: FastifyBaseLogger, now = Date.now()): Promise<Provider> {
  const hit = cache.get(config.issuer);
  if (hit && hit.until > now) return hit.provider;
  const provider = discover(config, log);
  cache.set(config.issuer, { until: now + DISCOVERY_TTL_MS, provider });
  provider.catch(() => {
    if (cache.get(config.issuer)?.provider === provider) cache.delete(config.issuer);
  });
  return provider;
}

/** Forgets cached metadata (tests that start a new provider on the same issuer). */
export const forgetProviders = (): void => cache.clear();

export interface CodeExchange {
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

interface TokenEndpointAnswer {
  id_token?: string;
  access_token?: string;
  error?: string;
  error_description?: string;
}

const failed = (config: OidcConfig, why: string) =>
  new ApiError(400, `The sign-in with ${config.label} did not work (${why}). Please start the sign-in again.`);

/** Exchanges the code at the token endpoint, authenticating with the client secret as the provider prefers. */
export async function exchangeCode(
  config: OidcConfig,
  provider: Provider,
  exchange: CodeExchange,
  log: FastifyBaseLogger,
): Promise<TokenEndpointAnswer> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: exchange.code,
    redirect_uri: exchange.redirectUri,
    code_verifier: exchange.codeVerifier,
  });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const methods = provider.discovery.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (!methods.includes('client_secret_basic') && methods.includes('client_secret_post')) {
    form.set('client_id', config.clientId);
    form.set('client_secret', config.clientSecret);
  } else {
    // RFC 6749 §2.3.1: both parts form-urlencoded before base64.
    const basic = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  let response: Response;
  let answer: TokenEndpointAnswer;
  try {
    response = await fetch(provider.discovery.token_endpoint, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    answer = (await response.json().catch(() => ({}))) as TokenEndpointAnswer;
  } catch (err) {
    log.error({ err }, 'OpenID token endpoint unreachable');
    throw unreachable();
  }
  if (!response.ok) {
    log.info(
      { status: response.status, error: answer.error, description: answer.error_description },
      'OpenID code exchange refused',
    );
    if (response.status >= 500) throw unreachable();
    throw failed(config, `the provider refused the code: ${answer.error ?? `HTTP ${response.status}`}`);
  }
  if (typeof answer.id_token !== 'string') throw failed(config, 'the provider sent no identity token');
  return answer;
}

/** Verifies the ID token's signature (by the issuer's JWKS), issuer, audience and times; answers its claims. */
export async function verifyIdToken(
  config: OidcConfig,
  provider: Provider,
  idToken: string,
  now: Date,
  log: FastifyBaseLogger,
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(idToken, provider.jwks, {
      issuer: provider.discovery.issuer,
      audience: config.clientId,
      currentDate: now,
      clockTolerance: 60,
      requiredClaims: ['sub', 'iat', 'exp'],
    });
    // OpenID Connect Core §3.1.3.7: with several audiences, the authorized party must be this client.
    const severalAudiences = Array.isArray(payload.aud) && payload.aud.length > 1;
    if ((severalAudiences || payload.azp !== undefined) && payload.azp !== config.clientId)
      throw new Error('azp is not this client');
    return payload;
  } catch (err) {
    log.info({ err }, 'ID token refused');
    throw failed(config, 'the identity token could not be verified');
  }
}

/** The e-mail address of the signed-in person: from the ID token, or else from the userinfo endpoint. */
export async function emailOf(
  config: OidcConfig,
  provider: Provider,
  claims: JWTPayload,
  accessToken: string | undefined,
  log: FastifyBaseLogger,
): Promise<{ email: string | null; verified: boolean | null }> {
  let source: Record<string, unknown> = claims;
  if (typeof claims.email !== 'string' && provider.discovery.userinfo_endpoint && accessToken) {
    try {
      const response = await fetch(provider.discovery.userinfo_endpoint, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const info = response.ok ? ((await response.json()) as Record<string, unknown>) : {};
      // OpenID Connect Core §5.3.2: the userinfo answer counts only for the same subject.
      if (info.sub === claims.sub) source = info;
    } catch (err) {
      log.info({ err }, 'OpenID userinfo failed');
    }
  }
  const email = typeof source.email === 'string' && source.email.trim() !== '' ? source.email.trim() : null;
  const v = source.email_verified;
  const verified = v === undefined || v === null ? null : v === true || v === 'true';
  return { email, verified };
}
