import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { newId } from '../lib/time.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { hashPassword } from '../users/passwords.js';
import { ensureOAuthClients } from './clients.js';
import { firstLink, startTestSmtpServer, type TestSmtpServer } from '../mail/test-smtp.js';

const T0 = '2026-10-10T14:00:00.000Z';
const PASSWORD = 'pecans are great';

describeEachDatabase('login throttling', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  const clock = fixedClock(T0);

  const signIn = (username: string, password: string, ip = '203.0.113.7') =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: ip,
      payload: new URLSearchParams({ grant_type: 'password', client_id: 'portal-web', username, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const failures = async () =>
    (await ctx.db.selectFrom('login_failures').select('throttle_key').execute()).map((r) => r.throttle_key);

  beforeAll(async () => {
    // Defaults from the configuration: 5 failures, 900 s lockout.
    // No web app: these tests are about the API only (and a built web/dist must not change them).
    smtp = await startTestSmtpServer();
    ctx = await createTestContext(target, {
      clock,
      config: { webDist: '/nonexistent', smtpUrl: smtp.url, publicUrl: 'http://portal.test' },
    });
    await ensureOAuthClients(ctx.db, clock);
    for (const name of ['alice', 'bob', 'carol', 'dave']) {
      await ctx.db
        .insertInto('users')
        .values({
          id: newId(),
          title: name,
          created: T0,
          changed: T0,
          name,
          pass_hash: await hashPassword(PASSWORD),
          mail: `${name}@example.com`,
          mail_verified_at: T0,
        })
        .execute();
    }
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    clock.set(T0);
    await ctx.db.deleteFrom('login_failures').execute();
    await ctx.db.deleteFrom('account_tokens').execute();
  });

  it('holds back one address guessing one account with growing delays; the owner elsewhere still signs in', async () => {
    for (let i = 0; i < 5; i += 1) {
      clock.advance(10);
      expect((await signIn('alice', `wrong ${i}`)).statusCode).toBe(400);
    }
    clock.advance(10);
    const refused = await signIn('alice', 'wrong again');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('20');
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.json()).toEqual({ error: 'too_many_requests', error_description: expect.stringContaining('20') });
    // Refused attempts are not counted, so the wait does not extend itself.
    expect((await failures()).filter((k) => k === 'pair:alice|203.0.113.7')).toHaveLength(5);
    expect((await signIn('ALICE', PASSWORD)).statusCode).toBe(429);
    // The owner, from another address, is not held back by the stranger's guesses.
    expect((await signIn('alice', PASSWORD, '198.51.100.44')).statusCode).toBe(200);
    // Another user, from the same address, still signs in.
    expect((await signIn('bob', PASSWORD)).statusCode).toBe(200);
    // Each further failure doubles the wait: 30, 60, 120 seconds ... up to the lockout (900).
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      clock.advance(Number((await signIn('alice', 'x')).headers['retry-after'] ?? 0));
      expect((await signIn('alice', `wrong again ${i}`)).statusCode).toBe(400);
      waits.push(Number((await signIn('alice', 'x')).headers['retry-after']));
    }
    expect(waits).toEqual([60, 120, 240, 480, 900, 900]);
  });

  it("clears the username's failures on success but keeps the address's", async () => {
    for (let i = 0; i < 4; i += 1) expect((await signIn('carol', 'wrong')).statusCode).toBe(400);
    expect((await signIn('carol', PASSWORD)).statusCode).toBe(200);
    const keys = await failures();
    expect(keys.filter((k) => k === 'user:carol' || k.startsWith('pair:carol|'))).toHaveLength(0);
    expect(keys.filter((k) => k === 'ip:203.0.113.7')).toHaveLength(4);
    // Four more failures do not hold carol back: the count started again.
    for (let i = 0; i < 4; i += 1) expect((await signIn('carol', 'wrong')).statusCode).toBe(400);
    expect((await signIn('carol', PASSWORD)).statusCode).toBe(200);
  });

  it('guessing one account from many addresses holds it back everywhere, and mails its owner an unlock link', async () => {
    for (let i = 0; i < 20; i += 1) expect((await signIn('dave', 'wrong', `192.0.2.${100 + i}`)).statusCode).toBe(400);
    expect((await signIn('dave', PASSWORD, '198.51.100.60')).statusCode).toBe(429);
    const mail = await smtp.waitFor((m) => m.to.includes('dave@example.com'));
    expect(mail.subject).toBe('Sign-in to your Handler Portal account was held back');
    const link = new URL(firstLink(mail));
    expect(link.pathname).toBe('/unlock');
    const unlock = (token: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/account/unlock',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ token }),
      });
    expect((await unlock('forged')).statusCode).toBe(400);
    // More failures while the link is live send no second mail.
    expect((await signIn('dave', 'wrong', '192.0.2.200')).statusCode).toBe(429);
    expect((await unlock(link.searchParams.get('token'))).statusCode).toBe(204);
    expect((await unlock(link.searchParams.get('token'))).statusCode).toBe(400);
    expect((await signIn('dave', PASSWORD, '198.51.100.60')).statusCode).toBe(200);
    expect(smtp.messages.filter((m) => m.to.includes('dave@example.com'))).toHaveLength(1);
  });

  it('holds back an address after four times as many failures, across usernames', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect((await signIn(`guess${i}`, 'wrong', '198.51.100.9')).statusCode).toBe(400);
    }
    const refused = await signIn('dave', PASSWORD, '198.51.100.9');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(30);
    expect((await signIn('dave', PASSWORD, '198.51.100.10')).statusCode).toBe(200);
  });

  it('counts only failures close together, and deletes old rows', async () => {
    for (let i = 0; i < 4; i += 1) expect((await signIn('alice', 'wrong')).statusCode).toBe(400);
    clock.advance(3601);
    for (let i = 0; i < 4; i += 1) expect((await signIn('alice', 'wrong')).statusCode).toBe(400);
    expect((await signIn('alice', PASSWORD)).statusCode).toBe(200);
    clock.advance(7201);
    expect((await signIn('nobody', 'wrong')).statusCode).toBe(400);
    expect(await failures()).toEqual(expect.arrayContaining(['user:nobody']));
    expect((await failures()).filter((k) => k === 'user:alice' || k === 'ip:203.0.113.7')).toHaveLength(1);
  });

  it('lets only a few of a parallel burst of guesses through', async () => {
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn('bob', `wrong ${i}`, '192.0.2.1')));
    const checked = burst.filter((r) => r.statusCode === 400).length;
    // Every attempt writes its failure before reading the counts, so at most the limit can pass the check (possibly
    // none: attempts in flight count against each other).
    expect(checked).toBeLessThanOrEqual(5);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(30 - checked);
    // Refused attempts leave no rows behind; checked ones count as failures.
    expect((await failures()).filter((k) => k === 'pair:bob|192.0.2.1')).toHaveLength(checked);
  });
});
