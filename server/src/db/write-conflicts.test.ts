import { randomInt } from 'node:crypto';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling, RETRY_AFTER_SECONDS } from '../plugins/errors.js';
import { createTestContext, testDatabases, type TestContext } from '../test-support/databases.js';
import type { Db } from './database.js';

const postgres = testDatabases().find((t) => t.dialect === 'postgres');

/** Resolves once `count` callers have arrived: each side of a race takes its first step before either its second. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === count) release();
    return all;
  };
}

/**
 * Two writes PostgreSQL refuses to run together: a deadlock (40P01) or a serialization failure (40001). Either rolls
 * its transaction back whole and the same request again goes through: 503 with Retry-After, never a 500.
 */
describe.skipIf(!postgres)('writes PostgreSQL gives up on [postgres]', () => {
  let ctx: TestContext;
  const app = Fastify({ logger: false });

  /** Each transaction locks its first key, waits for the other to do the same, then wants the other's. */
  async function deadlock(db: Db): Promise<void> {
    const [first, second] = [randomInt(2 ** 40), randomInt(2 ** 40)];
    const bothHoldOne = barrier(2);
    const lockInOrder = (keys: number[]) =>
      db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${keys[0]}::bigint)`.execute(trx);
        await bothHoldOne();
        await sql`select pg_advisory_xact_lock(${keys[1]}::bigint)`.execute(trx);
      });
    await Promise.all([lockInOrder([first, second]), lockInOrder([second, first])]);
  }

  /** Repeatable read: a transaction updates a row another committed a change to after its snapshot was taken. */
  async function serializationFailure(db: Db): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await sql`set transaction isolation level repeatable read`.execute(trx);
      await sql`select n from write_probe`.execute(trx);
      await sql`update write_probe set n = n + 1`.execute(db);
      await sql`update write_probe set n = n + 1`.execute(trx);
    });
  }

  beforeAll(async () => {
    ctx = await createTestContext(postgres!);
    await sql`create table write_probe (n int)`.execute(ctx.db);
    await sql`insert into write_probe values (0)`.execute(ctx.db);
    registerErrorHandling(app);
    app.post('/deadlock', async () => deadlock(ctx.db));
    app.post('/serialization', async () => serializationFailure(ctx.db));
  });
  afterAll(async () => {
    await app.close();
    await ctx?.close();
  });

  it.each(['/deadlock', '/serialization'])('answers %s with 503 and Retry-After', async (url) => {
    const r = await app.inject({ method: 'POST', url });
    expect(r.statusCode, r.body).toBe(503);
    expect(r.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(r.json().errors[0]).toMatchObject({ status: '503', title: 'Service Unavailable' });
  });
});
