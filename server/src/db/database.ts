import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type LogEvent, type Migration, type PostgresCursor, type PostgresPool, type PostgresPoolClient, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { LruMap } from '../lib/lru.js';
import pg from 'pg';
import { fold, SQLITE_FOLD_FUNCTION } from '../jsonapi/fold.js';
import { serialOf, SQLITE_SERIAL_FUNCTION } from '../jsonapi/resource.js';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-settings.js';
import * as m003 from './migrations/003-accounts.js';
import * as m004 from './migrations/004-council.js';
import * as m005 from './migrations/005-mfa-sessions.js';
import * as m006 from './migrations/006-handler-directory.js';
import * as m007 from './migrations/007-data-version.js';
import * as m008 from './migrations/008-identity.js';
import * as m009 from './migrations/009-publications.js';
import * as m010 from './migrations/010-form1-bases.js';
import * as m011 from './migrations/011-year-end-forms.js';

export type Dialect = 'sqlite' | 'postgres';

// The engine composes its SQL dynamically, so the tables are not typed here; resource definitions name columns.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = Kysely<any>;

export interface Database {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
  /** SQLite only: the whole database as bytes (tests copy a loaded demo database this way). */
  serialize?(): Buffer;
}

/** Every migration, in order. Keyed by name so the migrator records what ran. */
export const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-settings': m002,
  '003-accounts': m003,
  '004-council': m004,
  '005-mfa-sessions': m005,
  '006-handler-directory': m006,
  '007-data-version': m007,
  '008-identity': m008,
  '009-publications': m009,
  '010-form1-bases': m010,
  '011-year-end-forms': m011,
};

/**
 * Counts SQL statements per request (or per test) so tests can assert that a listing takes a fixed number of
 * queries whatever its size. Runs inside `countQueries`; outside it costs one lookup.
 */
const queryCounter = new AsyncLocalStorage<{ count: number }>();
export async function countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const box = { count: 0 };
  const result = await queryCounter.run(box, fn);
  return { result, queries: box.count };
}
function onQuery(_event?: LogEvent): void {
  const box = queryCounter.getStore();
  if (box) box.count += 1;
}

export interface DatabaseOptions {
  /** `sqlite:PATH`, `sqlite::memory:`, or a `postgres://` URL. */
  url: string;
  /** SQLite only: start from these bytes (a serialized database) instead of the file at `url`. */
  sqliteImage?: Buffer;
  /** PostgreSQL schema to use (tests give each file its own). */
  pgSchema?: string;
  poolSize?: number;
  /**
   * PostgreSQL only: the longest a statement may run (ms), past which the database cancels it (SQLSTATE 57014, a 503
   * for the request: plugins/errors.ts). Set on every connection at its start; not for migrations, which may be long.
   */
  statementTimeoutMs?: number;
}

export function openDatabase(options: DatabaseOptions): Database {
  const { url } = options;
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    // int8 (bigint, count(*)) arrives as a string by default; our bigints are pounds and cents, well inside 2^53.
    const types = {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
    };
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      types,
      options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
      statement_timeout: options.statementTimeoutMs || undefined,
    });
    const db = new Kysely({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }), log: onQuery });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (!url.startsWith('sqlite:')) throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
  const path = url.slice('sqlite:'.length);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = options.sqliteImage ? new SQLite(options.sqliteImage) : new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Planner statistics, as SQLite advises for long-lived connections: analyses the tables whose statistics are
  // missing or stale (sampled, so a few hundred ms at most, nothing when current). Without them SQLite picked the
  // handler's index over the package's for `package_id IN (...) AND handler_id = ?` (a form include), reading all
  // of a handler's forms of every season to return one season's (decision 0007).
  sqlite.pragma('optimize=0x10002');
  dropValueSamples(sqlite);
  // The text operators' case and accent fold (jsonapi/fold.ts); PostgreSQL does it with built-in functions.
  sqlite.function(SQLITE_FOLD_FUNCTION, { deterministic: true }, (v: unknown) => (typeof v === 'string' ? fold(v) : v));
  sqlite.function(SQLITE_SERIAL_FUNCTION, { deterministic: true }, (v: unknown) => (typeof v === 'string' ? serialOf(v) : null));
  const statements = withStatementCache(sqlite);
  const db = new Kysely({ dialect: new SqliteDialect({ database: statements }), log: onQuery });
  readersNow.set(db, (sqlText, parameters) => {
    if (sqlite.inTransaction) return null;
    onQuery();
    return statements.prepare(sqlText).all(parameters) as Array<Record<string, unknown>>;
  });
  return { db, dialect: 'sqlite', close: () => db.destroy(), serialize: () => sqlite.serialize() };
}

