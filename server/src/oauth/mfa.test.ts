import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { PASSWORD, seedAccounts } from '../test-support/accounts-fixture.js';
import { DEMO_STAFF_TOTP_SECRET } from '../demo/data.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { createUser, resetSecondFactor } from '../workflows/accounts.js';
import { ensureOAuthClients } from './clients.js';
import { stepAt, TOTP_PERIOD, totpCode } from './mfa.js';

// A moment in the middle of a 30-second step, so "one step either side" is unambiguous.
const T0 = '2026-10-10T14:00:15.000Z';

describeEachDatabase('staff second factor', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  const clock = fixedClock(T0);
  let users: Record<string, string>;
  let ip = 0;

  const form = (url: string, fields: Record<string, string>, address = `198.51.100.${++ip % 250}`) =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress: address,
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const signIn = (username: string, extra: Record<string, string> = {}, password = PASSWORD, address?: string) =>
    form('/oauth/token', { grant_type: 'password', client_id: 'portal-web', username, password, ...extra }, address);
  /** The demo key's code for the step `offset` steps from now. */
  const code = (offset = 0, secret = DEMO_STAFF_TOTP_SECRET) =>
    totpCode(secret, new Date(clock.now().getTime() + offset * TOTP_PERIOD * 1000));
  const failures = async (key: string) =>
    (await ctx.db.selectFrom('login_failures').select('id').where('throttle_key', '=', key).execute()).length;
  const debug = (token: string) =>
    app.inject({ method: 'GET', url: '/oauth/debug', headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    ctx = await createTestContext(target, { clock, config: { webDist: '/nonexistent' } });
    await ensureOAuthClients(ctx.db, clock);
    ({ users } = await seedAccounts(ctx));
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });
  beforeEach(async () => {
    // Each test starts a few minutes after the last, so earlier tests' steps are in the past.
    clock.advance(300);
    await ctx.db.deleteFrom('login_failures').execute();
  });

  it('lets handler users in with their password alone, and ignores a code they send', async () => {
    expect((await signIn('alice')).statusCode).toBe(200);
    expect((await signIn('bob', { totp: '000000' })).statusCode).toBe(200);
  });

  it('asks staff for the code after a right password, without counting it as a failure', async () => {
    const res = await signIn('staff');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'mfa_required', error_description: expect.stringContaining('totp') });
    expect(res.json().access_token).toBeUndefined();
    expect(await failures('user:staff')).toBe(0);
    // A wrong password is still just a wrong password: the second step is not revealed.
    expect((await signIn('staff', {}, 'not the password')).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await signIn('staff', { totp: code() }, 'not the password')).json()).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('signs staff in with the current code, once: a replayed or older code is refused (RFC 6238 §5.2)', async () => {
    const now = code();
    const ok = await signIn('staff', { totp: now });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await debug(ok.json().access_token)).json()).toMatchObject({
      name: 'staff',
      roles: ['authenticated', 'staff'],
    });
    const stored = await ctx.db
      .selectFrom('user_totp')
      .select('last_step')
      .where('user_id', '=', users.staff)
      .executeTakeFirstOrThrow();
    expect(Number(stored.last_step)).toBe(stepAt(clock.now()));

    const replay = await signIn('staff', { totp: now });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringContaining('already used'),
    });
    // The previous step is inside the window but before the step just used.
    expect((await signIn('staff', { totp: code(-1) })).json()).toMatchObject({ error: 'invalid_grant' });
    // The next step (a phone a little ahead) is accepted, with spaces as apps show it.
    const next = code(1);
    expect((await signIn('staff', { totp: `${next.slice(0, 3)} ${next.slice(3)}` })).statusCode).toBe(200);
  });

  it('accepts one step of drift either way, not two', async () => {
    expect((await signIn('staff', { totp: code(-2) })).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await signIn('staff', { totp: code(2) })).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await signIn('staff', { totp: code(-1) })).statusCode).toBe(200);
  });

  it('counts wrong codes as failed sign-ins: the sixth try from that address is refused even with the right code', async () => {
    const from = '192.0.2.77';
    for (const [i, bad] of ['123456', '654321', 'abcdef', '1234567', code(-3)].entries()) {
      clock.advance(1);
      const res = await signIn('staff', { totp: bad }, PASSWORD, from);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_grant' });
      // Asking for the code again in between does not wipe the count.
      if (i < 4) expect((await signIn('staff', {}, PASSWORD, from)).json()).toMatchObject({ error: 'mfa_required' });
    }
    expect(await failures('user:staff')).toBe(5);
    expect(await failures(`pair:staff|${from}`)).toBe(5);
    const locked = await signIn('staff', { totp: code() }, PASSWORD, from);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(Number(locked.headers['retry-after']));
    expect((await signIn('staff', { totp: code() }, PASSWORD, from)).statusCode).toBe(200);
    expect(await failures('user:staff')).toBe(0);
  });

  it('enrols a staff user who has no factor: key once, first code, ten recovery codes each good once', async () => {
    const system = { userId: 'system', name: 'system', role: 'staff' as const, handlerId: null };
    const rita = await createUser(
      { ctx, viewer: system },
      { username: 'rita', password: PASSWORD, firstName: 'Rita', role: 'staff', handlerNumber: null },
    );

    const first = await signIn('rita');
    expect(first.statusCode).toBe(400);
    const { error, enrollment_token: token } = first.json();
    expect(error).toBe('mfa_enrollment_required');
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // The enrolment token alone signs nobody in, and nothing is enrolled yet.
    expect(
      await ctx.db.selectFrom('user_totp').select('user_id').where('user_id', '=', rita).executeTakeFirst(),
    ).toBeUndefined();

    const keyRes = await form('/oauth/mfa/enrollment', { enrollment_token: token });
    expect(keyRes.statusCode, keyRes.body).toBe(200);
    expect(keyRes.headers['cache-control']).toBe('no-store');
    const key = keyRes.json();
    expect(key.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(key.otpauth_uri).toBe(
      `otpauth://totp/Pecan%20Handler%20Portal:rita?issuer=Pecan%20Handler%20Portal&secret=${key.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect((await form('/oauth/mfa/enrollment', { enrollment_token: 'not-a-token' })).json()).toMatchObject({
      error: 'invalid_grant',
    });

    // A wrong first code, and a code without the password, do not enrol.
    expect((await signIn('rita', { enrollment_token: token, totp: '000000' })).json()).toMatchObject({
      error: 'invalid_grant',
    });
    expect(
      (await signIn('rita', { enrollment_token: token, totp: code(0, key.secret) }, 'wrong password')).json(),
    ).toMatchObject({ error: 'invalid_grant' });

    const done = await signIn('rita', { enrollment_token: token, totp: code(0, key.secret) });
    expect(done.statusCode, done.body).toBe(200);
    const codes: string[] = done.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    // The key is never shown again, and the codes are stored only as hashes.
    expect((await form('/oauth/mfa/enrollment', { enrollment_token: token })).json()).toMatchObject({
      error: 'invalid_grant',
    });
    const stored = await ctx.db
      .selectFrom('mfa_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', rita)
      .execute();
    expect(stored).toHaveLength(10);
    expect(stored.some((r) => codes.some((c) => String(r.code_hash).includes(c.replace(/-/g, ''))))).toBe(false);

    // From now on: a code, not a new enrolment.
    expect((await signIn('rita')).json()).toMatchObject({ error: 'mfa_required' });
    expect((await signIn('rita', { totp: code(0, key.secret) })).json()).toMatchObject({ error: 'invalid_grant' }); // step used by the enrolment
    const withRecovery = await signIn('rita', { recovery_code: codes[3].toUpperCase().replace(/-/g, ' ') });
    expect(withRecovery.statusCode, withRecovery.body).toBe(200);
    expect(withRecovery.json().recovery_codes).toBeUndefined();
    expect((await signIn('rita', { recovery_code: codes[3] })).json()).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringContaining('recovery code'),
    });
    // Another user's recovery code is no good either.
    expect((await signIn('staff', { recovery_code: codes[4] })).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await signIn('rita', { recovery_code: codes[4] })).statusCode).toBe(200);
  });

  it('lets an enrolment lapse after 15 minutes', async () => {
    const system = { userId: 'system', name: 'system', role: 'staff' as const, handlerId: null };
    await createUser(
      { ctx, viewer: system },
      { username: 'sol', password: PASSWORD, firstName: 'Sol', role: 'staff', handlerNumber: null },
    );
    const token = (await signIn('sol')).json().enrollment_token as string;
    const key = (await form('/oauth/mfa/enrollment', { enrollment_token: token })).json();
    clock.advance(15 * 60);
    expect((await form('/oauth/mfa/enrollment', { enrollment_token: token })).json()).toMatchObject({
      error: 'invalid_grant',
    });
    const late = await signIn('sol', { enrollment_token: token, totp: code(0, key.secret) });
    expect(late.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('expired') });
  });

  it('refreshes without a code', async () => {
    const tokens = (await signIn('staff', { totp: code() })).json();
    clock.advance(60);
    const refreshed = await form('/oauth/token', {
      grant_type: 'refresh_token',
      client_id: 'portal-web',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('starts council-created staff without a factor, and a reset ends the sessions and asks for a new set-up', async () => {
    const admin = (await signIn('staff', { totp: code() })).json().access_token as string;
    const created = await app.inject({
      method: 'POST',
      url: '/api/council/users',
      headers: { authorization: `Bearer ${admin}` },
      payload: {
        username: 'uma',
        first_name: 'Uma',
        email: 'uma@example.com',
        role: 'staff',
        password: 'uma-pecans-2026',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await signIn('uma', {}, 'uma-pecans-2026')).json()).toMatchObject({ error: 'mfa_enrollment_required' });

    const system = { userId: 'system', name: 'system', role: 'staff' as const, handlerId: null };
    await resetSecondFactor({ ctx, viewer: system }, 'staff');
    expect((await debug(admin)).statusCode).toBe(401);
    expect((await signIn('staff', { totp: code(1) })).json()).toMatchObject({ error: 'mfa_enrollment_required' });
    await expect(resetSecondFactor({ ctx, viewer: system }, 'nobody')).rejects.toThrow('There is no user nobody');
  });
});
