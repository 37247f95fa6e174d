import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Db } from '../db/database.js';
import { integrityProblems } from './integrity.js';
import { listTables } from '../db/tables.js';
import { BOOKKEEPING, dumpPostgres, PG_ARCHIVE_MAGIC, restorePostgres, type Target } from './pg-backup.js';

export { BOOKKEEPING, type Target } from './pg-backup.js';

/**
 * Backup and restore of the portal's database, for `npm run backup` and `npm run restore`.
 *
 * SQLite: the online backup API of SQLite (better-sqlite3's `backup()`): a consistent copy of the live database,
 * taken while the server runs, written as an ordinary SQLite file. Restore copies it back page by page.
 *
 * PostgreSQL: pg_dump's custom format of the portal's schema, restored with pg_restore in one transaction
 * (pg-backup.ts; decision 0008).
 *
 * Restore refuses a database that already holds data unless `force` is set; then it replaces that data.
 */
const SQLITE_MAGIC = 'SQLite format 3\u0000';
/** The first bytes of the JSON-lines dump earlier versions wrote for PostgreSQL. */
const OLD_JSONL_DUMP = '{"format":"pecan-portal-dump"';

export interface BackupResult {
  format: 'sqlite' | 'pg_dump';
  tables: number;
  rows: number | null;
}

export async function backupDatabase(target: Target, file: string): Promise<BackupResult> {
  const partial = `${file}.partial`;
  try {
    const result = target.url.startsWith('sqlite:')
      ? await backupSqlite(target.url.slice('sqlite:'.length), partial)
      : await dumpPostgres(target, partial);
    renameSync(partial, file); // a backup file exists only once it is complete
    return result;
  } finally {
    rmSync(partial, { force: true });
  }
}

async function backupSqlite(path: string, file: string): Promise<BackupResult> {
  if (!existsSync(path)) throw new Error(`There is no database at ${path}.`);
  const source = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    await source.backup(file);
  } finally {
    source.close();
  }
  const copy = new SQLite(file, { readonly: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`The backup failed its integrity check: ${String(check)}`);
    const tables = (
      copy.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as Array<{
        name: string;
      }>
    ).map((t) => t.name);
    const rows = tables.reduce(
      (n, t) =>
        n + Number((copy.prepare(`select count(*) as n from "${t.replace(/"/g, '""')}"`).get() as { n: number }).n),
      0,
    );
    return { format: 'sqlite', tables: tables.length, rows };
  } finally {
    copy.close();
  }
}

export interface RestoreResult {
  format: 'sqlite' | 'pg_dump';
  rows: number;
}

/** Restores what backupDatabase wrote. Stop the servers first; the target must be empty unless `force`. */
export async function restoreDatabase(
  target: Target,
  file: string,
  options: { force?: boolean } = {},
): Promise<RestoreResult> {
  if (!existsSync(file)) throw new Error(`There is no backup file ${file}.`);
  const head = readFileSync(file).subarray(0, 64).toString('latin1');
  const isSqlite = head.startsWith(SQLITE_MAGIC);
  if (target.url.startsWith('sqlite:')) {
    if (!isSqlite) throw new Error(`${file} is not a backup of an embedded (SQLite) database.`);
    return restoreSqlite(target.url.slice('sqlite:'.length), file, options.force ?? false);
  }
  if (isSqlite)
    throw new Error(`${file} is a backup of an embedded (SQLite) database; restore it into a sqlite: DATABASE_URL.`);
  if (head.startsWith(OLD_JSONL_DUMP)) {
    throw new Error(
      `${file} is a JSON-lines dump of an earlier portal version, which this version no longer reads: restore it with ` +
        'that version, then take a new backup with npm run backup (see docs/decisions/0008-pg-dump-backups.md).',
    );
  }
  if (!head.startsWith(PG_ARCHIVE_MAGIC))
    throw new Error(`${file} is not a pg_dump custom-format archive (written by npm run backup).`);
  return { format: 'pg_dump', ...(await restorePostgres(target, file, options.force ?? false)) };
}

async function hasData(db: Db, dialect: 'sqlite' | 'postgres'): Promise<string | null> {
  for (const table of await listTables(db, dialect)) {
    if (BOOKKEEPING.has(table)) continue;
    if (
      await db
        .selectFrom(table)
        .select(sql`1`.as('x'))
        .limit(1)
        .executeTakeFirst()
    )
      return table;
  }
  return null;
}

async function restoreSqlite(path: string, file: string, force: boolean): Promise<RestoreResult> {
  const backup = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check = backup.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`The backup file fails its integrity check: ${String(check)}`);
    if (existsSync(path)) {
      const existing = openDatabase({ url: `sqlite:${path}`, poolSize: 1 });
      try {
        const table = await hasData(existing.db, 'sqlite');
        if (table && !force)
          throw new Error(
            `The database at ${path} is not empty (${table} has rows): restore refuses to overwrite it without --force.`,
          );
      } finally {
        await existing.close();
      }
    }
    // The backup API writes the whole backup over the destination, in SQLite's own transaction.
    await backup.backup(path);
  } finally {
    backup.close();
  }
  const restored = openDatabase({ url: `sqlite:${path}`, poolSize: 1 });
  try {
    await migrateToLatest(restored.db); // a backup of an older version is brought up to date
    const problems = await integrityProblems(restored.db, 'sqlite');
    if (problems.length > 0) throw new Error(`The restored database fails its checks: ${problems.join('; ')}`);
    let rows = 0;
    for (const t of await listTables(restored.db, 'sqlite'))
      rows += Number(
        (
          await restored.db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { format: 'sqlite', rows };
  } finally {
    await restored.close();
  }
}
