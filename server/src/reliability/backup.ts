import { createReadStream, createWriteStream, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { migrateToLatest, migrations, openDatabase, type Db } from '../db/database.js';
import { foreignKeys, integrityProblems } from './integrity.js';
import { listTables } from '../db/tables.js';
import { DATA_VERSION_TABLE } from '../db/data-version.js';

/**
 * Backup and restore of the portal's database, for `npm run backup` and `npm run restore`.
 *
 * SQLite: the online backup API of SQLite (better-sqlite3's `backup()`): a consistent copy of the live database,
 * taken while the server runs, written as an ordinary SQLite file. Restore copies it back page by page.
 *
 * PostgreSQL: a portable dump written by the portal itself, JSON lines: a header line, then for every table (in
 * foreign-key order, parents first) a line naming the table and its columns and one line per row; binary columns as
 * base64. One REPEATABLE READ transaction, so the dump is one consistent snapshot. Restore runs the migrations on
 * the target schema and inserts every row in one transaction: all of it or nothing.
 *
 * Restore refuses a database that already holds data unless `force` is set; then it replaces that data.
 */
export const DUMP_FORMAT = 'pecan-portal-dump';
const SQLITE_MAGIC = 'SQLite format 3\u0000';
/**
 * Bookkeeping, not copied: migrations are recorded by migrateToLatest on the target, and the data version is the
 * database's own count of changes (db/data-version.ts), which the restore's inserts move on.
 */
export const BOOKKEEPING: ReadonlySet<string> = new Set(['kysely_migration', 'kysely_migration_lock', DATA_VERSION_TABLE]);

export interface Target {
  url: string;
  /** PostgreSQL schema (DATABASE_SCHEMA); the connection's default when absent. */
  schema?: string;
}

export interface BackupResult { format: 'sqlite' | 'jsonl'; tables: number; rows: number }

export async function backupDatabase(target: Target, file: string): Promise<BackupResult> {
  const partial = `${file}.partial`;
  try {
    const result = target.url.startsWith('sqlite:') ? await backupSqlite(target.url.slice('sqlite:'.length), partial) : await dumpPostgres(target, partial);
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
    const tables = (copy.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as Array<{ name: string }>).map((t) => t.name);
    const rows = tables.reduce((n, t) => n + Number((copy.prepare(`select count(*) as n from "${t.replace(/"/g, '""')}"`).get() as { n: number }).n), 0);
    return { format: 'sqlite', tables: tables.length, rows };
  } finally {
    copy.close();
  }
}

/** Tables in an order where every table comes after the tables it references. */
export async function tablesInDependencyOrder(db: Db): Promise<string[]> {
  const tables = (await listTables(db, 'postgres')).filter((t) => !BOOKKEEPING.has(t));
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set()]));
  for (const fk of await foreignKeys(db)) if (fk.table !== fk.refTable) parents.get(fk.table)?.add(fk.refTable);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p) || !parents.has(p)));
    if (next.length === 0) throw new Error('The foreign keys form a cycle; the tables cannot be ordered.');
    for (const t of next) { ordered.push(t); placed.add(t); }
  }
  return ordered;
}

function encode(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $base64: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  return value;
}

function decode(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$base64' in value) return Buffer.from(String((value as { $base64: unknown }).$base64), 'base64');
  return value;
}

async function write(out: NodeJS.WritableStream, line: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
}

async function dumpPostgres(target: Target, file: string): Promise<BackupResult> {
  const database = openDatabase({ url: target.url, pgSchema: target.schema, poolSize: 1 });
  const out = createWriteStream(file);
  let rows = 0;
  let tables = 0;
  try {
    await database.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(trx).catch(() => ({ rows: [] as Array<{ name: string }> }));
      await write(out, { format: DUMP_FORMAT, version: 1, dialect: 'postgres', created: new Date().toISOString(), migrations: applied.rows.map((r) => r.name) });
      for (const table of await tablesInDependencyOrder(trx)) {
        const columns = (await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(trx)).rows.map((c) => c.name);
        await write(out, { table, columns });
        tables += 1;
        // In pages, so a large files table never sits in memory at once. Every table has a primary key to page by.
        const key = columns.includes('id') ? 'id' : columns[0];
        let after: unknown = null;
        for (;;) {
          let q = trx.selectFrom(table).selectAll().orderBy(key).limit(500);
          if (after !== null) q = q.where(key, '>', after);
          const page = (await q.execute()) as Array<Record<string, unknown>>;
          for (const r of page) await write(out, columns.map((c) => encode(r[c])));
          rows += page.length;
          if (page.length < 500) break;
          after = page[page.length - 1][key];
        }
      }
    });
  } finally {
    out.end();
    await once(out, 'close');
    await database.close();
  }
  return { format: 'jsonl', tables, rows };
}

