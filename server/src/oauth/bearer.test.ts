import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { countQueries } from '../db/database.js';
import { newId } from '../lib/time.js';
import { ensureOAuthClients } from './clients.js';
import { startFamily } from './tokens.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { authenticate, authenticateSession, bearerToken, revokeUserSessions } from './bearer.js';
import { ApiError } from '../lib/errors.js';

const T0 = '2026-10-10T14:00:00.000Z';
const request = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as FastifyRequest;

describeEachDatabase('bearer authentication', (target) => {
  let ctx: TestContext;
  const clock = fixedClock(T0);
  const ids: Record<string, string> = {};

  const signIn = async (userId: string) =>
    (
      await startFamily(ctx.db, { userId, clientId: 'portal-web', scope: null }, clock.now(), {
        access: 300,
        refresh: 43200,
      })
    ).accessToken;
  const rejection = async (authorization?: string): Promise<ApiError> => {
    const error = await authenticate(ctx, request(authorization)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  };

  beforeAll(async () => {
    ctx = await createTestContext(target, { clock });
    await ensureOAuthClients(ctx.db, clock);
    await ctx.db
      .insertInto('handlers')
      .values({ id: 'h1', title: 'Pecan Co', created: T0, changed: T0, handler_number: '101' })
      .execute();
    for (const [name, role, handler] of [
      ['alice', 'handler', 'h1'],
      ['sam', 'staff', null],
      ['eve', 'handler', 'h1'],
    ]) {
      ids[name as string] = newId();
      await ctx.db
        .insertInto('users')
        .values({ id: ids[name as string], title: name, created: T0, changed: T0, name, role, handler_id: handler })
        .execute();
    }
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(() => clock.set(T0));

  it('returns the viewer in one query', async () => {
    const token = await signIn(ids.alice);
    const { result, queries } = await countQueries(() => authenticate(ctx, request(`Bearer ${token}`)));
    expect(result).toEqual({ userId: ids.alice, name: 'alice', role: 'handler', handlerId: 'h1' });
    expect(queries).toBe(1);
    expect(await authenticate(ctx, request(`bearer ${token}`))).toMatchObject({ userId: ids.alice });
    expect(await authenticate(ctx, request(`Bearer ${await signIn(ids.sam)}`))).toEqual({
      userId: ids.sam,
      name: 'sam',
      role: 'staff',
      handlerId: null,
    });
  });

  it("never reads a write transaction's uncommitted data version (a rollback would take it back)", async () => {
    const token = await signIn(ids.alice);
    const committed = (await authenticateSession(ctx, request(`Bearer ${token}`))).dataVersion;
    let during: Promise<number> | undefined;
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('handlers').set({ changed: '2026-10-10T15:00:00.000Z' }).where('id', '=', 'h1').execute();
        // Another request's bearer check while the write is open, then the write fails.
        during = authenticateSession(ctx, request(`Bearer ${token}`)).then((s) => s.dataVersion);
        await new Promise((resolve) => setTimeout(resolve, 10));
        throw new Error('the write fails');
      })
      .catch(() => undefined);
    expect(await during).toBe(committed);
    expect((await authenticateSession(ctx, request(`Bearer ${token}`))).dataVersion).toBe(committed);
  });

  it('refuses missing, malformed, unknown and expired tokens with 401 and WWW-Authenticate: Bearer', async () => {
    const token = await signIn(ids.alice);
    for (const header of [
      undefined,
      token,
      `Basic ${token}`,
      'Bearer',
      'Bearer not-a-token',
      `Bearer ${token} extra`,
    ]) {
      const error = await rejection(header);
      expect(error.status).toBe(401);
      expect(error.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    }
    clock.advance(300);
    await rejection(`Bearer ${token}`);
  });

  it('stops working when the user is blocked', async () => {
    const token = await signIn(ids.eve);
    await ctx.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', ids.eve).execute();
    await rejection(`Bearer ${token}`);
    await ctx.db.updateTable('users').set({ status: 'active' }).where('id', '=', ids.eve).execute();
    expect(await authenticate(ctx, request(`Bearer ${token}`))).toMatchObject({ userId: ids.eve });
  });

  it('revokeUserSessions ends every session of that user only', async () => {
    const a1 = await signIn(ids.alice);
    const a2 = await signIn(ids.alice);
    const s = await signIn(ids.sam);
    await revokeUserSessions(ctx.db, ids.alice, clock.now());
    await rejection(`Bearer ${a1}`);
    await rejection(`Bearer ${a2}`);
    expect(await authenticate(ctx, request(`Bearer ${s}`))).toMatchObject({ userId: ids.sam });
    // A new sign-in after the revocation works.
    expect(await authenticate(ctx, request(`Bearer ${await signIn(ids.alice)}`))).toMatchObject({ userId: ids.alice });
  });

  it('parses bearer headers strictly', () => {
    expect(bearerToken(request('Bearer abc-_.~+/=='))).toBe('abc-_.~+/==');
    expect(bearerToken(request('Bearer a b'))).toBeNull();
    expect(bearerToken(request('Bearerabc'))).toBeNull();
  });
});
