import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionTimer } from './session-timer';
import { toStoredToken, type StoredToken } from './token-rules';

const T0 = Date.parse('2026-10-10T08:00:00Z');

describe('session timer (fake clock)', () => {
  let token: StoredToken | null;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    token = toStoredToken({ token_type: 'Bearer', access_token: 'a0', expires_in: 300, refresh_token: 'r0' }, T0);
  });
  afterEach(() => vi.useRealTimers());

  function setup() {
    let n = 0;
    const refresh = vi.fn(async () => {
      n += 1;
      token = toStoredToken(
        { token_type: 'Bearer', access_token: `a${n}`, expires_in: 300, refresh_token: `r${n}` },
        Date.now(),
        token,
      );
    });
    const logout = vi.fn((_reason: string) => {
      token = null;
    });
    const timer = createSessionTimer({ getToken: () => token, refresh, logout });
    return { timer, refresh, logout };
  }

  it('refreshes 30 seconds before expiry, again and again', async () => {
    const { timer, refresh, logout } = setup();
    timer.reschedule();
    await vi.advanceTimersByTimeAsync(269_999);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(token?.access_token).toBe('a1');
    await vi.advanceTimersByTimeAsync(270_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(logout).not.toHaveBeenCalled();
    timer.stop();
  });

  it('logs out 12 hours after sign-in even though refreshes keep succeeding', async () => {
    const { timer, logout } = setup();
    timer.reschedule();
    await vi.advanceTimersByTimeAsync(43_200_000 - 1);
    expect(logout).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(logout).toHaveBeenCalledWith('expired');
    expect(token).toBeNull();
  });

  it('logs out when the refresh fails', async () => {
    const { timer, logout } = setup();
    const failing = createSessionTimer({
      getToken: () => token,
      refresh: () => Promise.reject(new Error('invalid_grant')),
      logout,
    });
    failing.reschedule();
    await vi.advanceTimersByTimeAsync(270_000);
    expect(logout).toHaveBeenCalledWith('refresh-failed');
    timer.stop();
  });

  it('does not refresh when another tab already did (token changed before the timer fired)', async () => {
    const { timer, refresh } = setup();
    timer.reschedule();
    await vi.advanceTimersByTimeAsync(200_000);
    token = toStoredToken(
      { token_type: 'Bearer', access_token: 'other-tab', expires_in: 300, refresh_token: 'rX' },
      Date.now(),
      token,
    );
    await vi.advanceTimersByTimeAsync(70_000);
    expect(refresh).not.toHaveBeenCalled();
    timer.stop();
  });
});
