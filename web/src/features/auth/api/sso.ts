import { publicApi } from '../../../lib/http/json';
import type { SsoConfig } from './sso-config';
import type { TokenResponse } from '../../../lib/session/token-rules';
import { codeChallengeS256, createCodeVerifier, randomString } from './pkce';

/**
 * Single sign-on (authorization code with PKCE). The server publishes the provider's data at GET /api/sso/config;
 * the browser goes to the provider, comes back to /auth0loginCallback, and the server exchanges the code at
 * POST /api/sso/callback, answering a token response like /oauth/token.
 */
export type { SsoConfig } from './sso-config';
export { getSsoConfig, useSsoConfig } from './sso-config';

export const SSO_PENDING_KEY = 'sso_pending';
export const SSO_CALLBACK_PATH = '/auth0loginCallback';

interface PendingSso {
  state: string;
  verifier: string;
  remember: boolean;
  returnTo: string;
  redirectUri: string;
  createdAt: number;
}

export async function buildAuthorizeUrl(
  config: SsoConfig,
  pending: Pick<PendingSso, 'state' | 'verifier' | 'redirectUri'>,
): Promise<string> {
  const url = new URL(config.authorizeUrl as string, window.location.origin);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId as string);
  url.searchParams.set('redirect_uri', pending.redirectUri);
  url.searchParams.set('scope', config.scope ?? 'openid profile email');
  if (config.audience) url.searchParams.set('audience', config.audience);
  url.searchParams.set('state', pending.state);
  url.searchParams.set('code_challenge', await codeChallengeS256(pending.verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** Starts the sign-on: remembers state and verifier in sessionStorage (this tab only), then leaves for the provider. */
export async function startSso(config: SsoConfig, remember: boolean, returnTo: string): Promise<void> {
  const pending: PendingSso = {
    state: randomString(24),
    verifier: createCodeVerifier(),
    remember,
    returnTo,
    redirectUri: config.redirectUri ?? `${window.location.origin}${SSO_CALLBACK_PATH}`,
    createdAt: Date.now(),
  };
  sessionStorage.setItem(SSO_PENDING_KEY, JSON.stringify(pending));
  window.location.assign(await buildAuthorizeUrl(config, pending));
}

export class SsoError extends Error {
  constructor(
    readonly reason: 'provider' | 'state' | 'missing-code' | 'exchange',
    message?: string,
  ) {
    super(message ?? reason);
  }
}

/** Completes the sign-on on the callback page: checks the state, then POST /api/sso/callback. */
export async function finishSso(
  search: string,
): Promise<{ token: TokenResponse; remember: boolean; returnTo: string }> {
  const params = new URLSearchParams(search);
  const raw = sessionStorage.getItem(SSO_PENDING_KEY);
  sessionStorage.removeItem(SSO_PENDING_KEY);
  if (params.get('error'))
    throw new SsoError('provider', params.get('error_description') ?? params.get('error') ?? undefined);
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state) throw new SsoError('missing-code');
  let pending: PendingSso | null = null;
  try {
    pending = raw ? (JSON.parse(raw) as PendingSso) : null;
  } catch {
    pending = null;
  }
  // The state must be the one this tab sent, and recent (10 minutes).
  if (!pending || pending.state !== state || Date.now() - pending.createdAt > 600_000) throw new SsoError('state');
  const token = await publicApi
    .post<TokenResponse | null>('/api/sso/callback', {
      code,
      state,
      code_verifier: pending.verifier,
      redirect_uri: pending.redirectUri,
    })
    .catch((e: unknown) => {
      throw new SsoError('exchange', e instanceof Error ? e.message : undefined);
    });
  if (!token?.access_token) throw new SsoError('exchange');
  return { token, remember: pending.remember, returnTo: pending.returnTo };
}
