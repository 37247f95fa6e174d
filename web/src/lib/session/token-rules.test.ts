import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUTO_LOGOUT_MS,
  REFRESH_MARGIN_MS,
  isUsable,
  needsRefresh,
  nextSessionAction,
  parseStoredToken,
  shouldAutoLogout,
  toStoredToken,
} from './token-rules';

const T0 = Date.parse('2026-10-10T08:00:00Z');

describe('token rules (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  const signIn = () =>
    toStoredToken({ token_type: 'Bearer', access_token: 'a1', expires_in: 300, refresh_token: 'r1' }, Date.now());

  it('stores expiry, sign-in time and the 12-hour logout time', () => {
    const t = signIn();
    expect(t.expires_at).toBe(T0 + 300_000);
    expect(t.stored_at).toBe(T0);
    expect(t.logout_at).toBe(T0 + 43_200 * 1000);
    expect(AUTO_LOGOUT_MS).toBe(43_200_000);
  });

  it('asks for a refresh 30 seconds before expiry, not earlier', () => {
    const t = signIn();
    vi.setSystemTime(T0 + 300_000 - REFRESH_MARGIN_MS - 1);
    expect(needsRefresh(t, Date.now())).toBe(false);
    vi.advanceTimersByTime(1);
    expect(needsRefresh(t, Date.now())).toBe(true);
    expect(REFRESH_MARGIN_MS).toBe(30_000);
  });

  it('a refresh keeps the sign-in time, so the 12-hour logout is not pushed back', () => {
    const first = signIn();
    vi.setSystemTime(T0 + 270_000);
    const next = toStoredToken(
      { token_type: 'Bearer', access_token: 'a2', expires_in: 300, refresh_token: 'r2' },
      Date.now(),
      first,
    );
    expect(next.expires_at).toBe(T0 + 570_000);
    expect(next.logout_at).toBe(first.logout_at);
    expect(next.refresh_token).toBe('r2');
  });

  it('logs out automatically 43200 seconds after the token was stored', () => {
    const t = signIn();
    vi.setSystemTime(T0 + 43_200_000 - 1);
    expect(shouldAutoLogout(t, Date.now())).toBe(false);
    vi.setSystemTime(T0 + 43_200_000);
    expect(shouldAutoLogout(t, Date.now())).toBe(true);
    expect(isUsable(t, Date.now())).toBe(false);
  });

  it('plans the next action: refresh 30 s before expiry, logout when that comes first', () => {
    const t = signIn();
    expect(nextSessionAction(t, Date.now())).toEqual({ kind: 'refresh', inMs: 270_000 });
    const nearEnd = { ...t, expires_at: t.logout_at + 600_000 };
    vi.setSystemTime(t.logout_at - 1000);
    expect(nextSessionAction(nearEnd, Date.now())).toEqual({ kind: 'logout', inMs: 1000 });
    expect(nextSessionAction(null, Date.now())).toEqual({ kind: 'none' });
    expect(nextSessionAction({ ...t, refresh_token: null }, T0)).toEqual({ kind: 'logout', inMs: 300_000 });
  });

  it('an expired access token without a refresh token is not usable', () => {
    const t = { ...signIn(), refresh_token: null };
    expect(isUsable(t, T0 + 299_999)).toBe(true);
    expect(isUsable(t, T0 + 300_000)).toBe(false);
  });

  it('rejects malformed stored tokens', () => {
    expect(parseStoredToken(null)).toBeNull();
    expect(parseStoredToken('not json')).toBeNull();
    expect(parseStoredToken('"a string"')).toBeNull();
    expect(
      parseStoredToken(JSON.stringify({ access_token: '', expires_at: 1, stored_at: 1, logout_at: 2 })),
    ).toBeNull();
    expect(
      parseStoredToken(JSON.stringify({ access_token: 'x', expires_at: 'soon', stored_at: 1, logout_at: 2 })),
    ).toBeNull();
    expect(
      parseStoredToken(JSON.stringify({ access_token: 'x', expires_at: 5, stored_at: 3, logout_at: 2 })),
    ).toBeNull();
    const good = signIn();
    expect(parseStoredToken(JSON.stringify(good))).toEqual(good);
  });
});
