import type { Kysely } from 'kysely';
import { watchTable } from '../data-version.js';

/**
 * Published figures, frozen (workflows/reports/disclosure): one row per publication of a season's figures, a month's
 * (scope "month:2025-10") or the season's annual report (scope "season"), numbered by revision. `figures` is JSON:
 * every figure of the publication with its true value, the value of each atom it sums at publication, and why it is
 * withheld, if it is. Rows are only ever inserted: a revision is a new row, and the earlier one stays, because what
 * was public stays public and later publications are checked against it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('disclosure_publications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'text', (c) => c.notNull())
    .addColumn('published_by', 'text')
    .addColumn('figures', 'text', (c) => c.notNull())
    .addUniqueConstraint('disclosure_publications_revision', ['season_id', 'scope', 'revision'])
    .execute();
  await watchTable(db, 'disclosure_publications');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('disclosure_publications').execute();
}
