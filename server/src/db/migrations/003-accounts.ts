import type { Kysely } from 'kysely';

/**
 * Self-service accounts: password-reset links (stored only as SHA-256 hashes of their tokens) and a small log of
 * rate-limited requests (sign-ups, reset requests) per client address or e-mail address, shared by every replica.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable('password_reset_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await s.createIndex('password_reset_tokens_user').on('password_reset_tokens').column('user_id').execute();

  await s
    .createTable('rate_limit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('throttle_key', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .execute();
  await s
    .createIndex('rate_limit_events_key')
    .on('rate_limit_events')
    .columns(['throttle_key', 'occurred_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_events').execute();
  await db.schema.dropTable('password_reset_tokens').execute();
}
