import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { handlerWithIncludesParams } from '../../../web/src/lib/portal/handler-params.js';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../db/database.js';
import { SqliteReaderPool, readerThreadsDb } from '../db/sqlite-readers/pool.js';
import { RETRY_AFTER_SECONDS } from '../plugins/errors.js';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { checksum } from '../test-support/jsonapi-fixtures.js';
import { LIMITS } from './limits.js';
import { COSTLY_READ, readCost } from './read-cost.js';
import { parseQueryString } from './query-params.js';

/** Issue 32's attack within the limits: as many OR-ed CONTAINS as allowed, over two relationship hops. */
function hostile(tag: string): string {
  const parts = ['filter[any][group][conjunction]=OR'];
  for (let i = 0; i < LIMITS.filterConditions - 1; i += 1) {
    const c = `filter[c${i}][condition]`;
    parts.push(
      `${c}[path]=field_reporting_forms_package.field_reporting_period.title`,
      `${c}[operator]=CONTAINS`,
      `${c}[value]=${tag}-${i}`,
      `${c}[memberOf]=any`,
    );
  }
  // One condition that matches: the answer has rows to compare.
  parts.push(
    'filter[m][condition][path]=field_reporting_forms_package.field_reporting_period.title',
    'filter[m][condition][operator]=CONTAINS',
    'filter[m][condition][value]=20',
    'filter[m][condition][memberOf]=any',
  );
  return `/jsonapi/node/apc_form_1?${parts.join('&')}`;
}

/**
 * Costly reads (read-cost.ts) run a few at once under the time budget (decision 0009): on SQLite on reader threads
 * (db/sqlite-readers/), on PostgreSQL on a pool of their own. SQLite here is a file, as a server's is: reader threads
 * need one to open.
 */
describeEachDatabase('costly reads', (target) => {
  const dir = mkdtempSync(join(tmpdir(), 'costly-'));
  const sqlite = target.dialect === 'sqlite';
  let d: DemoApp;
  let before: Record<string, string>;
  /** Statements the reader threads ran (the Kysely's log). */
  let onThreads = 0;
  const pools: SqliteReaderPool[] = [];
  const pgPools: Database[] = [];
  /** Reader threads for the app's costly reads, with this budget (SQLite). */
  const useThreads = (budgetMs: number) => {
    const pool = new SqliteReaderPool(join(dir, 'demo.sqlite'), 1, budgetMs);
    pools.push(pool);
    d.ctx.costlyReads = readerThreadsDb(pool, () => {
      onThreads += 1;
    });
    return pool;
  };
  /** PostgreSQL: one connection of its own for the app's costly reads, with this budget. */
  const usePgPool = async (budgetMs: number) => {
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(d.ctx.db)).rows[0].s;
    const database = openDatabase({
      url: target.url,
      pgSchema: schema,
      costlyReadsAtOnce: 1,
      statementTimeoutMs: budgetMs,
    });
    pgPools.push(database);
    d.ctx.costlyReads = database.costlyReads;
    return database.costlyReads!;
  };
  beforeAll(async () => {
    d = await demoApp(sqlite ? { dialect: 'sqlite', url: `sqlite:${join(dir, 'demo.sqlite')}` } : target, {
      config: { documentCacheBytes: 0 },
    });
    before = await checksum(d.ctx);
  });
  afterAll(async () => {
    await Promise.all([...pools.map((p) => p.close()), ...pgPools.map((p) => p.close())]);
    await d?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const get = (url: string) => api(d.app, d.tokens.alice, 'GET', url);

  it("counts issue 32's attack as costly and the web app's dashboard read as cheap", () => {
    expect(readCost(parseQueryString(hostile('x').split('?')[1]))).toBeGreaterThanOrEqual(COSTLY_READ);
    expect(readCost(parseQueryString(handlerWithIncludesParams().getQueryString()))).toBeLessThan(COSTLY_READ);
  });

  it('answers a costly read on the reader threads exactly as on the connection', async () => {
    d.ctx.costlyReads = undefined;
    const onConnection = await get(hostile('same'));
    expect(onConnection.status, onConnection.text.slice(0, 300)).toBe(200);
    expect(onConnection.body.data.length).toBeGreaterThan(0);
    if (!sqlite) {
      await usePgPool(10_000);
      const onOwnPool = await get(hostile('same'));
      expect(onOwnPool.status).toBe(200);
      expect(onOwnPool.body).toEqual(onConnection.body);
      return;
    }
    await useThreads(10_000).start();
    const ran = onThreads;
    const onReader = await get(hostile('same'));
    expect(onReader.status).toBe(200);
    expect(onReader.body).toEqual(onConnection.body);
    expect(onThreads).toBeGreaterThan(ran);
  });

  it('keeps cheap reads on the connection: no reader thread is even started', async () => {
    const pool = sqlite ? useThreads(10_000) : null;
    const ran = onThreads;
    const r = await get(`/jsonapi/node/handler/${d.handlers['101']}?${handlerWithIncludesParams().getQueryString()}`);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect((await get('/jsonapi/node/season')).status).toBe(200);
    expect(onThreads).toBe(ran);
    if (pool) expect(pool.threads).toBe(0);
  });

  it.runIf(sqlite)(
    'answers 503 with Retry-After when a costly read cannot run within the budget, and serves on',
    async () => {
      const pool = useThreads(300);
      await pool.start();
      // The one thread is held by a statement longer than the budget; the read waits for it past the budget.
      const holding = pool
        .run(
          "with recursive c(x) as (select 1 union all select x + 1 from c where x < 1e10) select count(*) from c where portal_fold('n' || x) = 'never'",
          [],
        )
        .catch((e: unknown) => e);
      const r = await get(hostile('late'));
      expect(r.status, r.text.slice(0, 300)).toBe(503);
      expect(r.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(String(r.headers['content-type'])).toMatch(/^application\/vnd\.api\+json/);
      expect(r.body.errors[0]).toMatchObject({ status: '503', title: 'Service Unavailable' });
      expect(await holding).toMatchObject({ code: 'SQLITE_INTERRUPT' });
      // The server serves on: cheap reads at once, costly ones once a new thread has started.
      expect((await get('/jsonapi/node/season')).status).toBe(200);
      await pool.start();
      expect((await get(hostile('after'))).status).toBe(200);
    },
  );

  it.runIf(!sqlite)(
    'answers 503 with Retry-After when a costly read waits past the budget for its connection',
    async () => {
      const costly = await usePgPool(300);
      // The one connection for costly reads is held longer than the budget.
      const holding = costly.connection().execute(() => new Promise((resolve) => setTimeout(resolve, 1500)));
      const r = await get(hostile('late'));
      expect(r.status, r.text.slice(0, 300)).toBe(503);
      expect(r.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(r.body.errors[0]).toMatchObject({ status: '503', title: 'Service Unavailable' });
      await holding;
      expect((await get('/jsonapi/node/season')).status).toBe(200);
      expect((await get(hostile('after'))).status).toBe(200);
    },
  );

  it('never answers a hostile read with a 500', async () => {
    if (sqlite) useThreads(5_000);
    else await usePgPool(5_000);
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => get(`${hostile(`p${i}`)}&page[offset]=${i}`).then((r) => r.status)),
    );
    expect(
      statuses.every((s) => s === 200 || s === 503 || s === 429),
      statuses.join(),
    ).toBe(true);
  });

  it('changed nothing', async () => {
    expect(await checksum(d.ctx)).toEqual(before);
  });
});
