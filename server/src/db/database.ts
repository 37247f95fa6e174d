import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type LogEvent,
  type Migration,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import { openSqlite, statementBytes, withStatementCache } from './sqlite-connection.js';
import { SqliteReaderPool, readerThreadsDb } from './sqlite-readers/pool.js';
import { ALL_MECHANISMS_ON, type Mechanisms } from '../performance/mechanisms.js';

export { statementBytes, STATEMENT_CACHE_BYTES } from './sqlite-connection.js';
import type { Dialect } from './dialect.js';
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
import * as m012 from './migrations/012-api-clients.js';
import * as m013 from './migrations/013-transfer-lines.js';
import * as m014 from './migrations/014-countersignature.js';
import * as m015 from './migrations/015-august-answer.js';
import * as m016 from './migrations/016-form1-stale-kept.js';
import * as m017 from './migrations/017-season-title-unique.js';

export type { Dialect } from './dialect.js';

// The engine composes its SQL dynamically, so the tables are not typed here; resource definitions name columns.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the engine's SQL is dynamic (the comment above)
export type Db = Kysely<any>;

export interface Database {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
  /** SQLite only: the whole database as bytes (tests copy a loaded demo database this way). */
  serialize?(): Buffer;
  /**
   * Where the costly reads run (jsonapi/read-cost.ts; never a write's), at most `costlyReadsAtOnce` statements at once,
   * under the time budget: on SQLite (a file) reader threads (db/sqlite-readers/), on PostgreSQL a pool of its own.
   */
  costlyReads?: Db;
  /**
   * SQLite on a file with reader threads and the `reads-beside-writes` mechanism: whether the server's connection is
   * inside a write transaction now, with a reader thread free to take a read. Kysely runs every statement on that one
   * connection in turn, so a read sent to `db` now waits for the transaction's end; one sent to `costlyReads` reads
   * the last committed data meanwhile (WAL).
   */
  writerBusy?(): boolean;
  /** SQLite: starts the reader threads now, so that the first costly read does not wait for one (server.ts). */
  startReaders?(): Promise<void>;
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
  '012-api-clients': m012,
  '013-transfer-lines': m013,
  '014-countersignature': m014,
  '015-august-answer': m015,
  '016-form1-stale-kept': m016,
  '017-season-title-unique': m017,
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
   * SQLite: the same budget for the statements of the reader threads (`costlyReadsAtOnce`).
   */
  statementTimeoutMs?: number;
  /**
   * Statements of costly reads run at once (decision 0009): SQLite on a file, reader threads (db/sqlite-readers/);
   * PostgreSQL, connections of a pool of their own, so that one user's costly reads never hold the pool's
   * connections or every core. 0 or unset: none, every read on `db`.
   */
  costlyReadsAtOnce?: number;
  /**
   * The performance mechanisms on (performance/mechanisms.ts; default all): here `row-builders`
   * (sqlite-connection.ts), `pg-named` (withNamedStatements) and `reads-beside-writes` (`writerBusy`).
   */
  mechanisms?: Mechanisms;
}

export function openDatabase(options: DatabaseOptions): Database {
  const { url } = options;
  const on = options.mechanisms ?? ALL_MECHANISMS_ON;
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
    const db = new Kysely({
      dialect: new PostgresDialect({ pool: on['pg-named'] ? withNamedStatements(pool) : pool }),
      log: onQuery,
    });
    const costlyReads = options.costlyReadsAtOnce ? costlyReadsPool(url, options, types, on['pg-named']) : undefined;
    const close = async () => {
      await costlyReads?.destroy();
      await db.destroy();
    };
    return { db, dialect: 'postgres', close, costlyReads };
  }
  if (!url.startsWith('sqlite:')) throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
  const path = url.slice('sqlite:'.length);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = openSqlite(path, { image: options.sqliteImage });
  const statements = withStatementCache(sqlite, { rowBuilders: on['row-builders'] });
  const db = new Kysely({ dialect: new SqliteDialect({ database: statements }), log: onQuery });
  const readers =
    options.costlyReadsAtOnce && path !== ':memory:' && !options.sqliteImage
      ? new SqliteReaderPool(path, options.costlyReadsAtOnce, options.statementTimeoutMs ?? 0, on['row-builders'])
      : null;
  const costlyReads = readers ? readerThreadsDb(readers, onQuery) : undefined;
  const close = async () => {
    await costlyReads?.destroy();
    await db.destroy();
  };
  return {
    db,
    dialect: 'sqlite',
    close,
    serialize: () => sqlite.serialize(),
    costlyReads,
    // Only when a reader thread is free: behind a costly read, a read would wait as long and risk its 503.
    writerBusy:
      readers && on['reads-beside-writes'] ? () => sqlite.inTransaction && readers.hasIdleThread() : undefined,
    startReaders: async () => readers?.start(),
  };
}

