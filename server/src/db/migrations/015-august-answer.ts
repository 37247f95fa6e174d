import { sql, type Kysely } from 'kysely';

/**
 * Form 5's "must the August Form 1 be amended?" becomes a question the handler answers: null until answered
 * (it was NOT NULL DEFAULT false, so every new form came pre-answered "No"). Certified and superseded versions keep
 * the answer they were filed with; drafts start unanswered again, since their "No" may never have been given.
 * A new column replaces the old one (SQLite cannot drop NOT NULL in place), under the same name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable('apc_form_5').addColumn('aug_form_1_amend_answer', 'boolean').execute();
  await sql
    .raw(`update apc_form_5 set aug_form_1_amend_answer = aug_form_1_amend_reqd where form_status <> 'draft'`)
    .execute(db);
  await s.alterTable('apc_form_5').dropColumn('aug_form_1_amend_reqd').execute();
  await s.alterTable('apc_form_5').renameColumn('aug_form_1_amend_answer', 'aug_form_1_amend_reqd').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .alterTable('apc_form_5')
    .addColumn('aug_form_1_amend_answer', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql.raw(`update apc_form_5 set aug_form_1_amend_answer = coalesce(aug_form_1_amend_reqd, false)`).execute(db);
  await s.alterTable('apc_form_5').dropColumn('aug_form_1_amend_reqd').execute();
  await s.alterTable('apc_form_5').renameColumn('aug_form_1_amend_answer', 'aug_form_1_amend_reqd').execute();
}
