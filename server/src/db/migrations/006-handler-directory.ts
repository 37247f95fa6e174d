import type { Kysely } from 'kysely';

/**
 * The handler directory's index. The directory reads handlers flagged for it, by title, a page at a time
 * (`filter[field_show_in_handler_directory]=1&sort=title&page[limit]=50`). Without an index SQLite scanned every
 * handler and sorted them all to return 50; with (flag, title, id) both databases walk the flagged handlers in
 * order and stop after the page (id last: the engine orders by title, then id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('handlers_directory')
    .on('handlers')
    .columns(['show_in_handler_directory', 'title', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('handlers_directory').execute();
}
