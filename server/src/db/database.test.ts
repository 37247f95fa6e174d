import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestContext, describeEachDatabase, testDatabases, type TestContext } from '../test-support/databases.js';
import { migrateToLatest, openDatabase, PG_NAMED_STATEMENT_BYTES, statementBytes } from './database.js';

describeEachDatabase('migrations', (target) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(target);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('creates every table and runs again without doing anything', async () => {
    const tables = await ctx.db.introspection.getTables();
    const names = tables.map((t) => t.name);
    for (const t of [
      'handlers',
      'users',
      'seasons',
      'reporting_periods',
      'reporting_forms_packages',
      'apc_form_1',
      'apc_form_2',
      'apc_form_3',
      'apc_form_4',
      'apc_form_5',
      'invoices',
      'files',
      'handler_packet_confirmations',
    ]) {
      expect(names).toContain(t);
    }
    expect(await migrateToLatest(ctx.db)).toEqual([]);
  });

  it('refuses a second packet confirmation for the same handler and season', async () => {
    const now = '2026-01-01T00:00:00+00:00';
    await ctx.db
      .insertInto('handlers')
      .values({ id: 'h1', title: 'H', created: now, changed: now, handler_number: '1' })
      .execute();
    await ctx.db
      .insertInto('seasons')
      .values({
        id: 's1',
        title: 'S',
        created: now,
        changed: now,
        season_start_date: '2025-09-01',
        season_end_date: '2026-08-31',
        reporting_due_date: '2026-09-10',
      })
      .execute();
    const row = { title: 'c', created: now, changed: now, handler_id: 'h1', season_id: 's1' };
    await ctx.db
      .insertInto('handler_packet_confirmations')
      .values({ id: 'c1', ...row })
      .execute();
    await expect(
      ctx.db
        .insertInto('handler_packet_confirmations')
        .values({ id: 'c2', ...row })
        .execute(),
    ).rejects.toThrow();
    const count = await sql<{ n: number }>`select count(*) as n from handler_packet_confirmations`.execute(ctx.db);
    expect(Number(count.rows[0].n)).toBe(1);
  });
});

describe('SQLite transactions across processes', () => {
  it('take the write lock when they begin, so another process waits for it instead of failing its write (WEB_CONCURRENCY)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-begin-'));
    const url = `sqlite:${join(dir, 'portal.sqlite')}`;
    const database = openDatabase({ url, poolSize: 1 });
    // Another process's connection, with no busy wait: it reports at once whether the lock is free.
    const other = new SQLite(join(dir, 'portal.sqlite'), { timeout: 0 });
    try {
      await sql`create table t (n integer)`.execute(database.db);
      const tryToWrite = () => {
        try {
          other.exec('begin immediate; rollback');
          return 'free';
        } catch (error) {
          return (error as { code?: string }).code;
        }
      };
      expect(tryToWrite()).toBe('free');
      await database.db.transaction().execute(async (trx) => {
        // Only a read so far: a deferred `begin` would hold no write lock yet.
        await sql`select count(*) from t`.execute(trx);
        expect(tryToWrite()).toBe('SQLITE_BUSY');
        await sql`insert into t (n) values (1)`.execute(trx);
      });
      expect(tryToWrite()).toBe('free');
    } finally {
      other.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite planner statistics', () => {
  it('keeps the table statistics and drops the value samples, which made SQLite prepare statements again at every run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-stats-'));
    const file = join(dir, 'portal.sqlite');
    try {
      const first = openDatabase({ url: `sqlite:${file}` });
      await sql`create table t (n integer, k text)`.execute(first.db);
      await sql`create index t_k on t (k)`.execute(first.db);
      await sql`with recursive c(i) as (select 1 union all select i + 1 from c where i < 2000)
        insert into t (n, k) select i, 'k' || (i % 50) from c`.execute(first.db);
      await first.close();
      // What a full ANALYZE leaves (better-sqlite3's SQLite gathers samples too).
      const countIn = (db: SQLite.Database, query: string) => (db.prepare(query).get() as { n: number }).n;
      const raw = new SQLite(file);
      raw.exec('analyze');
      expect(countIn(raw, 'select count(*) as n from sqlite_stat4')).toBeGreaterThan(0);
      raw.close();

      const reopened = openDatabase({ url: `sqlite:${file}` });
      const check = new SQLite(file, { readonly: true });
      try {
        expect(countIn(check, 'select count(*) as n from sqlite_stat4')).toBe(0);
        expect(countIn(check, "select count(*) as n from sqlite_stat1 where tbl = 't'")).toBeGreaterThan(0);
        // The planner still has what it needs: the index for an equality.
        const plan = await sql<{ detail: string }>`explain query plan select n from t where k = ${'k7'}`.execute(
          reopened.db,
        );
        expect(plan.rows.map((r) => r.detail).join(' ')).toContain('USING INDEX t_k');
      } finally {
        check.close();
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const postgres = testDatabases().find((t) => t.dialect === 'postgres');

describe.skipIf(!postgres)('PostgreSQL named statements [postgres]', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(postgres!);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('prepares a statement with parameters once per connection and keeps its answers right', async () => {
    const now = '2026-01-01T00:00:00+00:00';
    await ctx.db
      .insertInto('handlers')
      .values([
        { id: 'h1', title: 'Alpha', created: now, changed: now, handler_number: '1' },
        { id: 'h2', title: 'Beta', created: now, changed: now, handler_number: '2' },
      ])
      .execute();
    await ctx.db.connection().execute(async (conn) => {
      const titleOf = async (id: string) =>
        (await conn.selectFrom('handlers').select('title').where('id', '=', id).executeTakeFirst())?.title;
      // The same text with other values: one prepared statement, each run with its own values.
      expect(await titleOf('h1')).toBe('Alpha');
      expect(await titleOf('h2')).toBe('Beta');
      expect(await titleOf('h3')).toBeUndefined();
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn);
      expect(prepared.rows.filter((r) => r.statement.includes('from "handlers"'))).toHaveLength(1);
    });
  });

  it('prepares statements by name up to PG_NAMED_STATEMENT_BYTES on a connection and runs the rest unnamed', async () => {
    // Distinct texts of about 40 KB each (a literal of its own), about 0.8 MB each as statementBytes counts them.
    const longRead = (conn: typeof ctx.db, i: number, length: number) =>
      sql<{
        id: string;
      }>`select id from handlers where id = ${'h1'} and ${sql.lit(`${i}:${'x'.repeat(length)}`)} <> ''`.execute(conn);
    await ctx.db.connection().execute(async (conn) => {
      // One far larger than a sixteenth of the budget is never named, however much room is left.
      expect((await longRead(conn, 99, 100_000)).rows).toEqual([{ id: 'h1' }]);
      for (let i = 0; i < 30; i += 1) expect((await longRead(conn, i, 40_000)).rows).toEqual([{ id: 'h1' }]);
      const named = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn);
      const bytes = named.rows.reduce((n, r) => n + statementBytes(r.statement), 0);
      expect(bytes).toBeLessThanOrEqual(PG_NAMED_STATEMENT_BYTES);
      expect(named.rows.filter((r) => r.statement.includes("'99:")).length).toBe(0);
      expect(named.rows.filter((r) => r.statement.includes("'0:")).length).toBe(1);
      expect(named.rows.length).toBeGreaterThan(10);
    });
  });
});
