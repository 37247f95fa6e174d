import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling, RETRY_AFTER_SECONDS } from '../plugins/errors.js';
import { testDatabases } from '../test-support/databases.js';
import { openDatabase, type Database } from './database.js';

const postgres = testDatabases().find((t) => t.dialect === 'postgres');

/**
 * PostgreSQL's statement_timeout, set on every serving connection (QUERY_TIME_BUDGET_MS): a statement past it is
 * cancelled by the database and its request answers 503 with Retry-After, never a 500. SQLite's costly reads get the
 * same budget on reader threads: db/sqlite-readers/pool.test.ts, decision 0009.
 */
describe.skipIf(!postgres)('the time budget of a statement [postgres]', () => {
  let database: Database;
  const app = Fastify({ logger: false });
  beforeAll(async () => {
    database = openDatabase({ url: postgres!.url, poolSize: 2, statementTimeoutMs: 200 });
    registerErrorHandling(app);
    app.get('/slow', async () => (await sql`select pg_sleep(2) as slept`.execute(database.db)).rows);
    app.get('/quick', async () => (await sql<{ n: number }>`select 1 as n`.execute(database.db)).rows);
    app.post('/slow-write', async () =>
      database.db.transaction().execute(async (trx) => {
        await sql`create temporary table if not exists budget_probe (n int)`.execute(trx);
        await sql`select pg_sleep(2)`.execute(trx);
        return 'never';
      }),
    );
  });
  afterAll(async () => {
    await app.close();
    await database?.close();
  });

  it('cancels a statement past the budget and answers 503 with Retry-After as a JSON:API error', async () => {
    const started = Date.now();
    const r = await app.inject({ url: '/slow' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r.statusCode, r.body).toBe(503);
    expect(r.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(r.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(r.json().errors[0]).toMatchObject({ status: '503', title: 'Service Unavailable' });
  });

  it('answers 503 for a write whose statement ran out of time too, and the connection serves on', async () => {
    expect((await app.inject({ method: 'POST', url: '/slow-write' })).statusCode).toBe(503);
    const quick = await app.inject({ url: '/quick' });
    expect(quick.statusCode).toBe(200);
    expect(quick.json()).toEqual([{ n: 1 }]);
  });

  it('is set on every connection of the pool', async () => {
    const shown = await Promise.all(
      [1, 2, 3].map(() => sql<{ statement_timeout: string }>`show statement_timeout`.execute(database.db)),
    );
    expect(shown.map((r) => r.rows[0].statement_timeout)).toEqual(['200ms', '200ms', '200ms']);
  });
});
