/**
 * Pure rules of the session token: when to refresh, when to log out, what a stored token must look like.
 * Every function takes the current time (ms since epoch) so the rules are tested with a fake clock.
 */

/** Refresh this long before the access token expires (spec section 9). */
export const REFRESH_MARGIN_MS = 30_000;
/** Automatic logout this long after the sign-in token was stored (spec section 9: 43200 s). */
export const AUTO_LOGOUT_MS = 43_200_000;

/** The body of a successful POST /oauth/token. */
export interface TokenResponse {
  token_type: string;
  access_token: string;
  expires_in: number;
  refresh_token?: string;
}

/** What the session keeps under the OAuth token key. */
export interface StoredToken {
  access_token: string;
  refresh_token: string | null;
  token_type: string;
  /** Absolute expiry of the access token (ms). */
  expires_at: number;
  /** When the sign-in stored the first token (ms); refreshes keep it, so the 12-hour limit is not extended. */
  stored_at: number;
  /** When the session ends regardless of refreshes (ms). */
  logout_at: number;
}

/** Builds the stored form of a token response. `previous` is the token it replaces on a refresh. */
export function toStoredToken(response: TokenResponse, now: number, previous?: StoredToken | null): StoredToken {
  const storedAt = previous ? previous.stored_at : now;
  return {
    access_token: response.access_token,
    refresh_token: response.refresh_token ?? previous?.refresh_token ?? null,
    token_type: response.token_type || 'Bearer',
    expires_at: now + Math.max(0, Number(response.expires_in) || 0) * 1000,
    stored_at: storedAt,
    logout_at: previous ? previous.logout_at : now + AUTO_LOGOUT_MS,
  };
}

/** Parses what is stored under the token key; anything malformed gives null (and the caller clears it). */
export function parseStoredToken(raw: string | null): StoredToken | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const t = value as Record<string, unknown>;
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (typeof t.access_token !== 'string' || t.access_token.length === 0) return null;
  if (!finite(t.expires_at) || !finite(t.stored_at) || !finite(t.logout_at)) return null;
  if (t.refresh_token !== null && t.refresh_token !== undefined && typeof t.refresh_token !== 'string') return null;
  if (t.logout_at < t.stored_at) return null;
  return {
    access_token: t.access_token,
    refresh_token: (t.refresh_token as string | null | undefined) ?? null,
    token_type: typeof t.token_type === 'string' ? t.token_type : 'Bearer',
    expires_at: t.expires_at,
    stored_at: t.stored_at,
    logout_at: t.logout_at,
  };
}

/** The moment a refresh is due: 30 s before the access token expires. */
export function refreshDueAt(token: StoredToken): number {
  return token.expires_at - REFRESH_MARGIN_MS;
}

export function needsRefresh(token: StoredToken, now: number): boolean {
  return now >= refreshDueAt(token);
}

export function isAccessTokenExpired(token: StoredToken, now: number): boolean {
  return now >= token.expires_at;
}

export function shouldAutoLogout(token: StoredToken, now: number): boolean {
  return now >= token.logout_at;
}

/** A token that can still be used or refreshed; an expired one without a refresh token is invalid. */
export function isUsable(token: StoredToken | null, now: number): token is StoredToken {
  if (!token) return false;
  if (shouldAutoLogout(token, now)) return false;
  if (isAccessTokenExpired(token, now) && !token.refresh_token) return false;
  return true;
}

export type NextSessionAction = { kind: 'none' } | { kind: 'logout'; inMs: number } | { kind: 'refresh'; inMs: number };

/** What the session timer must do next, and in how many milliseconds. */
export function nextSessionAction(token: StoredToken | null, now: number): NextSessionAction {
  if (!token) return { kind: 'none' };
  const logoutIn = Math.max(0, token.logout_at - now);
  if (!token.refresh_token) {
    // Without a refresh token the session ends when the access token does (or at the 12-hour mark).
    return { kind: 'logout', inMs: Math.min(logoutIn, Math.max(0, token.expires_at - now)) };
  }
  const refreshIn = Math.max(0, refreshDueAt(token) - now);
  if (logoutIn <= refreshIn) return { kind: 'logout', inMs: logoutIn };
  return { kind: 'refresh', inMs: refreshIn };
}
