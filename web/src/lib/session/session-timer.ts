import { nextSessionAction, type StoredToken } from './token-rules';

/** Browsers cap setTimeout at 2^31-1 ms; longer waits are done in steps. */
const MAX_TIMEOUT = 2_147_483_647;

export interface SessionTimerDeps {
  getToken: () => StoredToken | null;
  refresh: () => Promise<unknown>;
  logout: (reason: 'expired' | 'refresh-failed') => void;
  now?: () => number;
}

/**
 * Keeps one timer for the session: a refresh 30 s before the access token expires, and the automatic logout
 * 12 hours after sign-in. Call `reschedule()` whenever the token changes (also when another tab changed it).
 */
export function createSessionTimer(deps: SessionTimerDeps) {
  const now = deps.now ?? (() => Date.now());
  let handle: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const clear = () => {
    if (handle !== null) clearTimeout(handle);
    handle = null;
  };

  const reschedule = (): void => {
    clear();
    if (stopped) return;
    const action = nextSessionAction(deps.getToken(), now());
    if (action.kind === 'none') return;
    const wait = Math.min(action.inMs, MAX_TIMEOUT);
    handle = setTimeout(() => {
      handle = null;
      if (wait < action.inMs) return reschedule();
      // Re-evaluate at fire time: another tab may have refreshed the token meanwhile.
      const current = nextSessionAction(deps.getToken(), now());
      if (current.kind === 'none') return;
      if (current.inMs > 0) return reschedule();
      if (current.kind === 'logout') {
        deps.logout('expired');
        return;
      }
      deps.refresh().then(
        () => reschedule(),
        () => deps.logout('refresh-failed'),
      );
    }, wait);
  };

  return {
    reschedule,
    stop(): void {
      stopped = true;
      clear();
    },
  };
}
