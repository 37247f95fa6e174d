import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestContext, describeEachDatabase, type TestContext } from '../test-support/databases.js';
import { migrateToLatest } from './database.js';

describeEachDatabase('migrations', (target) => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext(target); });
  afterAll(async () => { await ctx?.close(); });

  it('creates every table and runs again without doing anything', async () => {
    const tables = await ctx.db.introspection.getTables();
    const names = tables.map((t) => t.name);
    for (const t of ['handlers', 'users', 'seasons', 'reporting_periods', 'reporting_forms_packages', 'apc_form_1',
      'apc_form_2', 'apc_form_3', 'apc_form_4', 'apc_form_5', 'invoices', 'files', 'handler_packet_confirmations']) {
      expect(names).toContain(t);
    }
    expect(await migrateToLatest(ctx.db)).toEqual([]);
  });

  it('refuses a second packet confirmation for the same handler and season', async () => {
    const now = '2026-01-01T00:00:00+00:00';
    await ctx.db.insertInto('handlers').values({ id: 'h1', title: 'H', created: now, changed: now, handler_number: '1' }).execute();
    await ctx.db.insertInto('seasons').values({ id: 's1', title: 'S', created: now, changed: now, season_start_date: '2025-09-01', season_end_date: '2026-08-31', reporting_due_date: '2026-09-10' }).execute();
    const row = { title: 'c', created: now, changed: now, handler_id: 'h1', season_id: 's1' };
    await ctx.db.insertInto('handler_packet_confirmations').values({ id: 'c1', ...row }).execute();
    await expect(ctx.db.insertInto('handler_packet_confirmations').values({ id: 'c2', ...row }).execute()).rejects.toThrow();
    const count = await sql<{ n: number }>`select count(*) as n from handler_packet_confirmations`.execute(ctx.db);
    expect(Number(count.rows[0].n)).toBe(1);
  });
});
