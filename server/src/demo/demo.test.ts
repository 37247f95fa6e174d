import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { loadDemoDataIfEmpty } from './load.js';

const count = async (ctx: TestContext, query: string) =>
  Number((await sql.raw<{ n: number }>(query).execute(ctx.db)).rows[0].n);

/** The demo data set has everything the contract lists, made by the workflows (so every figure adds up). */
describeEachDatabase('demo data set', (target) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(target, { clock: fixedClock('2026-11-22T12:00:00Z') });
    await loadDemoDataIfEmpty(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("has the contract's handlers, users and seasons, the current one flagged", async () => {
    const handlers = await ctx.db
      .selectFrom('handlers')
      .select(['handler_number', 'title', 'show_in_handler_directory'])
      .orderBy('handler_number')
      .execute();
    expect(handlers.map((h) => [h.handler_number, h.title, Boolean(h.show_in_handler_directory)])).toEqual([
      ['101', 'Riverbend Pecan Co.', true],
      ['102', 'Mesa Valley Pecans', true],
      ['103', 'Gulf Coast Shellers', false],
    ]);
    const users = await ctx.db.selectFrom('users').select(['name']).orderBy('name').execute();
    expect(users.map((u) => u.name)).toEqual(expect.arrayContaining(['alice', 'bob', 'carol', 'staff']));
    const seasons = await ctx.db.selectFrom('seasons').select(['title', 'current_season']).orderBy('title').execute();
    expect(seasons.map((s) => [s.title, Boolean(s.current_season)])).toEqual([
      ['2024-2025', false],
      ['2025-2026', false],
      ['2026-2027', true],
    ]);
  });

  it('has a package per handler and month, certified in the past and a draft now, with amendments and invoices', async () => {
    expect(await count(ctx, 'select count(*) as n from reporting_forms_packages')).toBe(3 * 27);
    expect(await count(ctx, "select count(*) as n from apc_form_1 where form_status = 'draft'")).toBe(3);
    expect(
      await count(ctx, "select count(*) as n from apc_form_1 where amendment_number > 0 and form_status = 'certified'"),
    ).toBeGreaterThanOrEqual(1);
    // Every current certified form 1 is billed exactly its assessment, across its invoices.
    const mismatches = await count(
      ctx,
      `select count(*) as n from apc_form_1 f where f.form_status = 'certified'
      and f.assessment_due_cents <> (select coalesce(sum(i.amount_due_cents), 0) from invoices i where i.handler_id = f.handler_id and i.period_id = f.period_id)`,
    );
    expect(mismatches).toBe(0);
    expect(await count(ctx, "select count(*) as n from invoices where invoice_status = 'paid'")).toBeGreaterThan(0);
    expect(await count(ctx, "select count(*) as n from invoices where invoice_status = 'open'")).toBeGreaterThan(0);
  });

  it('has forms 5 for past seasons, forms 4 between 101 and 102, reports, analytics and one packet confirmation', async () => {
    expect(await count(ctx, "select count(*) as n from apc_form_5 where form_status = 'certified'")).toBe(6);
    expect(await count(ctx, 'select count(*) as n from apc_form_4')).toBeGreaterThanOrEqual(2);
    expect(
      await count(ctx, 'select count(*) as n from monthly_position_reports where publish_to_portal = true'),
    ).toBeGreaterThan(0);
    expect(await count(ctx, 'select count(*) as n from monthly_position_reports where publish_to_portal = false')).toBe(
      1,
    );
    expect(await count(ctx, 'select count(*) as n from annual_position_reports')).toBe(2);
    expect(await count(ctx, 'select count(*) as n from industry_analytics')).toBe(3);
    expect(await count(ctx, 'select count(*) as n from handler_analytics')).toBe(9);
    expect(await count(ctx, 'select count(*) as n from handler_packet_confirmations')).toBe(1);
    // Every certified form has its rendered PDF.
    expect(
      await count(ctx, "select count(*) as n from apc_form_1 where form_status <> 'draft' and form_1_pdf_id is null"),
    ).toBe(0);
  });

  it('dates nothing in the audit log after today, so the log opens on what happened last', async () => {
    const future = await ctx.db
      .selectFrom('audit_log')
      .select(['occurred_at', 'entity_type', 'action'])
      .where('occurred_at', '>', '2026-11-22T12:00:00+00:00')
      .execute();
    expect(future).toEqual([]);
    const total = await ctx.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBeGreaterThan(100);
  });

  it('loads only into an empty database', async () => {
    expect(await loadDemoDataIfEmpty(ctx)).toBeNull();
  });
});
