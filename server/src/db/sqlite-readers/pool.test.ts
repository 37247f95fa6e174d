import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../database.js';
import { SqliteReaderPool } from './pool.js';

/**
 * Counts to `n` in SQLite, folding every number's text as a text match does (jsonapi/fold.ts): a statement that keeps
 * a thread busy for as long as asked, and calls into JavaScript at every row, where a terminated thread stops.
 */
const countTo = (n: number) =>
  `with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n}) select count(*) as n from c where portal_fold('n' || x) = 'never'`;

describe('SQLite reader threads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'readers-'));
  const path = join(dir, 'readers.sqlite');
  let database: Database;
  beforeAll(async () => {
    database = openDatabase({ url: `sqlite:${path}` });
    await database.db.schema.createTable('t').addColumn('n', 'integer').execute();
    await database.db
      .insertInto('t')
      .values([{ n: 1 }, { n: 2 }])
      .execute();
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads what the server committed, on threads started when asked', async () => {
    const pool = new SqliteReaderPool(path, 1, 10_000);
    try {
      expect(pool.threads).toBe(0);
      await pool.start();
      expect(await pool.run('select n from t where n > ? order by n', [0])).toEqual([{ n: 1 }, { n: 2 }]);
      expect(pool.threads).toBe(1);
      await database.db.insertInto('t').values({ n: 3 }).execute();
      expect(await pool.run('select count(*) as c from t', [])).toEqual([{ c: 3 }]);
    } finally {
      await pool.close();
    }
  });

  it('stops a statement past the budget with SQLITE_INTERRUPT and serves on with a new thread', async () => {
    const pool = new SqliteReaderPool(path, 1, 300);
    try {
      await pool.start();
      const started = Date.now();
      await expect(pool.run(countTo(1e10), [])).rejects.toMatchObject({ code: 'SQLITE_INTERRUPT' });
      expect(Date.now() - started).toBeLessThan(2000);
      await pool.start();
      expect(await pool.run('select n from t order by n limit 1', [])).toEqual([{ n: 1 }]);
    } finally {
      await pool.close();
    }
  });

  it('answers a statement that waited past the budget behind a busy thread with SQLITE_INTERRUPT too', async () => {
    const pool = new SqliteReaderPool(path, 1, 300);
    try {
      await pool.start();
      const [busy, waiting] = await Promise.allSettled([pool.run(countTo(1e10), []), pool.run('select 1 as one', [])]);
      expect(busy).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_INTERRUPT' } });
      expect(waiting).toMatchObject({
        status: 'rejected',
        reason: { code: 'SQLITE_INTERRUPT', message: expect.stringMatching(/busy/) },
      });
      await pool.start();
      expect(await pool.run('select 1 as one', [])).toEqual([{ one: 1 }]);
    } finally {
      await pool.close();
    }
  });

  it('replaces a thread that died, failing only the statement it ran', async () => {
    const pool = new SqliteReaderPool(path, 1, 10_000);
    try {
      await pool.start();
      const running = pool.run(countTo(1e10), []);
      // The thread dies under its statement (as from a fault in the driver): terminate it from outside.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await (
        pool as unknown as { slots: Array<{ worker: { terminate(): Promise<number> } }> }
      ).slots[0].worker.terminate();
      await expect(running).rejects.toMatchObject({ code: 'SQLITE_INTERRUPT' });
      await pool.start();
      expect(await pool.run('select count(*) as c from t', [])).toEqual([{ c: 3 }]);
      expect(pool.threads).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('refuses a write and passes SQLite errors on', async () => {
    const pool = new SqliteReaderPool(path, 1, 10_000);
    try {
      await expect(pool.run('insert into t (n) values (?)', [9])).rejects.toThrow();
      await expect(pool.run('select nope from t', [])).rejects.toMatchObject({ code: 'SQLITE_ERROR' });
      expect(await pool.run('select count(*) as c from t', [])).toEqual([{ c: 3 }]);
    } finally {
      await pool.close();
    }
  });
});
