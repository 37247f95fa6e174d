import { refreshGrant, revoke } from '../oauth/oauth-client';
import { markSessionEnded } from './ended-notice';
import { OAUTH_TOKEN_KEY } from './keys';
import { createSessionTimer } from './session-timer';
import { sessionStore } from './session-store';
import {
  isUsable,
  needsRefresh,
  shouldAutoLogout,
  toStoredToken,
  type StoredToken,
  type TokenResponse,
} from './token-rules';

export type LogoutReason = 'user' | 'expired' | 'refresh-failed' | 'other-tab';
type LogoutListener = (reason: LogoutReason) => void;

const logoutListeners = new Set<LogoutListener>();
let refreshing: Promise<StoredToken> | null = null;

function emitLogout(reason: LogoutReason) {
  for (const l of logoutListeners) l(reason);
}

/** Stores a fresh sign-in token ('Remember me' picks localStorage, else sessionStorage). */
export function storeSignInToken(response: TokenResponse, remember: boolean): StoredToken {
  const token = toStoredToken(response, Date.now());
  sessionStore.setToken(token, remember);
  timer.reschedule();
  return token;
}

/**
 * Refreshes the access token once, even when several calls (or several tabs) ask at the same time: tabs take a
 * Web Lock and re-read storage inside it, so a token another tab already rotated is reused, not refreshed twice
 * (the server revokes a whole family when a used refresh token is presented again).
 */
export function refreshSession(): Promise<StoredToken> {
  if (refreshing) return refreshing;
  const staleAccess = sessionStore.getToken()?.access_token;
  const run = async (): Promise<StoredToken> => {
    sessionStore.reload();
    const current = sessionStore.getToken();
    if (!current || !current.refresh_token) throw new Error('No refresh token');
    if (current.access_token !== staleAccess && !needsRefresh(current, Date.now())) return current;
    const response = await refreshGrant(current.refresh_token);
    const next = toStoredToken(response, Date.now(), current);
    sessionStore.setToken(next);
    return next;
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  const p: Promise<StoredToken> = locks
    ? (locks.request('pecan-portal-token-refresh', run) as Promise<StoredToken>)
    : run();
  refreshing = p.finally(() => {
    refreshing = null;
    timer.reschedule();
  });
  return refreshing;
}

/** A usable access token, refreshed first when it is within 30 s of expiring; null when signed out. */
export async function getAccessToken(): Promise<string | null> {
  const token = sessionStore.getToken();
  const now = Date.now();
  if (!token) return null;
  if (!isUsable(token, now)) {
    endSession('expired');
    return null;
  }
  if (needsRefresh(token, now) && token.refresh_token) {
    try {
      return (await refreshSession()).access_token;
    } catch {
      endSession('refresh-failed');
      return null;
    }
  }
  return token.access_token;
}

/** Clears the session locally (no server call) and tells the app. */
export function endSession(reason: LogoutReason): void {
  const had = sessionStore.getToken() !== null;
  if (had && reason !== 'user') markSessionEnded();
  sessionStore.clear();
  timer.reschedule();
  if (had || reason === 'user') emitLogout(reason);
}

/** Logout: POST /oauth/revoke, then clear the session. The caller navigates to '/'. */
export async function logout(): Promise<void> {
  const token = sessionStore.getToken();
  if (token) {
    try {
      await revoke(token.access_token, token.refresh_token);
    } catch {
      // The token family expires on its own; logging out locally must not depend on the network.
    }
  }
  endSession('user');
}

export function onLogout(listener: LogoutListener): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}

const timer = createSessionTimer({
  getToken: () => sessionStore.getToken(),
  refresh: () => refreshSession(),
  logout: (reason) => endSession(reason),
});

let started = false;
/** Starts the session timer and follows changes made in other tabs (storage event). */
export function startSession(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const token = sessionStore.getToken();
  if (token && shouldAutoLogout(token, Date.now())) {
    markSessionEnded();
    sessionStore.clear();
  }
  window.addEventListener('storage', (event) => {
    if (event.key !== null && event.key !== OAUTH_TOKEN_KEY) {
      sessionStore.reload();
      return;
    }
    const before = sessionStore.getToken();
    sessionStore.reload();
    const after = sessionStore.getToken();
    if (before && !after) {
      markSessionEnded();
      emitLogout('other-tab');
    }
    timer.reschedule();
  });
  timer.reschedule();
}
