import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allResources } from '../resources/index.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { DATA_VERSION_TABLE, UNWATCHED_TABLES } from './data-version.js';
import type { Db } from './database.js';
import { listTables } from './tables.js';

const dataVersion = async (db: Db) =>
  Number((await db.selectFrom(DATA_VERSION_TABLE).select('version').executeTakeFirstOrThrow()).version);

describe('the tables the data version leaves out', () => {
  it('are read by no resource type, no access rule and no read of the JSON:API', () => {
    for (const def of allResources) expect(UNWATCHED_TABLES.has(def.table), def.type).toBe(false);
    // The access rules and the engine's reads are SQL written in these folders: none may name an unwatched table.
    const here = dirname(fileURLToPath(import.meta.url));
    for (const folder of ['../resources', '../jsonapi']) {
      for (const file of readdirSync(join(here, folder)).filter((f) => f.endsWith('.ts') && !f.includes('.test.'))) {
        const text = readFileSync(join(here, folder, file), 'utf8');
        for (const table of UNWATCHED_TABLES) {
          expect(new RegExp(`['"\`. ]${table}['"\`. ]`).test(text), `${folder}/${file} names ${table}`).toBe(false);
        }
      }
    }
  });
});

describeEachDatabase('the data version', (target) => {
  let d: DemoApp;
  beforeAll(async () => {
    d = await demoApp(target);
  });
  afterAll(async () => {
    await d?.close();
  });

  const tables = () => listTables(d.ctx.db, target.dialect);
  const triggers = async () => {
    const rows =
      target.dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(d.ctx.db)
        : await sql<{ name: string }>`select t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
          join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and not t.tgisinternal`.execute(
            d.ctx.db,
          );
    return new Set(rows.rows.map((r) => r.name));
  };

  it('is watched on every table but the listed ones (a new table needs watchTable in its migration)', async () => {
    const present = await triggers();
    const expected =
      target.dialect === 'sqlite'
        ? (t: string) => ['insert', 'update', 'delete'].map((c) => `${t}_data_version_${c}`)
        : (t: string) => [`${t}_data_version`];
    const unwatched = (await tables()).filter(
      (t) => !UNWATCHED_TABLES.has(t) && !expected(t).every((name) => present.has(name)),
    );
    expect(unwatched).toEqual([]);
  });

  it('moves on with every committed change to a watched table, and not with a change rolled back', async () => {
    const before = await dataVersion(d.ctx.db);
    await d.ctx.db.updateTable('handlers').set({ phone: '555-0100' }).where('id', '=', d.handlers['101']).execute();
    const afterUpdate = await dataVersion(d.ctx.db);
    expect(afterUpdate).toBeGreaterThan(before);
    await expect(
      d.ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('handlers').set({ phone: '555-0199' }).where('id', '=', d.handlers['101']).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await dataVersion(d.ctx.db)).toBe(afterUpdate);
    await d.ctx.db.deleteFrom('pecan_varieties').where('title', '=', 'no such variety').execute();
    expect(await dataVersion(d.ctx.db), 'a statement that changed no row').toBe(afterUpdate);
  });

  it('moves on for an update of every watched table that has rows', async () => {
    for (const table of (await tables()).filter((t) => !UNWATCHED_TABLES.has(t))) {
      const row = await d.ctx.db.selectFrom(table).selectAll().limit(1).executeTakeFirst();
      if (!row) continue;
      const before = await dataVersion(d.ctx.db);
      const key = 'id' in row ? 'id' : Object.keys(row)[0];
      await d.ctx.db
        .updateTable(table)
        .set({ [key]: row[key] })
        .where(key, '=', row[key])
        .execute();
      expect(await dataVersion(d.ctx.db), table).toBeGreaterThan(before);
    }
  });

  it('moves on for an insert and a delete, once per transaction however many rows it changes', async () => {
    const before = await dataVersion(d.ctx.db);
    const now = '2026-11-22T12:00:00+00:00';
    const rows = ['a', 'b', 'c'].map((x, i) => ({
      id: `variety-${x}`,
      title: `Test variety ${x}`,
      position: 900 + i,
      created: now,
      changed: now,
    }));
    await d.ctx.db.insertInto('pecan_varieties').values(rows).execute();
    const afterInsert = await dataVersion(d.ctx.db);
    expect(afterInsert).toBeGreaterThan(before);
    await d.ctx.db
      .deleteFrom('pecan_varieties')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const afterDelete = await dataVersion(d.ctx.db);
    expect(afterDelete).toBeGreaterThan(afterInsert);
    // PostgreSQL moves it at commit, once a transaction; SQLite once a row. Either way a reader sees a new number.
    if (target.dialect === 'postgres') expect([afterInsert - before, afterDelete - afterInsert]).toEqual([1, 1]);
  });

  it('does not move when someone signs in (tokens are not shown in documents)', async () => {
    const before = await dataVersion(d.ctx.db);
    const r = await d.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        client_id: 'portal-web',
        username: 'alice',
        password: 'demo-pecans-2026',
      }).toString(),
    });
    expect(r.statusCode).toBe(200);
    expect(await dataVersion(d.ctx.db)).toBe(before);
  });
});
