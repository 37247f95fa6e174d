import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { newId } from '../lib/time.js';
import { createTestContext, describeEachDatabase, type TestContext } from '../test-support/databases.js';
import { hashPassword, needsRehash, verifyPassword } from '../users/passwords.js';
import { ensureOAuthClients } from './clients.js';

// hashPassword is wrapped so one test can make the rehash fail; everything else runs the real code.
vi.mock('../users/passwords.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../users/passwords.js')>();
  return { ...actual, hashPassword: vi.fn(actual.hashPassword) };
});

/**
 * Users whose password was stored as scrypt (before docs/decisions/0004) sign in through the real token endpoint and
 * come out with an Argon2id hash; a wrong password changes nothing; a rehash that fails does not fail the sign-in.
 */
const PASSWORD = 'demo-pecans-2026';
/** The former hashPassword's output for PASSWORD (scrypt, N=2^15, r=8, p=1). */
const SCRYPT_HASH = 'scrypt$32768$8$1$iZA27HxpObcjaeHz4INFpQ$PW3hZ03ccAlchjLya6GcMPQugflX7hd58pCukas25GA';

describeEachDatabase('password rehash at sign-in', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;

  const signIn = (username: string, password: string) =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'password', client_id: 'portal-web', username, password }).toString(),
    });
  const storedHash = async (name: string) =>
    (await ctx.db.selectFrom('users').select('pass_hash').where('name', '=', name).executeTakeFirstOrThrow()).pass_hash;

  beforeAll(async () => {
    ctx = await createTestContext(target, { config: { webDist: '/nonexistent' } });
    await ensureOAuthClients(ctx.db, ctx.clock);
    const at = new Date().toISOString();
    for (const name of ['olduser', 'wrongpass', 'unlucky']) {
      await ctx.db
        .insertInto('users')
        .values({ id: newId(), title: name, created: at, changed: at, name, pass_hash: SCRYPT_HASH })
        .execute();
    }
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  it('signs in a user with a scrypt hash and stores an Argon2id hash of the same password', async () => {
    const first = await signIn('olduser', PASSWORD);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ token_type: 'Bearer' });
    const rehashed = await storedHash('olduser');
    expect(rehashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(needsRehash(rehashed as string)).toBe(false);
    expect(await verifyPassword(PASSWORD, rehashed)).toBe(true);

    // The next sign-in checks the Argon2id hash and leaves it as it is.
    const second = await signIn('olduser', PASSWORD);
    expect(second.statusCode).toBe(200);
    expect(await storedHash('olduser')).toBe(rehashed);
    expect((await signIn('olduser', 'not the password')).statusCode).toBe(400);
  });

  it('keeps the scrypt hash after a wrong password', async () => {
    const res = await signIn('wrongpass', 'not the password');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await storedHash('wrongpass')).toBe(SCRYPT_HASH);
  });

  it('answers a wrong password for an account still on scrypt no sooner than one for an unknown name: both wait at least 250 ms', async () => {
    // Without the floor the scrypt account answers about 8 times later than an unknown name (Argon2id's dummy check)
    // and so tells that it exists. Lower bounds only: how much later a busy machine answers is not the point.
    for (const username of ['wrongpass', 'nobody-by-this-name']) {
      const started = performance.now();
      const res = await signIn(username, 'not the password');
      expect(res.statusCode).toBe(400);
      expect(performance.now() - started).toBeGreaterThanOrEqual(245);
    }
  });

  it('still signs in when the rehash fails, and rehashes on a later sign-in', async () => {
    vi.mocked(hashPassword).mockClear().mockRejectedValueOnce(new Error('no memory for a hash'));
    const res = await signIn('unlucky', PASSWORD);
    expect(hashPassword).toHaveBeenCalledTimes(1);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('access_token');
    expect(await storedHash('unlucky')).toBe(SCRYPT_HASH);

    expect((await signIn('unlucky', PASSWORD)).statusCode).toBe(200);
    expect(await storedHash('unlucky')).toMatch(/^\$argon2id\$/);
  });
});
