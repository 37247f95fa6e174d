import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/database.js';
import { ALL_MECHANISMS_ON } from '../performance/mechanisms.js';
import { api } from '../test-support/api.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * `reads-beside-writes` (decision 0007): on SQLite every statement of the server's connection waits while a write
 * transaction holds it, so a read that comes then runs on the reader threads and answers the last committed data.
 * SQLite on a file only: the reader threads open the file (PostgreSQL's reads never queue behind another's write).
 */
describe('reads beside writes [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'beside-'));
  const url = `sqlite:${join(dir, 'demo.sqlite')}`;
  let d: DemoApp;
  beforeAll(async () => {
    d = await demoApp({ dialect: 'sqlite', url });
  });
  afterAll(async () => {
    await d?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A server on the demo file with reader threads, the mechanism on or off. */
  const server = async (on: boolean) => {
    const database = openDatabase({
      url,
      costlyReadsAtOnce: 1,
      statementTimeoutMs: 5000,
      mechanisms: { ...ALL_MECHANISMS_ON, 'reads-beside-writes': on },
    });
    await database.startReaders!();
    const app = await buildApp(
      { ...d.ctx, db: database.db, costlyReads: database.costlyReads, writerBusy: database.writerBusy },
      { logger: false },
    );
    return { database, app };
  };

  it.each([
    ['on', true],
    ['off', false],
  ] as const)('%s: a read during a write transaction answers before its end, or waits', async (name, on) => {
    const { database, app } = await server(on);
    try {
      const handler = `/jsonapi/node/handler/${d.handlers['101']}`;
      const title = async () => String((await api(app, d.tokens.alice, 'GET', handler)).body.data.attributes.title);
      const committed = await title();
      const renamed = `${committed} (renamed ${name})`;

      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const write = database.db.transaction().execute(async (trx) => {
        await trx.updateTable('handlers').set({ title: renamed }).where('id', '=', d.handlers['101']).execute();
        wrote();
        await held;
      });
      await written;
      expect(database.writerBusy?.() ?? false).toBe(on);

      const reading = title();
      const early = await Promise.race([reading, sleep(1500).then(() => 'still waiting')]);
      expect(early).toBe(on ? committed : 'still waiting');
      release();
      await write;
      expect(database.writerBusy?.() ?? false).toBe(false);
      // Off, the read ran after the commit and shows it; on, it had answered the state before.
      expect(await reading).toBe(on ? committed : renamed);
      expect(await title()).toBe(renamed);
    } finally {
      await app.close();
      await database.close();
    }
  });
  it('goes beside the writer only while a reader thread is idle: behind a costly read it waits for the commit', async () => {
    const { database, app } = await server(true);
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let began!: () => void;
      const begun = new Promise<void>((resolve) => (began = resolve));
      const write = database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('handlers').select('id').limit(1).execute();
        began();
        await held;
      });
      await begun;
      expect(database.writerBusy!()).toBe(true);
      // A long statement on the one reader thread (counting to ten million takes about a second).
      const costly = sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 10000000)
        select count(*) as n from c`.execute(database.costlyReads!);
      await sleep(50);
      expect(database.writerBusy!()).toBe(false);
      release();
      await write;
      await costly;
      expect(database.writerBusy!()).toBe(false);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
