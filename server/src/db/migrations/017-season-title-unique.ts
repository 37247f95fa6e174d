import { sql, type Kysely } from 'kysely';

/**
 * One season a crop year: the title ("2026-2027") is unique, as the period month and the package of a handler and
 * period already are. createSeason (workflows/seasons.ts) takes a lock so that two staff creating one season at once
 * make it once; the index is what the database itself refuses. A database that already holds two seasons of one
 * title stops the upgrade with their titles, for staff to merge them by hand first: which one the filings should
 * keep is theirs to say, not the migration's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const twice = await sql<{
    title: string;
  }>`select title from seasons group by title having count(*) > 1 order by title`.execute(db);
  if (twice.rows.length > 0)
    throw new Error(
      `Seasons ${twice.rows.map((r) => r.title).join(', ')} exist twice: move their periods and forms to one of each ` +
        'and delete the other before upgrading.',
    );
  await db.schema.createIndex('seasons_title').on('seasons').column('title').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('seasons_title').execute();
}
