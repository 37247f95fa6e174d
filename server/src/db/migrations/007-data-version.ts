import type { Kysely } from 'kysely';
import { createDataVersion, dropDataVersion, tablesToWatch, watchTable } from '../data-version.js';

/**
 * The data version (db/data-version.ts): one row, moved on by triggers on every table an API document shows, so
 * that the JSON:API can serve a document it already built while nothing it shows has changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createDataVersion(db);
  for (const table of await tablesToWatch(db)) await watchTable(db, table);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropDataVersion(db);
}
