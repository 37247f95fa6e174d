import type { Kysely } from 'kysely';

/**
 * The receiving handler's countersignature of a form 4 as the filer's certification is made: besides the name and
 * time already kept, the signer's title and that the certification statement was confirmed.
 * - apc_form_4.receiving_certification_title: the countersigner's title (null for agreements countersigned before).
 * - apc_form_4.receiving_certified: the statement was confirmed (false for those, which asked for a name only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apc_form_4').addColumn('receiving_certification_title', 'text').execute();
  await db.schema
    .alterTable('apc_form_4')
    .addColumn('receiving_certified', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apc_form_4').dropColumn('receiving_certified').execute();
  await db.schema.alterTable('apc_form_4').dropColumn('receiving_certification_title').execute();
}
