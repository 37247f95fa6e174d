import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { migrateToLatest, migrations, openDatabase, type Db } from '../db/database.js';
import { listTables } from '../db/tables.js';
import { DATA_VERSION_TABLE } from '../db/data-version.js';
import { integrityProblems } from './integrity.js';
import { requirePgTool } from './pg-client.js';

/**
 * PostgreSQL backups with PostgreSQL's own tools (decision 0008): `pg_dump --format=custom` of the portal's schema
 * only, and `pg_restore` of such an archive in one transaction. pg_dump takes its own snapshot, so the archive is
 * consistent while the server keeps writing.
 *
 * An archive names its schema, and pg_restore has no option to restore under another name. So the restore makes
 * that name free (moving an existing schema of that name aside, if it holds no tables or is the target itself),
 * restores, then in one transaction renames the result to the target schema, checks it, and drops what it replaced.
 * Any failure puts back what was there before.
 */
export const PG_ARCHIVE_MAGIC = 'PGDMP';

/** Bookkeeping of the migrator and the data version: not part of the data a restore is judged by. */
export const BOOKKEEPING: ReadonlySet<string> = new Set([
  'kysely_migration',
  'kysely_migration_lock',
  DATA_VERSION_TABLE,
]);

export interface Target {
  url: string;
  /** PostgreSQL schema (DATABASE_SCHEMA); the connection's current schema when absent. */
  schema?: string;
}

const exec = promisify(execFile);

/** The connection for a client program: the URL without its password, which goes in PGPASSWORD (not in `ps`). */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: `--dbname=${u.toString()}`, env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