/**
 * Runs a read at once on SQLite, outside Kysely, or answers null when it cannot: on PostgreSQL, inside a
 * transaction's Kysely (`trx`), or while a transaction is open on the connection.
 */
export type ReadNow = (sqlText: string, parameters: readonly unknown[]) => Array<Record<string, unknown>> | null;

/**
 * The bearer check runs before every request, and on a kept document it is the request's only statement: Kysely's
 * way to it (the connection's mutex, its log hook, a promise at each step) cost about 2.5 us of CPU a request, 7 % of
 * a small read (decision 0007). better-sqlite3 answers synchronously, so a read between two
 * awaits of other requests is as safe as Kysely's, but for one case: a write transaction open on the one connection
 * (Kysely holds it across awaits), whose uncommitted rows the read would see, a data version that a rollback could
 * take back. Then the caller goes through Kysely, which waits for the transaction to end.
 */
const readersNow = new WeakMap<Db, ReadNow>();
export function readNow(db: Db): ReadNow | undefined {
  return readersNow.get(db);
}

/**
 * Keeps the planner's table statistics (sqlite_stat1) but not its value samples (sqlite_stat4, which better-sqlite3's
 * SQLite is built to gather). With samples, SQLite marks every statement whose plan might depend on a bound value to be
 * prepared again when that value is bound anew, and better-sqlite3 binds anew at every run: each cached statement was
 * parsed and planned again at every request (the invoices page's six statements 350 to 520 us instead of 165 to 180;
 * decision 0007). Our look-ups are equalities on keys, where the per-index averages of sqlite_stat1 are enough.
 * `analyze sqlite_schema` makes this connection load the statistics again without the samples.
 */
function dropValueSamples(sqlite: SQLite.Database): void {
  const hasSamples = sqlite.prepare("select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'").get();
  if (!hasSamples || !sqlite.prepare('select 1 from sqlite_stat4 limit 1').get()) return;
  sqlite.exec('delete from sqlite_stat4; analyze sqlite_schema');
}

/**
 * What a prepared statement costs the database's memory, estimated from its text: about 20 bytes a character for the
 * engine's statements (EXISTS over access rules; measured on SQLite: 300 statements of 3.5 KB took 21 MB), plus a
 * little. Both statement caches are bounded by this, not by a count of statements (issue 32).
 */
export const statementBytes = (sqlText: string) => 2048 + sqlText.length * 20;

/** The statements a PostgreSQL connection prepares by name, in estimated bytes; statements beyond run unnamed. */
export const PG_NAMED_STATEMENT_BYTES = 16 * 1024 * 1024;
/** A statement larger than this share of the budget is never named: it runs unnamed, as a rare one should. */
const PG_NAMED_STATEMENT_MAX_SHARE = 16;

/**
 * The pool as Kysely sees it, with each statement that has parameters sent as a named prepared statement. Kysely sends unnamed statements, which PostgreSQL parses and plans at every run: for the
 * invoices page's statements (the files' access rule has ten EXISTS branches) planning took four times longer than
 * running, and a named statement answered in a third of the time (decision 0007). node-pg parses a named
 * statement once per connection and PostgreSQL keeps its plan. Each connection prepares at most
 * PG_NAMED_STATEMENT_BYTES of them, as statementBytes estimates (each costs the server memory; the first ones a
 * connection runs are the app's own, kept for good); the rest, and statements without parameters (transaction
 * commands, migrations' DDL), run unnamed.
 */
