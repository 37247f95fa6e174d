import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';

/** Which database a Kysely instance talks to (for code that gets a bare Kysely, as migrations do). */
export const dialectOf = (db: Kysely<unknown>): Dialect =>
  db.getExecutor().adapter.constructor.name.startsWith('Postgres') ? 'postgres' : 'sqlite';

/**
 * The tables of the database the app writes (the current schema on PostgreSQL, the main database on SQLite), sorted by
 * name. Kysely's own bookkeeping (migrations and their lock) is included.
 */
export async function listTables(db: Kysely<unknown>, dialect: Dialect = dialectOf(db)): Promise<string[]> {
  const result =
    dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return result.rows.map((r) => r.name).sort();
}
