import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { newId } from '../lib/time.js';
import { ensureOAuthClients } from '../oauth/clients.js';
import { createTestContext, describeEachDatabase, type TestContext } from '../test-support/databases.js';
import { hashPassword } from '../users/passwords.js';

/**
 * Credentials under attack, through the real token endpoint: a thousand guesses at one account are stopped while
 * everyone else signs in; an unknown user and a wrong password get the same bytes back after the same work; a
 * tampered token is refused. (Refresh reuse, logout, deactivation, expiry and signed links: see docs/SECURITY.md.)
 */
const PASSWORD = 'pecans are great';
const GUESSES = 1000;
/** Median time of unknown-user answers over wrong-password answers must lie within [1/RATIO, RATIO]. */
const RATIO = 2;

describeEachDatabase('credentials', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;

  const signIn = (username: string, password: string, ip = '203.0.113.7') =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'password', client_id: 'portal-web', username, password }).toString(),
    });

  beforeAll(async () => {
    // The real clock and the configured limits (5 failures per username and address, 20 per username or address, 15
    // minutes).
    ctx = await createTestContext(target, { config: { webDist: '/nonexistent' } });
    await ensureOAuthClients(ctx.db, ctx.clock);
    const at = new Date().toISOString();
    const hash = await hashPassword(PASSWORD);
    for (const name of ['alice', 'bob', 'carol', 'timing']) {
      await ctx.db
        .insertInto('users')
        .values({ id: newId(), title: name, created: at, changed: at, name, pass_hash: hash })
        .execute();
    }
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });
  beforeEach(async () => {
    await ctx.db.deleteFrom('login_failures').execute();
  });

  it(`stops ${GUESSES} guesses at one account, the right password too, while other users and addresses sign in`, async () => {
    const statuses = new Map<number, number>();
    const width = 10;
    for (let i = 0; i < GUESSES; i += width) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(width, GUESSES - i) }, (_, j) => signIn('alice', `guess ${i + j}`)),
      );
      for (const r of batch) statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
    }
    const checked = statuses.get(400) ?? 0;
    console.log(
      `[${target.dialect}] ${GUESSES} guesses at one account: ${checked} checked (400), ${statuses.get(429) ?? 0} refused unchecked (429)`,
    );
    // Only the first few guesses ever reach the password check; all others are 429 with no password work.
    expect(checked).toBeLessThanOrEqual(5);
    expect(statuses.get(429)).toBe(GUESSES - checked);
    expect([...statuses.keys()].sort()).toEqual(checked > 0 ? [400, 429] : [429]);
    // Guesses that arrive while others are being checked are turned away too, so fewer than five may have been
    // checked: top up one at a time until the lock holds (each top-up is a checked failure).
    let topUps = 0;
    while (checked + topUps < 5 && (await signIn('alice', `top-up ${topUps}`)).statusCode === 400) topUps += 1;

    // While held back, the right password is refused too from the guessing address; the owner, signing in from
    // another address, is not locked out by a stranger's guesses (the username's own limit is four times higher).
    const right = await signIn('alice', PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(20);
    const rowsBefore = await ctx.db.selectFrom('login_failures').select('throttle_key').execute();
    expect(rowsBefore.filter((r) => r.throttle_key === 'pair:alice|203.0.113.7')).toHaveLength(checked + topUps);
    expect((await signIn('alice', PASSWORD, '198.51.100.20')).statusCode).toBe(200);
    expect((await signIn('alice', PASSWORD)).statusCode).toBe(429);
    // Another user from the same address, and another from another address, sign in at once.
    expect((await signIn('bob', PASSWORD)).statusCode).toBe(200);
    expect((await signIn('carol', PASSWORD, '198.51.100.21')).statusCode).toBe(200);
    // Refused guesses leave no rows: the table holds the checked failures only.
    const rows = await ctx.db.selectFrom('login_failures').select('throttle_key').execute();
    expect(rows.filter((r) => r.throttle_key === 'pair:alice|203.0.113.7')).toHaveLength(checked + topUps);
  }, 240_000);

  it('answers an unknown user and a wrong password with the same bytes, after the same password work', async () => {
    const wrong = await signIn('timing', 'not the password');
    const unknown = await signIn('nobody-by-this-name', 'not the password');
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
    const headers = (h: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'content-length', 'x-request-id'].includes(k)));
    expect(headers(unknown.headers)).toEqual(headers(wrong.headers));
    expect(unknown.rawPayload.equals(wrong.rawPayload)).toBe(true);

    // Timing: interleaved samples, so load on this shared machine hits both alike; medians compared.
    const sample = async (username: string) => {
      await ctx.db.deleteFrom('login_failures').execute();
      const t0 = process.hrtime.bigint();
      const r = await signIn(username, 'not the password', '192.0.2.50');
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      expect(r.statusCode).toBe(400);
      return ms;
    };
    const known: number[] = [];
    const absent: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      known.push(await sample('timing'));
      absent.push(await sample(`nobody-${i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratio = median(absent) / median(known);
    console.log(
      `[${target.dialect}] sign-in timing, median of 15: wrong password ${median(known).toFixed(1)} ms, unknown user ${median(absent).toFixed(1)} ms, ratio ${ratio.toFixed(2)}`,
    );
    expect(ratio).toBeGreaterThan(1 / RATIO);
    expect(ratio).toBeLessThan(RATIO);
    // Both did a full Argon2id check: slower than a refusal without one (a locked account's 429).
    for (let i = 0; i < 5; i += 1) await signIn('timing', `lock ${i}`, '192.0.2.51');
    const t0 = process.hrtime.bigint();
    expect((await signIn('timing', 'x', '192.0.2.51')).statusCode).toBe(429);
    const lockedMs = Number(process.hrtime.bigint() - t0) / 1e6;
    expect(median(absent)).toBeGreaterThan(lockedMs);
  }, 120_000);

  it('refuses tampered access and refresh tokens', async () => {
    const r = await signIn('bob', PASSWORD, '198.51.100.30');
    expect(r.statusCode).toBe(200);
    const { access_token: access, refresh_token: refresh } = r.json() as {
      access_token: string;
      refresh_token: string;
    };
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    const debug = (token: string) =>
      app.inject({ method: 'GET', url: '/oauth/debug?_format=json', headers: { authorization: `Bearer ${token}` } });
    expect((await debug(access)).statusCode).toBe(200);
    for (const bad of [flip(access, 0), flip(access, access.length - 1), `${access}A`, access.slice(0, -1)]) {
      const res = await debug(bad);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    for (const bad of [flip(refresh, 0), flip(refresh, refresh.length - 1), access]) {
      const res = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: 'portal-web',
          refresh_token: bad,
        }).toString(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_grant' });
    }
    // The real ones still work: the refusals were about the tampering.
    expect((await debug(access)).statusCode).toBe(200);
  });
});
