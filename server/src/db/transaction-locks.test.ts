import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, testDatabases, type TestContext } from '../test-support/databases.js';
import { lockForTransaction } from './transaction-locks.js';

const postgres = testDatabases().find((t) => t.dialect === 'postgres');

/**
 * Advisory locks belong to the whole PostgreSQL database, and one database may hold several portals' schemas (every
 * test file has one; the benchmark's data sits beside them). A lock name is the portal's own: `period:2026-11` taken
 * in one schema must not make a write in another wait. Found when a test's demo data deadlocked on its period locks
 * against the benchmark's generator filing in another schema.
 */
describe.skipIf(!postgres)('transaction locks [postgres]', () => {
  let one: TestContext;
  let other: TestContext;
  beforeAll(async () => {
    [one, other] = await Promise.all([createTestContext(postgres!), createTestContext(postgres!)]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), other?.close()]);
  });

  /** Takes `name` in a transaction of `ctx`, giving up after 2 s of waiting (55P03) instead of hanging the test. */
  const takeWithin2s = (ctx: TestContext, name: string) =>
    ctx.db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '2s'`.execute(trx);
      await lockForTransaction(trx, 'postgres', [name]);
    });

  it("does not wait for a lock of the same name held in another portal's schema", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken: () => void = () => undefined;
    const isTaken = new Promise<void>((resolve) => (taken = resolve));
    const holder = one.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, 'postgres', ['period:2026-11']);
      taken();
      await held;
    });
    await isTaken;
    try {
      await expect(takeWithin2s(other, 'period:2026-11')).resolves.toBeUndefined();
      // In its own schema the same name still waits: the lock still does its work.
      await expect(takeWithin2s(one, 'period:2026-11')).rejects.toMatchObject({ code: '55P03' });
    } finally {
      release();
      await holder;
    }
  });
});
