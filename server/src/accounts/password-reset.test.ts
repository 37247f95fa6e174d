import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { firstLink, startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from '../mail/test-smtp.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { json, PASSWORD, passwordSignIn, PUBLIC_URL, seedAccounts } from '../test-support/accounts-fixture.js';

const INVALID = 'This password reset link is invalid or has expired: ask for a new one.';

describeEachDatabase('password reset', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  const clock = fixedClock('2026-11-22T12:00:00Z');
  let ipCounter = 0;
  const freshIp = () => `203.0.113.${++ipCounter}`;
  const ask = (email: unknown, ip = freshIp()) => json(app, 'POST', '/api/password-reset', { body: { email }, ip });
  const confirm = (token: unknown, password: unknown) =>
    json(app, 'POST', '/api/password-reset/confirm', { body: { token, password } });
  const debug = (token: string) =>
    app.inject({ method: 'GET', url: '/oauth/debug?_format=json', headers: { authorization: `Bearer ${token}` } });
  const tokenOf = (mail: ReceivedMail): string => {
    const link = new URL(firstLink(mail));
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/resetpassword`);
    return link.searchParams.get('token') as string;
  };
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    ctx = await createTestContext(target, { clock, config: { publicUrl: PUBLIC_URL, smtpUrl: smtp.url } });
    await seedAccounts(ctx);
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    await smtp?.close();
  });

  it('mails a single-use link; confirming sets the password and ends every earlier session', async () => {
    const sessions = [await passwordSignIn(app, 'alice', PASSWORD), await passwordSignIn(app, 'alice', PASSWORD)].map(
      (r) => r.json(),
    );
    for (const s of sessions) expect((await debug(s.access_token)).statusCode).toBe(200);

    const unknown = await ask('nobody@example.com');
    const known = await ask('Alice@Example.com');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);

    const mail = await smtp.waitFor((m) => m.to.includes('alice@example.com'));
    expect(mail.subject).toBe('Reset your Handler Portal password');
    expect(mail.text).toContain('expires in 60 minutes');
    const token = tokenOf(mail);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/resetpassword?token=${token}"`);
    // Only the token's SHA-256 is stored, with a one-hour expiry.
    const rows = await ctx.db.selectFrom('password_reset_tokens').selectAll().execute();
    expect(rows).toEqual([
      expect.objectContaining({
        token_hash: createHash('sha256').update(token).digest('hex'),
        expires_at: '2026-11-22T13:00:00+00:00',
        used_at: null,
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);

    // A weak password is a 422 on the password, and leaves the link usable.
    const weak = await confirm(token, 'short');
    expect(weak.status).toBe(422);
    expect(weak.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/password',
    ]);

    const done = await confirm(token, 'a-brand-new-password');
    expect(done.status, JSON.stringify(done.body)).toBe(204);
    for (const s of sessions) {
      expect((await debug(s.access_token)).statusCode).toBe(401);
      const refresh = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: 'portal-web',
          refresh_token: s.refresh_token,
        }).toString(),
      });
      expect(refresh.statusCode).toBe(400);
    }
    expect((await passwordSignIn(app, 'alice', PASSWORD)).statusCode).toBe(400);
    expect((await passwordSignIn(app, 'alice', 'a-brand-new-password')).statusCode).toBe(200);

    // Used once only.
    const again = await confirm(token, 'yet-another-password');
    expect(again.status).toBe(400);
    expect(again.body.errors[0].detail).toBe(INVALID);
    expect(mailsTo('nobody@example.com')).toEqual([]);
  });

  it('refuses unknown, malformed and expired links with 400', async () => {
    for (const token of ['nope', '', undefined, 12, 'x'.repeat(500)]) {
      const r = await confirm(token, 'a-good-long-password');
      expect(r.status, String(token)).toBe(400);
      expect(r.body.errors[0].detail).toBe(INVALID);
    }
    expect((await ask('bob@example.com')).status).toBe(202);
    const token = tokenOf(await smtp.waitFor((m) => m.to.includes('bob@example.com')));
    clock.advance(3601);
    expect((await confirm(token, 'a-good-long-password')).status).toBe(400);
    expect((await passwordSignIn(app, 'bob', PASSWORD)).statusCode).toBe(200);
  });

  it('sends nothing to accounts that are not active, and answers the same', async () => {
    await ctx.db.updateTable('users').set({ status: 'blocked' }).where('name', '=', 'carol').execute();
    try {
      const r = await ask('carol@example.com');
      expect(r.status).toBe(202);
      expect(r.body).toEqual({ status: 'accepted' });
      // A later mail to someone else arrives; none went to carol meanwhile.
      await ask('staff@example.com');
      await smtp.waitFor((m) => m.to.includes('staff@example.com'));
      expect(mailsTo('carol@example.com')).toEqual([]);
    } finally {
      await ctx.db.updateTable('users').set({ status: 'active' }).where('name', '=', 'carol').execute();
    }
  });

  it('refuses a malformed address with 422', async () => {
    for (const email of ['not-an-address', 42, undefined]) {
      const r = await ask(email);
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe('/data/attributes/email');
    }
  });

  it('limits requests per client address (429) and mails per e-mail address (silently)', async () => {
    clock.advance(7200);
    const before = mailsTo('carol@example.com').length;
    for (let i = 0; i < 5; i += 1) expect((await ask('carol@example.com')).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await smtp.waitFor(() => mailsTo('carol@example.com').length >= before + 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo('carol@example.com').length).toBe(before + 3);

    const ip = '198.51.100.50';
    for (let i = 0; i < ctx.config.passwordResetsPerHour; i += 1)
      expect((await ask(`x${i}@example.com`, ip)).status).toBe(202);
    const limited = await ask('bob@example.com', ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
