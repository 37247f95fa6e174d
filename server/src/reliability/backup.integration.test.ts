import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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
 * of every table is the same (equal checksums). Restore refuses a database with data unless --force.
 */
const ROOT = new URL('../../../', import.meta.url).pathname;

function cli(command: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const r = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [`server/src/cli/${command}.ts`, ...args], {
    cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 120_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describeEachDatabase('backup and restore', (target) => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-backup-'));
  const schemas: string[] = [];
  let d: DemoApp | null = null;

  afterAll(async () => {
    await d?.close();
    if (schemas.length > 0) {
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      for (const s of schemas) await admin.query(`drop schema if exists ${s} cascade`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips the demo database: same checksum; refuses a non-empty target without --force', { timeout: 300_000 }, async () => {
    const file = join(dir, target.dialect === 'sqlite' ? 'backup.sqlite' : 'backup.jsonl');
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
      const restored = `rst_${randomBytes(5).toString('hex')}`;
      schemas.push(restored);
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      await admin.query(`create schema ${restored}`);
      await admin.end();
      sourceEnv = { DATABASE_URL: target.url, DATABASE_SCHEMA: source };
      restoreEnv = { DATABASE_URL: target.url, DATABASE_SCHEMA: restored };
      openRestored = () => openDatabase({ url: target.url, pgSchema: restored });
    }
    const exclude = target.dialect === 'postgres' ? [...BOOKKEEPING] : [];
    const before = await databaseChecksum(d.ctx.db, d.ctx.dialect, { exclude });

    // Backup while the app is up (an online backup), then restore into an empty database.
    const backup = cli('backup', [file], sourceEnv);
    expect(backup.status, backup.output).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(100_000);
    const restore = cli('restore', [file], restoreEnv);
    expect(restore.status, restore.output).toBe(0);

    const restored = openRestored();
    try {
      const after = await databaseChecksum(restored.db, restored.dialect, { exclude });
      expect(checksumDiff(before, after)).toEqual({});
      expect(await integrityProblems(restored.db, restored.dialect)).toEqual([]);
      const rows = Object.values(after).reduce((n, c) => n + Number(c.split(':')[0]), 0);
      console.log(`[${target.dialect}] backup and restore: ${Object.keys(after).length} tables, ${rows} rows, ${statSync(file).size} bytes; checksums equal`);
    } finally {
      await restored.close();
    }

    // Now the target holds data: a second restore is refused and changes nothing, unless --force.
    const refused = cli('restore', [file], restoreEnv);
    expect(refused.status).toBe(1);
    expect(refused.output).toMatch(/not empty.*--force/);
    const forced = restoreEnv.DATABASE_SCHEMA
      ? await restoreDatabase({ url: restoreEnv.DATABASE_URL, schema: restoreEnv.DATABASE_SCHEMA }, file, { force: true })
      : await restoreDatabase({ url: restoreEnv.DATABASE_URL }, file, { force: true });
    expect(forced.rows).toBeGreaterThan(1000);
    const again = openRestored();
    try {
      expect(checksumDiff(before, await databaseChecksum(again.db, again.dialect, { exclude }))).toEqual({});
    } finally {
      await again.close();
    }
  });
});