/**
 * PostgreSQL's costly reads: a pool of `costlyReadsAtOnce` connections of their own, under the same
 * statement_timeout. A costly read that waits longer than that for a connection answers 503 as one cancelled does
 * (code 57014, plugins/errors.ts), so a queue of them cannot grow without end.
 */
function costlyReadsPool(url: string, options: DatabaseOptions, types: pg.CustomTypesConfig, named: boolean): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.costlyReadsAtOnce,
    types,
    options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
    statement_timeout: options.statementTimeoutMs || undefined,
    connectionTimeoutMillis: options.statementTimeoutMs || undefined,
  });
  const connections: PostgresPool = named ? withNamedStatements(pool) : pool;
  const busy = () => Object.assign(new Error('The server is busy with other costly reads.'), { code: '57014' });
  return new Kysely({
    dialect: new PostgresDialect({
      pool: {
        connect: () =>
          connections.connect().catch((e: unknown) => {
            throw /timeout/i.test(String(e)) ? busy() : e;
          }),
        end: () => connections.end(),
      },
    }),
    log: onQuery,
  });
}

/** The statements a PostgreSQL connection prepares by name, in estimated bytes; statements beyond run unnamed. */
export const PG_NAMED_STATEMENT_BYTES = 16 * 1024 * 1024;
/** A statement larger than this share of the budget is never named: it runs unnamed, as a rare one should. */
const PG_NAMED_STATEMENT_MAX_SHARE = 16;

/**
 * The pool as Kysely sees it, with each statement that has parameters sent as a named prepared statement. Kysely sends
 * unnamed statements, which PostgreSQL parses and plans at every run: for the invoices page's statements (the files'
 * access rule has ten EXISTS branches) planning took four times longer than running, and a named statement answered in
 * a third of the time (decision 0007). node-pg parses a named statement once per connection and PostgreSQL keeps its
 * plan. Each connection prepares at most PG_NAMED_STATEMENT_BYTES of them, as statementBytes estimates (each costs the
 * server memory; the first ones a connection runs are the app's own, kept for good); the rest, and statements without
 * parameters (transaction commands, migrations' DDL), run unnamed.
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
      if (
        cost > 0 &&
        cost <= PG_NAMED_STATEMENT_BYTES / PG_NAMED_STATEMENT_MAX_SHARE &&
        bytes + cost <= PG_NAMED_STATEMENT_BYTES
      ) {
        name = `k${prepared.size}`;
        prepared.set(statement, name);
        bytes += cost;
      }
      return name
        ? client.query({ name, text: statement, values: [...parameters] })
        : client.query(statement, [...parameters]);
    };
    return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    // Kysely keeps one connection object per client object: the same wrapper for the same client.
    connect: async () => {
      const client = await pool.connect();
      let found = wrapped.get(client);
      if (!found) {
        found = wrap(client);
        wrapped.set(client, found);
      }
      return found;
    },
    end: () => pool.end(),
  };
}

/**
 * Brings the schema up to date. On PostgreSQL, name the schema when it is not `public`: Kysely looks for its
 * bookkeeping tables by name across schemas, and would otherwise find another schema's.
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
