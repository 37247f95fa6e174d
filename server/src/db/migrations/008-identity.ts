import { sql, type Kysely } from 'kysely';

/**
 * Identities that cannot be confused (docs/SECURITY.md, "Identity"):
 * - usernames and e-mail addresses are unique whatever their case: unique indexes on lower(name) and lower(mail).
 *   Existing rows that differ only by case are not merged or renamed by guesswork: the migration stops and lists
 *   them, so an operator decides which account keeps the name or address (`npm run portal -- list-users`).
 * - users.mail_verified_at: when the address was proved to reach its user (a link mailed to it was followed, or
 *   staff set it). Single sign-on only accepts a verified address. Addresses already there were set by staff, the
 *   operators or approved sign-ups, so they count as verified from now; pending sign-ups' do not.
 * - account_tokens: single-use links mailed to a user, kept as SHA-256 hashes like OAuth tokens: `email` confirms
 *   an address (a sign-up's, or a new one the user asked for: `mail` holds it), `unlock` lifts a sign-in lockout.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await refuseCollisions(db);
  const s = db.schema;
  await s
    .createIndex('users_name_lower')
    .unique()
    .on('users')
    .expression(sql`lower(name)`)
    .execute();
  await s
    .createIndex('users_mail_lower')
    .unique()
    .on('users')
    .expression(sql`lower(mail)`)
    .execute();
  await s.alterTable('users').addColumn('mail_verified_at', 'text').execute();
  await sql`update users set mail_verified_at = changed where mail is not null and status <> 'pending'`.execute(db);

  await s
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('mail', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await s.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_tokens').execute();
  await db.schema.alterTable('users').dropColumn('mail_verified_at').execute();
  await db.schema.dropIndex('users_mail_lower').execute();
  await db.schema.dropIndex('users_name_lower').execute();
}

export class IdentityCollisionError extends Error {}

/** Stops with every group of users whose usernames, or e-mail addresses, differ only by case. */
async function refuseCollisions(db: Kysely<unknown>): Promise<void> {
  const lines: string[] = [];
  for (const [column, label] of [
    ['name', 'username'],
    ['mail', 'e-mail address'],
  ] as const) {
    const rows = await sql<{ id: string; name: string; value: string; folded: string }>`
      select id, name, ${sql.ref(column)} as value, lower(${sql.ref(column)}) as folded from users
      where lower(${sql.ref(column)}) in (
        select lower(${sql.ref(column)}) from users where ${sql.ref(column)} is not null
        group by lower(${sql.ref(column)}) having count(*) > 1)
      order by lower(${sql.ref(column)}), id`.execute(db);
    const groups = new Map<string, string[]>();
    for (const r of rows.rows)
      groups.set(r.folded, [...(groups.get(r.folded) ?? []), `${r.name} (id ${r.id}, ${label} "${r.value}")`]);
    for (const [folded, users] of groups) lines.push(`  ${label} "${folded}": ${users.join('; ')}`);
  }
  if (lines.length === 0) return;
  throw new IdentityCollisionError(
    [
      'Migration 008-identity stopped: usernames and e-mail addresses must be unique whatever their case, and these',
      'accounts differ only by case. Nothing was changed. Decide which account keeps each name or address, change the',
      'others (or block and rename them), then start the server again:',
      ...lines,
    ].join('\n'),
  );
}
