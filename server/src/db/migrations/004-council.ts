import { sql, type Kysely } from 'kysely';

/**
 * The council console: an append-only audit log of every write, and the log of reminder e-mails.
 *
 * audit_log: who (actor), when, what (table and id, the handler it concerns), the action, and the values before
 * and after (JSON text, without file contents or password hashes). Nobody changes or deletes an entry: there is no
 * endpoint for it, and the database itself refuses UPDATE and DELETE (PostgreSQL: a trigger that raises, also on
 * TRUNCATE; SQLite: triggers with RAISE(ABORT)). No foreign keys: an entry outlives anything it names.
 *
 * reminders_sent: one row per reminder e-mail, claimed (inserted) before it is sent. The unique key
 * (kind, period_id, handler_id, user_id) makes the claim win on exactly one server replica.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  const postgres = db.getExecutor().adapter.constructor.name.startsWith('Postgres');

  await s
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('actor_role', 'text')
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('handler_id', 'text')
    .addColumn('before_values', 'text')
    .addColumn('after_values', 'text')
    .execute();
  await s.createIndex('audit_log_occurred').on('audit_log').columns(['occurred_at', 'id']).execute();
  await s.createIndex('audit_log_entity').on('audit_log').columns(['entity_type', 'entity_id']).execute();
  await s.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'occurred_at']).execute();
  await s.createIndex('audit_log_handler').on('audit_log').columns(['handler_id', 'occurred_at']).execute();

  if (postgres) {
    await sql`create or replace function audit_log_immutable() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log entries cannot be changed or deleted' using errcode = 'P0001';
      end
    $$`.execute(db);
    await sql`create trigger audit_log_immutable_row before update or delete on audit_log
      for each row execute function audit_log_immutable()`.execute(db);
    await sql`create trigger audit_log_immutable_truncate before truncate on audit_log
      for each statement execute function audit_log_immutable()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log entries cannot be changed or deleted'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log entries cannot be changed or deleted'); end`.execute(db);
  }

  await s
    .createTable('reminders_sent')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('period_id', 'text', (c) => c.notNull().references('reporting_periods.id'))
    .addColumn('handler_id', 'text', (c) => c.notNull().references('handlers.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('mail_to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('claimed'))
    .addUniqueConstraint('reminders_sent_once', ['kind', 'period_id', 'handler_id', 'user_id'])
    .execute();
  await s.createIndex('reminders_sent_claimed').on('reminders_sent').columns(['claimed_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reminders_sent').execute();
  await db.schema.dropTable('audit_log').execute();
  if (db.getExecutor().adapter.constructor.name.startsWith('Postgres'))
    await sql`drop function if exists audit_log_immutable()`.execute(db);
}