function withNamedStatements(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    // Statement text -> its name on this connection (names need only be unique on their connection).
    const prepared = new Map<string, string>();
    let bytes = 0;
    const query = (statement: string | PostgresCursor<unknown>, parameters: ReadonlyArray<unknown> = []): unknown => {
      if (typeof statement !== 'string') return client.query(statement as unknown as pg.Submittable);
      let name = parameters.length > 0 ? prepared.get(statement) : undefined;
      const cost = name || parameters.length === 0 ? 0 : statementBytes(statement);
      if (cost > 0 && cost <= PG_NAMED_STATEMENT_BYTES / PG_NAMED_STATEMENT_MAX_SHARE && bytes + cost <= PG_NAMED_STATEMENT_BYTES) {
        name = `k${prepared.size}`;
        prepared.set(statement, name);
        bytes += cost;
      }
      return name ? client.query({ name, text: statement, values: [...parameters] }) : client.query(statement, [...parameters]);
    };
    return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    // Kysely keeps one connection object per client object: the same wrapper for the same client.
    connect: async () => {
      const client = await pool.connect();
      let found = wrapped.get(client);
      if (!found) { found = wrap(client); wrapped.set(client, found); }
      return found;
    },
    end: () => pool.end(),
  };
}

/** The prepared statements a SQLite connection keeps, in estimated bytes (least recently used dropped first). */
export const STATEMENT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Kysely opens a transaction with a plain (deferred) `begin`, which takes SQLite's write lock only at the first
 * write. Several server processes on one file (WEB_CONCURRENCY) then fail: a transaction that read before another
 * process committed cannot upgrade its snapshot to a writer (SQLITE_BUSY_SNAPSHOT, at once, busy timeout or not), and
 * the request was a 500. Transactions here are the writes' (reads run without one), so they take the write lock at
 * their start, and a second process waits for it (busy_timeout) instead of failing.
 */
const BEGIN_WRITE = 'begin immediate';

/**
 * A statement whose rows are read as arrays (better-sqlite3's raw mode) and made objects by a function written for
 * its columns. better-sqlite3 builds each row object in C++, one named property at a time: about 1 us a value here,
 * two to three times the raw read, and the largest cost of the long reads (a page of 200 invoices: 1.45 ms as
 * objects, 0.64 ms this way; decision 0007). The rows are the same plain objects, keys in column order.
 */
function withFastRows(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const toRow = rowFactory(statement.columns().map((c) => c.name));
  const raw = statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const values of raw.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}

/**
 * `(values) => ({ "id": values[0], "title": values[1], ... })` for these column names. An object literal gives every
 * row one shape, built at once; the names come from the statement's own columns and are written as JSON strings.
 * `__proto__` written that way would set the prototype, so a statement naming it gets a plain loop instead.
 */
function rowFactory(names: string[]): (values: unknown[]) => Record<string, unknown> {
  if (names.includes('__proto__')) {
    return (values) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, i) => Object.defineProperty(row, name, { value: values[i], enumerable: true, writable: true, configurable: true }));
      return row;
    };
  }
  const fields = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${fields} };`) as (values: unknown[]) => Record<string, unknown>;
}

/**
 * The connection as Kysely sees it, with one prepared statement kept per SQL text. Kysely's SQLite driver prepares
 * every statement it runs, and the engine's statements (access rules of every file owner, filters through EXISTS)
 * take longer to parse and plan than to run: preparing was the largest single cost of the small reads
 * (decision 0007). Only the text is the key; values are bound at each run and never kept, so two readers
 * never share anything but the text. SQLite re-prepares a statement by itself when the schema changes.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LruMap<SqliteStatement>(STATEMENT_CACHE_BYTES, (text) => statementBytes(text));
  return {
    prepare(sqlText: string) {
      const text = sqlText === 'begin' ? BEGIN_WRITE : sqlText;
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = withFastRows(sqlite.prepare(text))));
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/**
 * Brings the schema up to date. On PostgreSQL, name the schema when it is not `public`: Kysely looks for its
 * bookkeeping tables by name across schemas, and would otherwise find another schema's.
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
