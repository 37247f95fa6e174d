import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { firstLink, startTestSmtpServer, type TestSmtpServer } from '../mail/test-smtp.js';
import { staffCode } from '../test-support/api.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { json, PASSWORD, passwordSignIn, PUBLIC_URL, seedAccounts } from '../test-support/accounts-fixture.js';

const FIELDS = ['email', 'handler_number', 'name', 'password', 'username'];
const pointers = (body: { errors: Array<{ source?: { pointer?: string } }> }) =>
  body.errors.map((e) => e.source?.pointer).sort();

describeEachDatabase('account requests (sign-up)', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  const clock = fixedClock('2026-11-22T12:00:00Z');
  let handlers: Record<string, string>;
  let ipCounter = 0;
  /** Each request from its own address unless a test is about the per-address limit. */
  const freshIp = () => `203.0.113.${++ipCounter}`;
  const staffToken = async () =>
    (await passwordSignIn(app, 'staff', PASSWORD, await staffCode(ctx))).json().access_token as string;
  const aliceToken = async () => (await passwordSignIn(app, 'alice', PASSWORD)).json().access_token as string;
  const signUp = (body: unknown, ip = freshIp()) => json(app, 'POST', '/api/account-requests', { body, ip });
  const request = (username: string, extra: Record<string, unknown> = {}) => ({
    name: 'Dana Mary Lopez',
    email: `${username}@handlers.example`,
    username,
    password: 'long-enough-secret',
    handler_number: '101',
    ...extra,
  });

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    ctx = await createTestContext(target, {
      clock,
      config: { publicUrl: PUBLIC_URL, smtpUrl: smtp.url, councilMail: 'council@apc.example' },
    });
    ({ handlers } = await seedAccounts(ctx));
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    await smtp?.close();
  });

  it('refuses bad fields with 422, one error per field pointing at /data/attributes/<field>', async () => {
    const empty = await signUp({});
    expect(empty.status).toBe(422);
    expect(pointers(empty.body)).toEqual(FIELDS.map((f) => `/data/attributes/${f}`));
    for (const e of empty.body.errors)
      expect(e).toMatchObject({ status: '422', title: 'Unprocessable Entity', detail: expect.any(String) });

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: 'not-an-address' }, 'email'],
      [{ email: 42 }, 'email'],
      [{ username: 'a' }, 'username'],
      [{ username: 'has space' }, 'username'],
      [{ password: 'short' }, 'password'],
      [{ password: '          ' }, 'password'],
      [{ handler_number: '999' }, 'handler_number'],
      [{ handler_number: '104' }, 'handler_number'], // inactive handler
      [{ name: '   ' }, 'name'],
    ];
    for (const [override, field] of cases) {
      const r = await signUp(request('dana', override));
      expect(r.status, JSON.stringify(override)).toBe(422);
      expect(pointers(r.body), JSON.stringify(override)).toEqual([`/data/attributes/${field}`]);
    }
    expect((await signUp([1])).status).toBe(400);
    expect(await ctx.db.selectFrom('users').select('id').where('name', '=', 'dana').executeTakeFirst()).toBeUndefined();
  });

  it('creates a pending account that cannot sign in until staff approve it; the approval mail links to the sign-in page', async () => {
    const r = await signUp(request('dana'));
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ status: 'pending' });
    const user = await ctx.db.selectFrom('users').selectAll().where('name', '=', 'dana').executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      status: 'pending',
      role: 'handler',
      handler_id: handlers['101'],
      first_name: 'Dana Mary',
      last_name: 'Lopez',
      mail: 'dana@handlers.example',
    });
    expect(user.pass_hash).toMatch(/^\$argon2id\$/);
    const notice = await smtp.waitFor((m) => m.to.includes('council@apc.example') && m.text.includes('dana'));
    expect(firstLink(notice)).toBe(`${PUBLIC_URL}/dashboard/council/account-requests`);

    const refused = await passwordSignIn(app, 'dana', 'long-enough-secret');
    expect(refused.statusCode).toBe(400);
    // The applicant (who knows the password) learns the request still waits; anyone else gets the usual answer.
    expect(refused.json().error).toBe('account_pending');
    expect((await passwordSignIn(app, 'dana', 'not-the-password')).json().error).toBe('invalid_grant');

    // Only staff see and decide requests.
    const alice = await aliceToken();
    expect((await json(app, 'GET', '/api/council/account-requests')).status).toBe(401);
    expect((await json(app, 'GET', '/api/council/account-requests', { token: alice })).status).toBe(403);
    expect((await json(app, 'POST', `/api/council/account-requests/${user.id}/approve`)).status).toBe(401);
    expect((await json(app, 'POST', `/api/council/account-requests/${user.id}/approve`, { token: alice })).status).toBe(
      403,
    );
    expect(
      (await json(app, 'POST', `/api/council/account-requests/${user.id}/refuse`, { token: alice, body: {} })).status,
    ).toBe(403);

    const staff = await staffToken();
    const list = await json(app, 'GET', '/api/council/account-requests', { token: staff });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: user.id,
        username: 'dana',
        name: 'Dana Mary Lopez',
        email: 'dana@handlers.example',
        handler_number: '101',
        handler_name: 'Riverbend Pecan Co.',
        requested: '2026-11-22T12:00:00+00:00',
      }),
    ]);

    const approved = await json(app, 'POST', `/api/council/account-requests/${user.id}/approve`, { token: staff });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toEqual({ id: user.id, username: 'dana', status: 'active', mail_sent: true });
    const mail = await smtp.waitFor((m) => m.to.includes('dana@handlers.example') && m.subject.includes('approved'));
    expect(mail.subject).toBe('Your Handler Portal account is approved');
    expect(mail.text).toContain('Hello Dana Mary,');
    expect(mail.text).toContain('dana');
    expect(mail.html).toContain(`<a href="${PUBLIC_URL}/signin">`);
    const link = firstLink(mail);
    expect(link).toBe(`${PUBLIC_URL}/signin`);

    expect((await passwordSignIn(app, 'dana', 'long-enough-secret')).statusCode).toBe(200);
    expect((await json(app, 'GET', '/api/council/account-requests', { token: staff })).body.data).toEqual([]);
    // Decided once only; unknown ids are 404.
    expect((await json(app, 'POST', `/api/council/account-requests/${user.id}/approve`, { token: staff })).status).toBe(
      409,
    );
    expect(
      (await json(app, 'POST', `/api/council/account-requests/${user.id}/refuse`, { token: staff, body: {} })).status,
    ).toBe(409);
    expect(
      (
        await json(app, 'POST', '/api/council/account-requests/00000000-0000-0000-0000-000000000000/approve', {
          token: staff,
        })
      ).status,
    ).toBe(404);
  });

  it('refuses a request with an optional reason, by e-mail; the account stays unable to sign in', async () => {
    expect((await signUp(request('eve', { name: 'Eve' }))).status).toBe(202);
    const eve = await ctx.db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('name', '=', 'eve')
      .executeTakeFirstOrThrow();
    expect(eve).toMatchObject({ first_name: 'Eve', last_name: '' });
    const staff = await staffToken();
    const bad = await json(app, 'POST', `/api/council/account-requests/${eve.id}/refuse`, {
      token: staff,
      body: { reason: 7 },
    });
    expect(bad.status).toBe(422);
    expect(pointers(bad.body)).toEqual(['/data/attributes/reason']);
    const r = await json(app, 'POST', `/api/council/account-requests/${eve.id}/refuse`, {
      token: staff,
      body: { reason: 'Not an employee of handler 101.' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'refused', mail_sent: true });
    const mail = await smtp.waitFor((m) => m.to.includes('eve@handlers.example') && m.text.includes('Not an employee'));
    expect(mail.text).toContain('Not an employee of handler 101.');
    expect(
      (await ctx.db.selectFrom('users').select('status').where('id', '=', eve.id).executeTakeFirstOrThrow()).status,
    ).toBe('refused');
    expect((await passwordSignIn(app, 'eve', 'long-enough-secret')).statusCode).toBe(400);
  });

  it('answers the same to a taken username, whatever its case: no account, and the mail to the address given tells', async () => {
    for (const username of ['alice', 'ALICE']) {
      const r = await signUp(request(username, { email: `${username}-new@handlers.example` }));
      expect(r.status).toBe(202);
      expect(r.body).toEqual({ status: 'pending' });
      const mail = await smtp.waitFor((m) => m.to.includes(`${username}-new@handlers.example`));
      expect(mail.text).toContain(`the username ${username}, but that username is taken`);
      expect(firstLink(mail)).toBe(`${PUBLIC_URL}/signup`);
    }
    expect(
      await ctx.db.selectFrom('users').select('id').where('mail', 'like', '%-new@handlers.example').execute(),
    ).toEqual([]);
  });

  it('mails the applicant a link that confirms the address; until then it is not verified', async () => {
    expect((await signUp(request('ivan'))).status).toBe(202);
    const before = await ctx.db
      .selectFrom('users')
      .select(['id', 'mail_verified_at'])
      .where('name', '=', 'ivan')
      .executeTakeFirstOrThrow();
    expect(before.mail_verified_at).toBeNull();
    const mail = await smtp.waitFor((m) => m.to.includes('ivan@handlers.example') && m.subject.startsWith('Confirm'));
    const link = new URL(firstLink(mail) as string);
    expect(link.pathname).toBe('/confirm-email');
    const confirmed = await json(app, 'POST', '/api/account/email/confirm', {
      body: { token: link.searchParams.get('token') },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toEqual({ email: 'ivan@handlers.example' });
    const after = await ctx.db
      .selectFrom('users')
      .select(['status', 'mail_verified_at'])
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ status: 'pending', mail_verified_at: '2026-11-22T12:00:00+00:00' });
    // Single use.
    expect(
      (await json(app, 'POST', '/api/account/email/confirm', { body: { token: link.searchParams.get('token') } }))
        .status,
    ).toBe(400);
  });

  it('answers the same to an address that already has an account, makes no account and tells the owner', async () => {
    const r = await signUp(request('alice2', { email: 'Alice@Example.com' }));
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ status: 'pending' });
    expect(
      await ctx.db.selectFrom('users').select('id').where('name', '=', 'alice2').executeTakeFirst(),
    ).toBeUndefined();
    const mail = await smtp.waitFor((m) => m.to.includes('alice@example.com'));
    expect(mail.subject).toBe('Your Handler Portal account request');
    expect(firstLink(mail)).toBe(`${PUBLIC_URL}/forgotpassword`);
  });

  it('limits sign-ups per client address (invalid ones count too), and the number of pending requests', async () => {
    const ip = '198.51.100.77';
    for (let i = 0; i < ctx.config.accountRequestsPerHour; i += 1) expect((await signUp({}, ip)).status).toBe(422);
    const limited = await signUp(request('frank'), ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await signUp(request('frank'))).status).toBe(202); // another address is not affected

    clock.advance(3601);
    expect((await signUp(request('grace'), ip)).status).toBe(202);

    const pending = await ctx.db.selectFrom('users').select('id').where('status', '=', 'pending').execute();
    ctx.config.accountRequestsMaxPending = pending.length;
    try {
      const full = await signUp(request('heidi'));
      expect(full.status).toBe(429);
      expect(full.body.errors[0].detail).toContain('waiting for the council');
    } finally {
      ctx.config.accountRequestsMaxPending = 200;
    }
  });
});
