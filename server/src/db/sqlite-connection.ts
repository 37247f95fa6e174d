import SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { fold, SQLITE_FOLD_FUNCTION } from '../jsonapi/fold.js';
import { serialOf, SQLITE_SERIAL_FUNCTION } from '../jsonapi/resource.js';
import { bytesBoundedCache } from '../lib/lru.js';

/**
 * How a SQLite connection is opened and run: the server's one connection (db/database.ts) and the reader threads'
 * read-only ones (db/sqlite-readers/) alike, so a statement plans and answers the same on either.
 */

/**
 * What a prepared statement costs the database's memory, estimated from its text: about 20 bytes a character for the
 * engine's statements (EXISTS over access rules; measured on SQLite: 300 statements of 3.5 KB took 21 MB), plus a
 * little. Both statement caches are bounded by this, not by a count of statements (issue 32).
 */
export const statementBytes = (sqlText: string) => 2048 + sqlText.length * 20;

/**
 * The server's connection (read and write, `image` for a database given as bytes) or a reader thread's
 * (`readonly`). Only the writer gathers planner statistics and drops their value samples: they are kept in the
 * file, where the readers find them.
 */
export function openSqlite(path: string, options: { image?: Buffer; readonly?: boolean } = {}): SQLite.Database {
  const sqlite = options.image
    ? new SQLite(options.image)
    : new SQLite(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  sqlite.pragma('busy_timeout = 5000');
  if (!options.readonly) {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    // Planner statistics, as SQLite advises for long-lived connections: analyses the tables whose statistics are
    // missing or stale (sampled, so a few hundred ms at most, nothing when current). Without them SQLite picked the
    // handler's index over the package's for `package_id IN (...) AND handler_id = ?` (a form include), reading all
    // of a handler's forms of every season to return one season's (decision 0007).
    sqlite.pragma('optimize=0x10002');
    dropValueSamples(sqlite);
  }
  // The text operators' case and accent fold (jsonapi/fold.ts); PostgreSQL does it with built-in functions.
  sqlite.function(SQLITE_FOLD_FUNCTION, { deterministic: true }, (v: unknown) => (typeof v === 'string' ? fold(v) : v));
  // Drupal's integer ids (drupal_internal__nid, __uid) made from the UUID (jsonapi/resource.ts).
  sqlite.function(SQLITE_SERIAL_FUNCTION, { deterministic: true }, (v: unknown) =>
    typeof v === 'string' ? serialOf(v) : null,
  );
  return sqlite;
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
      names.forEach((name, i) =>
        Object.defineProperty(row, name, { value: values[i], enumerable: true, writable: true, configurable: true }),
      );
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
export function withStatementCache(
  sqlite: SQLite.Database,
  options: { rowBuilders: boolean } = { rowBuilders: true },
): SqliteDatabase {
  const statements = bytesBoundedCache<SqliteStatement>(STATEMENT_CACHE_BYTES, (text) => statementBytes(text));
  // The `row-builders` mechanism (performance/mechanisms.ts); off, better-sqlite3 builds the row objects itself.
  const prepared = options.rowBuilders
    ? (text: string) => withFastRows(sqlite.prepare(text))
    : (text: string): SqliteStatement => sqlite.prepare(text);
  return {
    prepare(sqlText: string) {
      const text = sqlText === 'begin' ? BEGIN_WRITE : sqlText;
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = prepared(text)));
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
