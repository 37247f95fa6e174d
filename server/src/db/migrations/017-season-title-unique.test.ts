import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.js';
import { demoApp, type DemoApp } from '../../test-support/demo.js';
import { down, up } from './017-season-title-unique.js';

/** Migration 017 on a filled database: it refuses to guess which of two seasons of one title the filings keep. */
describeEachDatabase('migration 017 (one season a title)', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('stops with the titles held twice, runs once they are merged, and then the database refuses a second', async () => {
    const season = await demo.ctx.db.selectFrom('seasons').selectAll().orderBy('title').executeTakeFirstOrThrow();
    const twin = { ...season, id: randomUUID() };
    await down(demo.ctx.db);
    await demo.ctx.db.insertInto('seasons').values(twin).execute();

    await expect(up(demo.ctx.db)).rejects.toThrow(
      `Seasons ${season.title} exist twice: move their periods and forms to one of each and delete the other`,
    );
    await demo.ctx.db.deleteFrom('seasons').where('id', '=', twin.id).execute();
    await up(demo.ctx.db);
    await expect(demo.ctx.db.insertInto('seasons').values(twin).execute()).rejects.toThrow(/unique/i);
  });
});
