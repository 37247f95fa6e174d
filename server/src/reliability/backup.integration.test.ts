import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { BOOKKEEPING, restoreDatabase } from './backup.js';
import { checksumDiff, databaseChecksum } from './checksum.js';
import { integrityProblems } from './integrity.js';

/**
 * Backup and restore round trip, through the real commands (`npm run backup` / `npm run restore` run
 * server/src/cli/backup.ts and restore.ts): back up the demo database, restore it into an empty one, and every row
 * of every table is the same (equal checksums). Restore refuses a database with data unless --force. PostgreSQL
 * (pg_dump and pg_restore): into another database and schema name, over itself, into public, and the refusals.
 */
const ROOT = new URL('../../../', import.meta.url).pathname;

function cli(command: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const r = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [`server/src/cli/${command}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** `cli` without blocking this process, so the test can write to the database while a backup runs. */
function cliInBackground(command: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [`server/src/cli/${command}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => {
    output += b.toString();
  });
  child.stderr.on('data', (b: Buffer) => {
    output += b.toString();
  });
  return new Promise<{ status: number | null; output: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, output })),
  );
}

describeEachDatabase('backup and restore', (target) => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-backup-'));
  const databases: string[] = [];
  let d: DemoApp | null = null;

  afterAll(async () => {
    await d?.close();
    if (databases.length > 0) {
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every row of every table as in the source, and the database's own checks pass. */
  async function expectSameData(
    open: () => ReturnType<typeof openDatabase>,
    before: Record<string, string>,
    exclude: string[],
  ) {
    const restored = open();
    try {
      const after = await databaseChecksum(restored.db, restored.dialect, { exclude });
      expect(checksumDiff(before, after)).toEqual({});
      expect(await integrityProblems(restored.db, restored.dialect)).toEqual([]);
      return after;
    } finally {
      await restored.close();
    }
  }

  it(
    'round-trips the demo database: same checksum; refuses a non-empty target without --force',
    { timeout: 300_000 },
    async () => {
      const file = join(dir, target.dialect === 'sqlite' ? 'backup.sqlite' : 'backup.dump');
      let sourceEnv: Record<string, string>;
      let restoreEnv: Record<string, string>;
      let openRestored: () => ReturnType<typeof openDatabase>;
      if (target.dialect === 'sqlite') {
        d = await demoApp({ dialect: 'sqlite', url: `sqlite:${join(dir, 'source.sqlite')}` });
        sourceEnv = { DATABASE_URL: `sqlite:${join(dir, 'source.sqlite')}` };
        restoreEnv = { DATABASE_URL: `sqlite:${join(dir, 'restored.sqlite')}` };
        openRestored = () => openDatabase({ url: restoreEnv.DATABASE_URL });
      } else {
        d = await demoApp(target);
        const source = String((await sql<{ s: string }>`select current_schema() as s`.execute(d.ctx.db)).rows[0].s);
        // Into another database (the dump's schema name is taken in this one) and under another schema name.
        const database = `portal_rst_${randomBytes(5).toString('hex')}`;
        databases.push(database);
        const admin = new pg.Client({ connectionString: target.url });
        await admin.connect();
        await admin.query(`create database ${database}`);
        await admin.end();
        const url = new URL(target.url);
        url.pathname = `/${database}`;
        sourceEnv = { DATABASE_URL: target.url, DATABASE_SCHEMA: source };
        restoreEnv = { DATABASE_URL: url.toString(), DATABASE_SCHEMA: `rst_${randomBytes(5).toString('hex')}` };
        openRestored = () => openDatabase({ url: restoreEnv.DATABASE_URL, pgSchema: restoreEnv.DATABASE_SCHEMA });
      }
      const exclude = target.dialect === 'postgres' ? [...BOOKKEEPING] : [];
      const before = await databaseChecksum(d.ctx.db, d.ctx.dialect, { exclude });

      // Backup while the app is up (an online backup), then restore into an empty database.
      const backup = cli('backup', [file], sourceEnv);
      expect(backup.status, backup.output).toBe(0);
      expect(statSync(file).size).toBeGreaterThan(100_000);
      expect(existsSync(`${file}.partial`)).toBe(false);
      const restore = cli('restore', [file], restoreEnv);
      expect(restore.status, restore.output).toBe(0);
      const after = await expectSameData(openRestored, before, exclude);
      const rows = Object.values(after).reduce((n, c) => n + Number(c.split(':')[0]), 0);
      console.log(
        `[${target.dialect}] backup and restore: ${Object.keys(after).length} tables, ${rows} rows, ${statSync(file).size} bytes; checksums equal`,
      );

      // The audit log still refuses deletes after a restore (its triggers came back with it).
      const restored = openRestored();
      try {
        await expect(sql`delete from audit_log`.execute(restored.db)).rejects.toThrow();
      } finally {
        await restored.close();
      }

      // Now the target holds data: a second restore is refused and changes nothing, unless --force.
      const refused = cli('restore', [file], restoreEnv);
      expect(refused.status).toBe(1);
      expect(refused.output).toMatch(/not empty.*--force/);
      const forced = restoreEnv.DATABASE_SCHEMA
        ? await restoreDatabase({ url: restoreEnv.DATABASE_URL, schema: restoreEnv.DATABASE_SCHEMA }, file, {
            force: true,
          })
        : await restoreDatabase({ url: restoreEnv.DATABASE_URL }, file, { force: true });
      expect(forced.rows).toBeGreaterThan(1000);
      await expectSameData(openRestored, before, exclude);
    },
  );

  if (target.dialect !== 'postgres') return;

  it(
    'PostgreSQL: refuses what pg_restore would get wrong; restores into the same name and into public',
    { timeout: 300_000 },
    async () => {
      expect(d, 'runs after the round trip').not.toBeNull();
      const file = join(dir, 'backup.dump');
      const before = await databaseChecksum(d!.ctx.db, 'postgres', { exclude: [...BOOKKEEPING] });
      const source = String((await sql<{ s: string }>`select current_schema() as s`.execute(d!.ctx.db)).rows[0].s);
      const other = new URL(target.url);
      other.pathname = `/${databases[0]}`;
      const restoredUrl = other.toString();
      const admin = new pg.Client({ connectionString: restoredUrl });
      await admin.connect();
      try {
        const [restoredSchema] = (
          await admin.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like 'rst_%'`)
        ).rows.map((r) => r.nspname);

        // Into the source's own database under another name: the dump's schema is taken there; nothing changes.
        const taken = cli('restore', [file], { DATABASE_URL: target.url, DATABASE_SCHEMA: 'rst_never_created' });
        expect(taken.status).toBe(1);
        expect(taken.output).toContain(`The dump's schema ${source} exists in this database`);
        const probe = new pg.Client({ connectionString: target.url });
        await probe.connect();
        expect((await probe.query(`select 1 from pg_namespace where nspname = 'rst_never_created'`)).rows).toEqual([]);
        await probe.end();

        // Not an archive, or the JSON-lines dump of earlier versions: refused with what to do.
        const old = join(dir, 'old.jsonl');
        writeFileSync(old, '{"format":"pecan-portal-dump","version":1,"dialect":"postgres","migrations":[]}\n');
        await expect(restoreDatabase({ url: restoredUrl, schema: 'rst_never_created' }, old)).rejects.toThrow(
          /JSON-lines dump of an earlier portal version/,
        );
        writeFileSync(old, 'not a backup');
        await expect(restoreDatabase({ url: restoredUrl, schema: 'rst_never_created' }, old)).rejects.toThrow(
          /not a pg_dump custom-format archive/,
        );

        // A failed backup leaves no file.
        const missing = join(dir, 'missing.dump');
        const failed = cli('backup', [missing], { DATABASE_URL: restoredUrl, DATABASE_SCHEMA: 'no_such_schema' });
        expect(failed.status).toBe(1);
        expect(failed.output).toMatch(/Backup failed: pg_dump failed/);
        expect(existsSync(missing)).toBe(false);

        // Back up the restored schema while transactions write to it: two tables that every transaction moves on
        // together must be equal in the archive (one snapshot). Then restore it over itself: --force replaces it.
        await admin.query(`create table ${restoredSchema}.snapshot_a (id int primary key, n int not null);
        create table ${restoredSchema}.snapshot_b (id int primary key, n int not null);
        insert into ${restoredSchema}.snapshot_a values (1, 0); insert into ${restoredSchema}.snapshot_b values (1, 0)`);
        let writing = true;
        const writer = (async () => {
          const w = new pg.Client({ connectionString: restoredUrl });
          await w.connect();
          while (writing) {
            await w.query(
              `begin; update ${restoredSchema}.snapshot_a set n = n + 1; update ${restoredSchema}.snapshot_b set n = n + 1; commit`,
            );
          }
          await w.end();
        })();
        const counter = async () => Number((await admin.query(`select n from ${restoredSchema}.snapshot_a`)).rows[0].n);
        const startedAt = await counter();
        const again = join(dir, 'again.dump');
        const online = await cliInBackground('backup', [again], {
          DATABASE_URL: restoredUrl,
          DATABASE_SCHEMA: restoredSchema,
        });
        writing = false;
        await writer;
        expect(online.status, online.output).toBe(0);
        const endedAt = await counter();
        expect(endedAt, 'transactions committed while the backup ran').toBeGreaterThan(startedAt);
        const same = cli('restore', [again, '--force'], { DATABASE_URL: restoredUrl, DATABASE_SCHEMA: restoredSchema });
        expect(same.status, same.output).toBe(0);
        const pair = (
          await admin.query<{ a: number; b: number }>(
            `select a.n as a, b.n as b from ${restoredSchema}.snapshot_a a, ${restoredSchema}.snapshot_b b`,
          )
        ).rows[0];
        expect(pair.a).toBe(pair.b);
        expect(pair.a).toBeGreaterThanOrEqual(startedAt);
        expect(pair.a).toBeLessThanOrEqual(endedAt);
        await expectSameData(() => openDatabase({ url: restoredUrl, pgSchema: restoredSchema }), before, [
          ...BOOKKEEPING,
          'snapshot_a',
          'snapshot_b',
        ]);
        expect((await admin.query(`select nspname from pg_namespace where nspname like '%pre_restore%'`)).rows).toEqual(
          [],
        );

        // A dump from a newer portal (a migration this version does not know) is refused and changes nothing.
        await admin.query(
          `insert into ${restoredSchema}.kysely_migration (name, timestamp) values ('999-from-the-future', now())`,
        );
        const newer = join(dir, 'newer.dump');
        expect(cli('backup', [newer], { DATABASE_URL: restoredUrl, DATABASE_SCHEMA: restoredSchema }).status).toBe(0);
        const refused = cli('restore', [newer, '--force'], {
          DATABASE_URL: restoredUrl,
          DATABASE_SCHEMA: restoredSchema,
        });
        expect(refused.status).toBe(1);
        expect(refused.output).toMatch(/newer portal.*999-from-the-future/);
        await admin.query(`delete from ${restoredSchema}.kysely_migration where name = '999-from-the-future'`);

        // Into the connection's own schema (public, empty): the restored schema takes its place.
        const intoPublic = cli('restore', [file], { DATABASE_URL: restoredUrl });
        expect(intoPublic.status, intoPublic.output).toBe(0);
        await expectSameData(() => openDatabase({ url: restoredUrl }), before, [...BOOKKEEPING]);
        expect((await admin.query(`select nspname from pg_namespace where nspname = $1`, [source])).rows).toEqual([]);
      } finally {
        await admin.end();
      }
    },
  );
});