async function runTool(program: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    return (await exec(program, args, { env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' })).stdout;
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(`${program.split('/').pop()} failed: ${stderr || (error as Error).message}`);
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function serverMajor(db: Db): Promise<number> {
  const r = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  return Math.floor(Number(r.rows[0].server_version_num) / 10000);
}

async function currentSchema(db: Db): Promise<string> {
  const r = await sql<{ s: string | null }>`select current_schema() as s`.execute(db);
  const schema = r.rows[0].s;
  if (!schema) throw new Error('The connection has no current schema: set DATABASE_SCHEMA.');
  return schema;
}

async function schemaExists(db: Db, schema: string): Promise<boolean> {
  return (await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(db)).rows.length > 0;
}

async function tableCount(db: Db, schema: string): Promise<number> {
  const r = await sql<{
    n: string;
  }>`select count(*) as n from information_schema.tables where table_schema = ${schema}`.execute(db);
  return Number(r.rows[0].n);
}

interface Archive {
  schema: string;
  tables: number;
  migrations: string[];
}

/** What an archive holds, from its table of contents (`pg_restore --list`) and its kysely_migration rows. */
async function readArchive(pgRestore: string, file: string): Promise<Archive> {
  const list = await runTool(pgRestore, ['--list', file]);
  const schemas: string[] = [];
  let tables = 0;
  let hasMigrations = false;
  for (const line of list.split('\n')) {
    // "8; 2615 84037 SCHEMA - name owner", "290; 1259 84039 TABLE schema name owner", "... TABLE DATA schema name
    // owner"
    const m = /^\d+; \d+ \d+ (TABLE DATA|TABLE|SCHEMA) (\S+) (\S+)/.exec(line);
    if (!m) continue;
    if (m[1] === 'SCHEMA') schemas.push(m[3]);
    if (m[1] === 'TABLE DATA') tables += 1;
    if (m[1] === 'TABLE' && m[3] === 'kysely_migration') hasMigrations = true;
  }
  if (schemas.length !== 1 || !hasMigrations)
    throw new Error(`${file} is a pg_dump archive, but not of one portal schema (written by npm run backup).`);
  const copy = await runTool(pgRestore, [
    '--data-only',
    `--schema=${schemas[0]}`,
    '--table=kysely_migration',
    '--file=-',
    file,
  ]);
  // COPY text format: the rows between "COPY ... FROM stdin;" and "\.", tab-separated; the name is the first column.
  const body = /^COPY [^\n]*FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(copy)?.[1] ?? '';
  return {
    schema: schemas[0],
    tables,
    migrations: body
      .split('\n')
      .filter(Boolean)
      .map((row) => row.split('\t')[0]),
  };
}

export interface PgBackupResult {
  format: 'pg_dump';
  tables: number;
  rows: null;
}

/** `pg_dump --format=custom` of the target's schema into `file`, checked by reading its table of contents back. */
export async function dumpPostgres(target: Target, file: string): Promise<PgBackupResult> {
  const admin = openDatabase({ url: target.url, poolSize: 1 });
  let major: number;
  let schema: string;
  try {
    major = await serverMajor(admin.db);
    schema = target.schema ?? (await currentSchema(admin.db));
  } finally {
    await admin.close();
  }
  const { dbname, env } = connection(target.url);
  // A double-quoted --schema pattern is the exact name; --strict-names fails rather than dump nothing.
  await runTool(
    requirePgTool('pg_dump', major),
    [
      '--format=custom',
      `--schema=${ident(schema)}`,
      '--strict-names',
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
      dbname,
    ],
    env,
  );
  const archive = await readArchive(requirePgTool('pg_restore', major), file);
  return { format: 'pg_dump', tables: archive.tables, rows: null };
}

/** The first table of the schema that has a row, or null. */
async function tableWithRows(url: string, schema: string): Promise<string | null> {
  const database = openDatabase({ url, pgSchema: schema, poolSize: 1 });
  try {
    for (const table of await listTables(database.db, 'postgres')) {
      if (BOOKKEEPING.has(table)) continue;
      if (
        await database.db
          .selectFrom(table)
          .select(sql`1`.as('x'))
          .limit(1)
          .executeTakeFirst()
      )
        return table;
    }
    return null;
  } finally {
    await database.close();
  }
}

/** Restores a `dumpPostgres` archive into the target schema. Stop the servers first. */
export async function restorePostgres(target: Target, file: string, force: boolean): Promise<{ rows: number }> {
  const admin = openDatabase({ url: target.url, poolSize: 1 });
  let schema: string;
  let replacedVersion: number | null = null;
  try {
    const pgRestore = requirePgTool('pg_restore', await serverMajor(admin.db));
    const archive = await readArchive(pgRestore, file);
    const unknown = archive.migrations.filter((m) => !(m in migrations));
    if (unknown.length > 0)
      throw new Error(
        `The dump comes from a newer portal (migrations ${unknown.join(', ')}): restore it with that version.`,
      );
    schema = target.schema ?? (await currentSchema(admin.db));
    const occupied = await tableWithRows(target.url, schema);
    if (occupied && !force)
      throw new Error(
        `The target database is not empty (${occupied} has rows): restore refuses to overwrite it without --force.`,
      );
    if (occupied) replacedVersion = await dataVersion(admin.db, schema);
    if (archive.schema !== schema && (await tableCount(admin.db, archive.schema)) > 0) {
      throw new Error(
        `The dump's schema ${archive.schema} exists in this database and holds tables, and pg_restore writes under that ` +
          `name: restore into another database, or rename or drop ${archive.schema} first.`,
      );
    }
    await restoreUnderTarget(admin.db, pgRestore, target.url, file, archive.schema, schema);
  } finally {
    await admin.close();
  }
  return finish(target.url, schema, replacedVersion);
}

async function restoreUnderTarget(
  db: Db,
  pgRestore: string,
  url: string,
  file: string,
  from: string,
  schema: string,
): Promise<void> {
  const rename = (a: string, b: string) => sql.raw(`alter schema ${ident(a)} rename to ${ident(b)}`);
  // The archive's name must be free: an existing schema of that name (the target, or an empty one such as public)
  // waits under another name until the restore has succeeded.
  const aside = (await schemaExists(db, from))
    ? `${from.slice(0, 40)}_pre_restore_${randomBytes(4).toString('hex')}`
    : null;
  if (aside) await rename(from, aside).execute(db);
  const { dbname, env } = connection(url);
  try {
    await runTool(
      pgRestore,
      ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', dbname, file],
      env,
    );
  } catch (error) {
    if (aside) await rename(aside, from).execute(db);
    throw error;
  }
  try {
    await db.transaction().execute(async (trx) => {
      if (from !== schema) {
        await sql.raw(`drop schema if exists ${ident(schema)} cascade`).execute(trx);
        await rename(from, schema).execute(trx);
        if (aside) await rename(aside, from).execute(trx);
      } else if (aside) {
        await sql.raw(`drop schema ${ident(aside)} cascade`).execute(trx);
      }
      // The checks run before commit, so a restore that fails them leaves what was there before.
      await sql`select set_config('search_path', ${ident(schema)}, true)`.execute(trx);
      const problems = await integrityProblems(trx, 'postgres');
      if (problems.length > 0) throw new Error(`The restored database fails its checks: ${problems.join('; ')}`);
    });
  } catch (error) {
    await sql.raw(`drop schema if exists ${ident(from)} cascade`).execute(db);
    if (aside) await rename(aside, from).execute(db);
    throw error;
  }
}

async function dataVersion(db: Db, schema: string): Promise<number> {
  const r = await sql
    .raw<{ version: number }>(`select version from ${ident(schema)}.data_version where id = 1`)
    .execute(db)
    .catch(() => ({ rows: [] }));
  return Number(r.rows[0]?.version ?? 0);
}

/** Brings an older backup up to date and counts the rows; the data version moves past the replaced data's. */
async function finish(url: string, schema: string, replacedVersion: number | null): Promise<{ rows: number }> {
  const database = openDatabase({ url, pgSchema: schema, poolSize: 1 });
  try {
    await migrateToLatest(database.db, schema);
    // A document kept at the replaced data's version (by a server left running) must not pass for the restored data's.
    if (replacedVersion !== null)
      await sql`update data_version set version = greatest(version, ${replacedVersion}) + 1 where id = 1`.execute(
        database.db,
      );
    let rows = 0;
    for (const t of await listTables(database.db, 'postgres')) {
      rows += Number(
        (
          await database.db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    }
    return { rows };
  } finally {
    await database.close();
  }
}
