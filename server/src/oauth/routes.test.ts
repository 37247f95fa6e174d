import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { newId } from '../lib/time.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { hashPassword } from '../users/passwords.js';
import { ensureOAuthClients } from './clients.js';
import { enrolWithSecret, totpCode } from './mfa.js';

const T0 = '2026-10-10T14:00:00.000Z';
const PASSWORD = 'pecans are great';
const SAM_KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describeEachDatabase('/oauth/revoke and /oauth/debug', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  const clock = fixedClock(T0);
  const ids: Record<string, string> = {};

  const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const signIn = async (username: string, extra: Record<string, string> = {}) =>
    (
      await form('/oauth/token', {
        grant_type: 'password',
        client_id: 'portal-web',
        username,
        password: PASSWORD,
        ...extra,
      })
    ).json();
  const debug = (accessToken: string) =>
    app.inject({
      method: 'GET',
      url: '/oauth/debug?_format=json',
      headers: { authorization: `Bearer ${accessToken}` },
    });
  const refresh = (refreshToken: string) =>
    form('/oauth/token', { grant_type: 'refresh_token', client_id: 'portal-web', refresh_token: refreshToken });

  beforeAll(async () => {
    // No web app: these tests are about the API only (and a built web/dist must not change them).
    ctx = await createTestContext(target, { clock, config: { webDist: '/nonexistent' } });
    await ensureOAuthClients(ctx.db, clock);
    await ctx.db
      .insertInto('handlers')
      .values({ id: 'h1', title: 'Pecan Co', created: T0, changed: T0, handler_number: '101' })
      .execute();
    for (const [name, role] of [
      ['alice', 'handler'],
      ['sam', 'staff'],
    ]) {
      ids[name] = newId();
      await ctx.db
        .insertInto('users')
        .values({
          id: ids[name],
          title: name,
          created: T0,
          changed: T0,
          name,
          role,
          handler_id: role === 'handler' ? 'h1' : null,
          pass_hash: await hashPassword(PASSWORD),
        })
        .execute();
    }
    await enrolWithSecret(ctx.db, ids.sam, SAM_KEY, clock.now());
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  it('describes the token holder', async () => {
    const tokens = await signIn('alice');
    const res = await debug(tokens.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: ids.alice,
      name: 'alice',
      roles: ['authenticated', 'handler'],
      expires: Date.parse(T0) / 1000 + 300,
    });
    const staff = await debug((await signIn('sam', { totp: totpCode(SAM_KEY, clock.now()) })).access_token);
    expect(staff.json().roles).toEqual(['authenticated', 'staff']);
  });

  it('answers 401 with WWW-Authenticate: Bearer without a valid token', async () => {
    for (const headers of [{}, { authorization: 'Bearer nonsense' }, { authorization: 'Basic YTpi' }]) {
      const res = await app.inject({ method: 'GET', url: '/oauth/debug?_format=json', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toMatchObject({ error: 'invalid_token' });
    }
  });

  it('revokes the family of a refresh token', async () => {
    const tokens = await signIn('alice');
    const res = await form('/oauth/revoke', { token: tokens.refresh_token, token_type_hint: 'refresh_token' });
    expect(res.statusCode).toBe(200);
    expect((await debug(tokens.access_token)).statusCode).toBe(401);
    expect((await refresh(tokens.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes the family of an access token, given as a parameter or as the bearer', async () => {
    const a = await signIn('alice');
    expect((await form('/oauth/revoke', { token: a.access_token })).statusCode).toBe(200);
    expect((await refresh(a.refresh_token)).statusCode).toBe(400);
    const b = await signIn('alice');
    expect((await form('/oauth/revoke', {}, { authorization: `Bearer ${b.access_token}` })).statusCode).toBe(200);
    expect((await debug(b.access_token)).statusCode).toBe(401);
    expect((await refresh(b.refresh_token)).statusCode).toBe(400);
  });

  it('answers 200 for unknown or already revoked tokens, and leaves other sign-ins alone', async () => {
    const keep = await signIn('alice');
    const gone = await signIn('alice');
    for (let i = 0; i < 2; i += 1) {
      expect((await form('/oauth/revoke', { token: gone.refresh_token })).statusCode).toBe(200);
    }
    expect((await form('/oauth/revoke', { token: 'never-issued' })).statusCode).toBe(200);
    expect((await form('/oauth/revoke', {}, { authorization: 'Bearer never-issued' })).statusCode).toBe(200);
    expect((await debug(keep.access_token)).statusCode).toBe(200);
  });

  it('refuses a revoke without any token', async () => {
    const res = await form('/oauth/revoke', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
  });
});
