import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { DEMO_PASSWORD, demoApp, type DemoApp } from '../test-support/demo.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 Version/18.5 Mobile/15E148 Safari/604.1';

describeEachDatabase('active sessions', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  });
  afterAll(async () => {
    await demo?.close();
  });

  const signIn = async (username: string, userAgent: string, address: string) => {
    const res = await demo.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: address,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
      payload: new URLSearchParams({
        grant_type: 'password',
        client_id: 'portal-web',
        username,
        password: DEMO_PASSWORD,
      }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access_token: string; refresh_token: string };
  };
  const call = async (method: 'GET' | 'DELETE', url: string, token?: string) => {
    const res = await demo.app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const refresh = (refreshToken: string) =>
    demo.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'portal-web',
        refresh_token: refreshToken,
      }).toString(),
    });

  it("lists the user's own sessions, newest first, with browser, address and which one is asking", async () => {
    await signIn('carol', FIREFOX, '198.51.100.20');
    const phone = await signIn('carol', PHONE, '203.0.113.44');
    const list = await call('GET', '/api/account/sessions', phone.access_token);
    expect(list.status).toBe(200);
    const sessions = list.body.data as Array<Record<string, unknown>>;
    // The demo harness's own sign-in of carol, the laptop and the phone.
    expect(sessions).toHaveLength(3);
    const mine = sessions.find((s) => s.current === true);
    expect(mine).toMatchObject({
      user_agent: PHONE,
      address: '203.0.113.44',
      client: 'Handler Portal web app',
      created: '2026-11-22T12:00:00+00:00',
      last_used: '2026-11-22T12:00:00+00:00',
    });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.find((s) => s.user_agent === FIREFOX)).toMatchObject({ address: '198.51.100.20', current: false });
    expect(Object.keys(mine!).sort()).toEqual([
      'address',
      'client',
      'created',
      'current',
      'expires_at',
      'id',
      'last_used',
      'user_agent',
    ]);
    // Nobody else's sessions.
    const bobs = (await call('GET', '/api/account/sessions', demo.tokens.bob)).body.data as Array<{
      user_agent: string | null;
    }>;
    expect(bobs.some((s) => s.user_agent === FIREFOX || s.user_agent === PHONE)).toBe(false);
    expect((await call('GET', '/api/account/sessions')).status).toBe(401);
  });

  it('ends another session at once: its access token answers 401 and its refresh token is refused', async () => {
    const laptop = await signIn('dave', FIREFOX, '198.51.100.21');
    const phone = await signIn('dave', PHONE, '203.0.113.45');
    const sessions = (await call('GET', '/api/account/sessions', phone.access_token)).body.data as Array<{
      id: string;
      user_agent: string;
      current: boolean;
    }>;
    const laptopSession = sessions.find((s) => s.user_agent === FIREFOX)!;
    expect((await api(demo.app, laptop.access_token, 'GET', '/jsonapi/node/season')).status).toBe(200);

    expect((await call('DELETE', `/api/account/sessions/${laptopSession.id}`, phone.access_token)).status).toBe(204);
    expect((await api(demo.app, laptop.access_token, 'GET', '/jsonapi/node/season')).status).toBe(401);
    expect((await refresh(laptop.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    const after = (await call('GET', '/api/account/sessions', phone.access_token)).body.data as Array<{ id: string }>;
    expect(after.map((s) => s.id)).not.toContain(laptopSession.id);
    // Ending it again: it is no longer an active session.
    expect((await call('DELETE', `/api/account/sessions/${laptopSession.id}`, phone.access_token)).status).toBe(404);
    // The phone goes on.
    expect((await api(demo.app, phone.access_token, 'GET', '/jsonapi/node/season')).status).toBe(200);
  });

  it('lets a user end their own current session (signing out)', async () => {
    const only = await signIn('dave', FIREFOX, '198.51.100.22');
    const current = (
      (await call('GET', '/api/account/sessions', only.access_token)).body.data as Array<{
        id: string;
        current: boolean;
      }>
    ).find((s) => s.current)!;
    expect((await call('DELETE', `/api/account/sessions/${current.id}`, only.access_token)).status).toBe(204);
    expect((await call('GET', '/api/account/sessions', only.access_token)).status).toBe(401);
  });

  it("does not let alice see or end bob's session: 404, and bob stays signed in", async () => {
    const bob = await signIn('bob', PHONE, '203.0.113.46');
    const bobs = (await call('GET', '/api/account/sessions', bob.access_token)).body.data as Array<{
      id: string;
      current: boolean;
    }>;
    const target = bobs.find((s) => s.current)!;
    const refused = await call('DELETE', `/api/account/sessions/${target.id}`, demo.tokens.alice);
    expect(refused.status).toBe(404);
    expect(refused.body.errors[0].detail).toContain('no active session');
    // Staff are no exception here: these endpoints are about one's own sessions.
    expect((await call('DELETE', `/api/account/sessions/${target.id}`, demo.tokens.staff)).status).toBe(404);
    expect((await api(demo.app, bob.access_token, 'GET', '/jsonapi/node/season')).status).toBe(200);
    expect((await call('DELETE', '/api/account/sessions/not-a-session', demo.tokens.alice)).status).toBe(404);
    expect((await call('DELETE', `/api/account/sessions/${'x'.repeat(5000)}`, demo.tokens.alice)).status).toBeLessThan(
      500,
    );
  });

  it('moves "last used" on each refresh', async () => {
    const s = await signIn('alice', FIREFOX, '198.51.100.23');
    (demo.ctx.clock as unknown as { advance(seconds: number): void }).advance(240);
    const next = (await refresh(s.refresh_token)).json();
    const mine = (
      (await call('GET', '/api/account/sessions', next.access_token)).body.data as Array<{
        current: boolean;
        created: string;
        last_used: string;
      }>
    ).find((x) => x.current)!;
    expect(mine.created).toBe('2026-11-22T12:00:00+00:00');
    expect(mine.last_used).toBe('2026-11-22T12:04:00+00:00');
  });
});
