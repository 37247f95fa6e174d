import type { Kysely } from 'kysely';
import { keepStaleForm1 } from '../../workflows/stale-year-to-date.js';
import { watchTable } from '../data-version.js';
import type { PortalDb } from '../portal-tables.js';

/**
 * The stale year-to-date check kept (workflows/stale-year-to-date.ts, `keepStaleForm1`): one row per current
 * certified form 1 whose carried figures an amendment of an earlier month has made stale, with the corrected figures
 * as JSON. The submissions board reads a month's rows instead of running the check for every handler. Existing data
 * is backfilled with the server's own check, so the board's answers are the same before and after the upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('form1_stale_year_to_date')
    .addColumn('form_id', 'text', (c) => c.primaryKey())
    .addColumn('handler_id', 'text', (c) => c.notNull())
    .addColumn('period_id', 'text', (c) => c.notNull())
    .addColumn('figures', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('form1_stale_year_to_date_period')
    .on('form1_stale_year_to_date')
    .columns(['period_id', 'handler_id'])
    .execute();
  await db.schema
    .createIndex('form1_stale_year_to_date_handler')
    .on('form1_stale_year_to_date')
    .column('handler_id')
    .execute();
  await watchTable(db, 'form1_stale_year_to_date');
  await keepStaleForm1(db as unknown as PortalDb);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('form1_stale_year_to_date').execute();
}