export interface RestoreResult { format: 'sqlite' | 'jsonl'; rows: number }

/** Restores what backupDatabase wrote. Stop the servers first; the target must be empty unless `force`. */
export async function restoreDatabase(target: Target, file: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  if (!existsSync(file)) throw new Error(`There is no backup file ${file}.`);
  const head = readFileSync(file).subarray(0, 16).toString('latin1');
  const isSqlite = head === SQLITE_MAGIC;
  if (target.url.startsWith('sqlite:')) {
    if (!isSqlite) throw new Error(`${file} is not a backup of an embedded (SQLite) database.`);
    return restoreSqlite(target.url.slice('sqlite:'.length), file, options.force ?? false);
  }
  if (isSqlite) throw new Error(`${file} is a backup of an embedded (SQLite) database; restore it into a sqlite: DATABASE_URL.`);
  return restorePostgres(target, file, options.force ?? false);
}

async function hasData(db: Db, dialect: 'sqlite' | 'postgres'): Promise<string | null> {
  for (const table of await listTables(db, dialect)) {
    if (BOOKKEEPING.has(table)) continue;
    if (await db.selectFrom(table).select(sql`1`.as('x')).limit(1).executeTakeFirst()) return table;
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
        if (table && !force) throw new Error(`The database at ${path} is not empty (${table} has rows): restore refuses to overwrite it without --force.`);
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
    for (const t of await listTables(restored.db, 'sqlite')) rows += Number((await restored.db.selectFrom(t).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    return { format: 'sqlite', rows };
  } finally {
    await restored.close();
  }
}

async function restorePostgres(target: Target, file: string, force: boolean): Promise<RestoreResult> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })[Symbol.asyncIterator]();
  const first = await lines.next();
  const header = first.done ? null : JSON.parse(first.value) as { format?: string; version?: number; migrations?: string[] };
  if (!header || header.format !== DUMP_FORMAT || header.version !== 1) throw new Error(`${file} is not a portal dump (${DUMP_FORMAT}, version 1).`);
  const unknown = (header.migrations ?? []).filter((m) => !(m in migrations));
  if (unknown.length > 0) throw new Error(`The dump comes from a newer portal (migrations ${unknown.join(', ')}): restore it with that version.`);
  const database = openDatabase({ url: target.url, pgSchema: target.schema, poolSize: 1 });
  let rows = 0;
  try {
    // The schema first (this version's; the dump's columns are a subset of it), then the rows.
    await migrateToLatest(database.db, target.schema);
    const occupied = await hasData(database.db, 'postgres');
    if (occupied && !force) throw new Error(`The target database is not empty (${occupied} has rows): restore refuses to overwrite it without --force.`);
    await database.db.transaction().execute(async (trx) => {
      if (occupied) {
        // The audit log refuses deletes (migration 004); replacing a whole database is the one exception, so its
        // triggers are off for this transaction only (ALTER TABLE is transactional on PostgreSQL).
        await sql`alter table audit_log disable trigger user`.execute(trx);
        for (const t of (await tablesInDependencyOrder(trx)).reverse()) await trx.deleteFrom(t).execute();
        await sql`alter table audit_log enable trigger user`.execute(trx);
      }
      let table: string | null = null;
      let columns: string[] = [];
      let batch: Array<Record<string, unknown>> = [];
      const flush = async () => {
        if (table && batch.length > 0) await trx.insertInto(table).values(batch).execute();
        batch = [];
      };
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        if (next.value === '') continue;
        const entry = JSON.parse(next.value) as unknown;
        if (Array.isArray(entry)) {
          if (!table) throw new Error('The dump has a row before any table.');
          batch.push(Object.fromEntries(columns.map((c, i) => [c, decode(entry[i])])));
          rows += 1;
          if (batch.length >= 200) await flush();
          continue;
        }
        await flush();
        const t = entry as { table: string; columns: string[] };
        table = t.table;
        columns = t.columns;
      }
      await flush();
    });
    const problems = await integrityProblems(database.db, 'postgres');
    if (problems.length > 0) throw new Error(`The restored database fails its checks: ${problems.join('; ')}`);
  } finally {
    await database.close();
  }
  return { format: 'jsonl', rows };
}
