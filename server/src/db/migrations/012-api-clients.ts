import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../tables.js';

/**
 * API clients for a handler's own systems (docs/API-CLIENTS.md):
 * - users.handler_admin: a handler user who may manage the company's API clients (set by council staff).
 * - api_clients: one row per client; `id` is the public client id. The secret is stored as an Argon2id hash only;
 *   during a rotation the previous hash keeps working until `previous_secret_expires_at`. `scope` is `read` or
 *   `read write`. A revoked client (`revoked_at`) authenticates no more and its tokens stop at once.
 * - api_client_tokens: access tokens of the client_credentials grant (SHA-256 of the token, as for sign-ins).
 * No API document shows these tables, and `last_used` changes on reads, so they are not watched (db/data-version.ts).
 */
/**
 * PostgreSQL refuses to ALTER a table with deferred trigger events pending (the data-version triggers, fired by an
 * earlier migration of the same run that wrote users, e.g. 008): run them now.
 */
async function firePendingTriggers(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`set constraints all immediate`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await firePendingTriggers(db);
  await s
    .alterTable('users')
    .addColumn('handler_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await s
    .createTable('api_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('handler_id', 'text', (c) => c.notNull().references('handlers.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('secret_created', 'text', (c) => c.notNull())
    .addColumn('previous_secret_hash', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('last_used', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await s.createIndex('api_clients_handler').on('api_clients').columns(['handler_id', 'created']).execute();
  await s
    .createTable('api_client_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('api_clients.id'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await s
    .createIndex('api_client_tokens_client')
    .on('api_client_tokens')
    .columns(['client_id', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropTable('api_client_tokens').execute();
  await s.dropTable('api_clients').execute();
  await firePendingTriggers(db);
  await s.alterTable('users').dropColumn('handler_admin').execute();
}
