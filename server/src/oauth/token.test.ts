import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { newId } from '../lib/time.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { hashPassword } from '../users/passwords.js';
import { createConfidentialClient, ensureOAuthClients } from './clients.js';
import { hashToken } from './tokens.js';

const T0 = '2026-10-10T14:00:00.000Z';
const PASSWORD = 'pecans are great';

describeEachDatabase('POST /oauth/token', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let secret: string;
  const clock = fixedClock(T0);
  const users: Record<string, string> = {};

  async function addUser(name: string, fields: Record<string, unknown> = {}): Promise<string> {
    const id = newId();
    await ctx.db
      .insertInto('users')
      .values({
        id,
        title: name,
        created: T0,
        changed: T0,
        name,
        pass_hash: await hashPassword(PASSWORD),
        ...fields,
      })
      .execute();
    return id;
  }
  const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const signIn = (username = 'alice', password = PASSWORD) =>
    token({ grant_type: 'password', client_id: 'portal-web', username, password });
  const refresh = (refreshToken: string) =>
    token({ grant_type: 'refresh_token', client_id: 'portal-web', refresh_token: refreshToken });
  const debug = (accessToken: string) =>
    app.inject({
      method: 'GET',
      url: '/oauth/debug?_format=json',
      headers: { authorization: `Bearer ${accessToken}` },
    });

  beforeAll(async () => {
    // No web app: these tests are about the API only (and a built web/dist must not change them).
    ctx = await createTestContext(target, { clock, config: { webDist: '/nonexistent' } });
    await ensureOAuthClients(ctx.db, clock);
    await ensureOAuthClients(ctx.db, clock); // idempotent
    secret = await createConfidentialClient(ctx.db, 'integration', 'An integration', clock);
    await ctx.db
      .insertInto('handlers')
      .values({ id: 'h1', title: 'Pecan Co', created: T0, changed: T0, handler_number: '101' })
      .execute();
    users.alice = await addUser('alice', { handler_id: 'h1' });
    users.staff = await addUser('sam', { role: 'staff' });
    users.blocked = await addUser('bob', { status: 'blocked' });
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });
  beforeEach(async () => {
    clock.set(T0);
    await ctx.db.deleteFrom('login_failures').execute();
  });

  it('signs in with the password grant and stores only hashes', async () => {
    const res = await token({
      grant_type: 'password',
      client_id: 'portal-web',
      username: 'alice',
      password: PASSWORD,
      scope: 'portal',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      token_type: 'Bearer',
      access_token: expect.any(String),
      expires_in: 300,
      refresh_token: expect.any(String),
      scope: 'portal',
    });
    expect(body.access_token).toMatch(/^[\w-]{43}$/);
    const access = await ctx.db
      .selectFrom('oauth_access_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(body.access_token))
      .executeTakeFirstOrThrow();
    const family = await ctx.db
      .selectFrom('oauth_token_families')
      .selectAll()
      .where('id', '=', access.family_id)
      .executeTakeFirstOrThrow();
    expect(family).toMatchObject({
      user_id: users.alice,
      client_id: 'portal-web',
      scope: 'portal',
      expires_at: '2026-10-11T02:00:00+00:00',
      revoked_at: null,
    });
    expect(access.expires_at).toBe('2026-10-10T14:05:00+00:00');
    const refreshRow = await ctx.db
      .selectFrom('oauth_refresh_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(body.refresh_token))
      .executeTakeFirstOrThrow();
    expect(refreshRow).toMatchObject({ family_id: family.id, used_at: null });
    const plain = await ctx.db
      .selectFrom('oauth_access_tokens')
      .select('token_hash')
      .where('token_hash', '=', body.access_token)
      .execute();
    expect(plain).toEqual([]);
  });

  it('omits scope when none was asked for', async () => {
    const body = (await signIn()).json();
    expect(body).not.toHaveProperty('scope');
  });

  it('refuses a wrong password, an unknown user and a blocked user with invalid_grant', async () => {
    for (const [username, password] of [
      ['alice', 'wrong password'],
      ['nobody', PASSWORD],
      ['bob', PASSWORD],
    ]) {
      const res = await signIn(username, password);
      expect(res.statusCode).toBe(400);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    }
  });

  it('authenticates confidential clients by secret, and refuses unknown clients', async () => {
    const base = { grant_type: 'password', username: 'alice', password: PASSWORD };
    expect((await token({ ...base, client_id: 'integration', client_secret: secret })).statusCode).toBe(200);
    for (const form of [
      { ...base, client_id: 'integration' },
      { ...base, client_id: 'integration', client_secret: `${secret}x` },
      { ...base, client_id: 'nope' },
    ]) {
      const res = await token(form);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'invalid_client' });
    }
    const basic = Buffer.from(`integration:${secret}`).toString('base64');
    expect((await token(base, { authorization: `Basic ${basic}` })).statusCode).toBe(200);
    const badBasic = await token(base, {
      authorization: `Basic ${Buffer.from('integration:wrong').toString('base64')}`,
    });
    expect(badBasic.statusCode).toBe(401);
    expect(badBasic.headers['www-authenticate']).toBe('Basic');
    const row = await ctx.db
      .selectFrom('oauth_clients')
      .select('secret_hash')
      .where('id', '=', 'integration')
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(secret);
  });

  it('answers invalid_request and unsupported_grant_type in the OAuth shape', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ client_id: 'portal-web', username: 'alice', password: PASSWORD }, 'invalid_request'],
      [{ grant_type: 'password', username: 'alice', password: PASSWORD }, 'invalid_request'],
      [{ grant_type: 'password', client_id: 'portal-web', username: 'alice' }, 'invalid_request'],
      [{ grant_type: 'refresh_token', client_id: 'portal-web' }, 'invalid_request'],
      [{ grant_type: 'authorization_code', client_id: 'portal-web' }, 'unsupported_grant_type'],
    ];
    for (const [form, error] of cases) {
      const res = await token(form);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error });
    }
    const repeated = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&client_id=portal-web&username=alice&username=bob&password=x',
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('rotates refresh tokens within the family, without extending its expiry', async () => {
    const first = (await signIn()).json();
    clock.advance(600);
    const res = await refresh(first.refresh_token);
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.expires_in).toBe(300);
    const rows = await ctx.db
      .selectFrom('oauth_refresh_tokens')
      .selectAll()
      .where('token_hash', 'in', [hashToken(first.refresh_token), hashToken(second.refresh_token)])
      .execute();
    expect(new Set(rows.map((r) => r.family_id)).size).toBe(1);
    expect(rows.find((r) => r.token_hash === hashToken(first.refresh_token))?.used_at).toBe(
      '2026-10-10T14:10:00+00:00',
    );
    expect(rows.every((r) => r.expires_at === '2026-10-11T02:00:00+00:00')).toBe(true);
    expect((await debug(second.access_token)).statusCode).toBe(200);
  });

  it('revokes the whole family when a used refresh token is presented again', async () => {
    const first = (await signIn()).json();
    const second = (await refresh(first.refresh_token)).json();
    const replay = await refresh(first.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await debug(second.access_token)).statusCode).toBe(401);
    expect((await debug(first.access_token)).statusCode).toBe(401);
    expect((await refresh(second.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    // Other sign-ins of the same user are untouched.
    const other = (await signIn()).json();
    expect((await debug(other.access_token)).statusCode).toBe(200);
  });

  it('refuses a refresh token from another client, an unknown one, and one for a blocked user', async () => {
    const first = (await signIn()).json();
    const other = await token({
      grant_type: 'refresh_token',
      client_id: 'integration',
      client_secret: secret,
      refresh_token: first.refresh_token,
    });
    expect(other.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh('not-a-token')).json()).toMatchObject({ error: 'invalid_grant' });
    const carol = await addUser('carol');
    const tokens = (await signIn('carol')).json();
    await ctx.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', carol).execute();
    expect((await refresh(tokens.refresh_token)).statusCode).toBe(400);
    expect((await debug(tokens.access_token)).statusCode).toBe(401);
  });

  it('expires access tokens after the access TTL and the sign-in after 12 hours, refreshes notwithstanding', async () => {
    let tokens = (await signIn()).json();
    clock.advance(299);
    expect((await debug(tokens.access_token)).statusCode).toBe(200);
    clock.advance(1);
    expect((await debug(tokens.access_token)).statusCode).toBe(401);
    // Keep refreshing until the family's end: the last access token is cut short to it.
    for (let elapsed = 300; elapsed < 43200 - 100; elapsed += 3600) {
      const res = await refresh(tokens.refresh_token);
      expect(res.statusCode).toBe(200);
      tokens = res.json();
      clock.advance(3600);
    }
    clock.set('2026-10-11T01:58:20.000Z');
    const last = (await refresh(tokens.refresh_token)).json();
    expect(last.expires_in).toBe(100);
    clock.set('2026-10-11T02:00:00.000Z');
    expect((await debug(last.access_token)).statusCode).toBe(401);
    expect((await refresh(last.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it("prunes a user's ended sign-ins at the next sign-in", async () => {
    const dave = await addUser('dave');
    await signIn('dave');
    clock.advance(43200);
    await signIn('dave');
    const families = await ctx.db.selectFrom('oauth_token_families').select('id').where('user_id', '=', dave).execute();
    expect(families).toHaveLength(1);
  });
});
