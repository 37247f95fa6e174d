import type { Kysely } from 'kysely';

/**
 * Staff second factor and active sessions.
 *
 * user_totp: a user's enrolled TOTP factor (RFC 6238): the base32 secret and the last time step accepted, so a code
 * is never accepted twice (RFC 6238 §5.2). A table of its own, which no JSON:API resource reads.
 * mfa_recovery_codes: ten single-use codes per enrolled user, stored as SHA-256 hashes.
 * mfa_enrollments: short-lived enrolment tokens (hashed) for a staff user who signs in without a factor; each
 * carries the secret being set up until the first code confirms it.
 * oauth_token_families gains what the "active sessions" list shows: the browser's user agent, the address it
 * signed in from, and when the session was last refreshed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable('user_totp')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enrolled_at', 'text', (c) => c.notNull())
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await s
    .createTable('mfa_recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await s.createIndex('mfa_recovery_codes_user').on('mfa_recovery_codes').column('user_id').execute();

  await s
    .createTable('mfa_enrollments')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await s.createIndex('mfa_enrollments_user').on('mfa_enrollments').column('user_id').execute();

  await s.alterTable('oauth_token_families').addColumn('user_agent', 'text').execute();
  await s.alterTable('oauth_token_families').addColumn('address', 'text').execute();
  await s.alterTable('oauth_token_families').addColumn('last_used', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_token_families').dropColumn('last_used').execute();
  await db.schema.alterTable('oauth_token_families').dropColumn('address').execute();
  await db.schema.alterTable('oauth_token_families').dropColumn('user_agent').execute();
  await db.schema.dropTable('mfa_enrollments').execute();
  await db.schema.dropTable('mfa_recovery_codes').execute();
  await db.schema.dropTable('user_totp').execute();
}
