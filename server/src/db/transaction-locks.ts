import { sql } from 'kysely';
import type { Db } from './database.js';
import type { Dialect } from './dialect.js';

/**
 * Holds the named locks until the caller's transaction ends, for a write that reads rows and then writes what it
 * derived from them (an invoice from the forms it bills): a second write of the same keys waits for the first to
 * commit and then reads what it wrote, instead of failing on a stale read.
 *
 * PostgreSQL (READ COMMITTED) takes nothing on a read, so the keys become transaction-scoped advisory locks, keyed by
 * a stable 64-bit hash of each name within the connection's schema: advisory locks belong to the whole database,
 * which may hold several portals' schemas (tests, the benchmark's data), and a name is one portal's. All of a write's
 * keys are taken in one statement, in the order of their hashes (PostgreSQL evaluates a volatile function of the
 * select list after the sort), so two writes that need overlapping keys take them in the same order and never
 * deadlock. Take them before the first read they protect.
 *
 * SQLite needs none: every server transaction there is `begin immediate` (db/sqlite-connection.ts), which holds the
 * database's one write lock from its start, so writes already run one at a time.
 */
export async function lockForTransaction(db: Db, dialect: Dialect, names: readonly string[]): Promise<void> {
  if (dialect !== 'postgres' || names.length === 0) return;
  await sql`select pg_advisory_xact_lock(k.key)
    from (select distinct hashtextextended(current_schema() || '/' || n, 0) as key from unnest(${[...names]}::text[]) as n) as k
    order by k.key`.execute(db);
}
