import { sql, type Kysely } from 'kysely';
import { dialectOf, listTables } from './tables.js';

/**
 * The data version: one number in the database that every committed change to what the API shows moves on. The
 * JSON:API keeps a document it built with the version it was built at (jsonapi/document-cache.ts) and serves it
 * again only while the version is the same, so a replica never needs to hear of another's writes: the database
 * tells each of them, in the same statement that checks the bearer token.
 *
 * Database triggers move it, not the code that writes, so no write path (a workflow, the council console, a
 * restore, a hand-run UPDATE) can forget to. SQLite: a row trigger per table and change, inside the writing
 * statement (SQLite has one writer at a time). PostgreSQL: a row trigger deferred to commit, so the single row is
 * locked only while a transaction commits (an immediate trigger would hold it from a transaction's first write to
 * its end, and could deadlock two writers that meet on another row first); `bumped_by` makes the first of a
 * transaction's rows move the version and the rest do nothing.
 */
export const DATA_VERSION_TABLE = 'data_version';

/**
 * Tables whose changes no API document shows, and which change on sign-in or on reads: watching them would throw
 * away every kept document at each sign-in, token refresh or reminder. A test checks that no resource type reads
 * one of them and that every other table is watched (db/data-version.test.ts).
 */
export const UNWATCHED_TABLES: ReadonlySet<string> = new Set([
  DATA_VERSION_TABLE,
  'kysely_migration',
  'kysely_migration_lock',
  // Sign-in, tokens and throttling: the bearer check reads these at every request anyway.
  'oauth_clients',
  'oauth_token_families',
  'oauth_access_tokens',
  'oauth_refresh_tokens',
  'login_failures',
  'rate_limit_events',
  'password_reset_tokens',
  'account_tokens',
  'user_totp',
  'mfa_enrollments',
  'mfa_recovery_codes',
  // API clients and their tokens: read by the bearer check; `last_used` moves on reads (docs/API-CLIENTS.md).
  'api_clients',
  'api_client_tokens',
  // Read only by the council endpoints, never through the JSON:API.
  'audit_log',
  'reminders_sent',
]);

const isPostgres = (db: Kysely<unknown>) => dialectOf(db) === 'postgres';

/** Creates the version row and, on PostgreSQL, the function the triggers call. */
export async function createDataVersion(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable(DATA_VERSION_TABLE)
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('bumped_by', 'bigint')
    .execute();
  await sql`insert into data_version (id, version) values (1, 0)`.execute(db);
  if (!isPostgres(db)) return;
  await sql`create or replace function bump_data_version() returns trigger language plpgsql as $$
    begin
      update data_version set version = version + 1, bumped_by = txid_current()
        where id = 1 and bumped_by is distinct from txid_current();
      return null;
    end
  $$`.execute(db);
}

/** Makes every insert, update and delete on `table` move the data version. A migration adding a table calls it. */
export async function watchTable(db: Kysely<unknown>, table: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Not a table name: ${table}`);
  if (isPostgres(db)) {
    await sql
      .raw(
        `create constraint trigger ${table}_data_version after insert or update or delete on ${table}
      deferrable initially deferred for each row execute function bump_data_version()`,
      )
      .execute(db);
    return;
  }
  for (const change of ['insert', 'update', 'delete']) {
    await sql
      .raw(
        `create trigger ${table}_data_version_${change} after ${change} on ${table}
      begin update data_version set version = version + 1 where id = 1; end`,
      )
      .execute(db);
  }
}

/** The tables of the current schema that the triggers should watch: the migration's work list. */
export async function tablesToWatch(db: Kysely<unknown>): Promise<string[]> {
  return (await listTables(db)).filter((t) => !UNWATCHED_TABLES.has(t));
}

/** Undoes `createDataVersion` and every `watchTable` (the migration's down). */
export async function dropDataVersion(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop function if exists bump_data_version() cascade`.execute(db);
  } else {
    const triggers = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'trigger' and name like '%data_version%'`.execute(db);
    for (const t of triggers.rows) await sql.raw(`drop trigger "${t.name}"`).execute(db);
  }
  await db.schema.dropTable(DATA_VERSION_TABLE).execute();
}
