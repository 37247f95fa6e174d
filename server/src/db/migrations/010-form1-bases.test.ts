import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.js';
import { demoApp, type DemoApp } from '../../test-support/demo.js';
import { down, up } from './010-form1-bases.js';

/**
 * Migration 010 on a filled database: the new previous-month and season-to-date figures of existing forms 1 are
 * computed as the server computes them. Handlers 102 and 103 never amended a month, so the figures of their certified
 * forms (made by the server at filing) must come back exactly after the migration is undone and run again; the
 * current month's untouched drafts, never computed before, get their previous month too.
 */
const FIGURES = [
  'shipments_inshell_prev_month',
  'shipments_inshell_ytd',
  'shipments_shelled_prev_month',
  'shipments_shelled_ytd',
  'interhandler_shipped_prev_month',
  'interhandler_shipped_ytd',
  'interhandler_received_prev_month',
  'interhandler_received_ytd',
];

describeEachDatabase('migration 010 (form 1 bases)', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  });
  afterAll(async () => {
    await demo?.close();
  });

  const figuresOf = async () =>
    (
      await demo.ctx.db
        .selectFrom('apc_form_1')
        .select(['id', ...FIGURES])
        .where('handler_id', 'in', [demo.handlers['102'], demo.handlers['103']])
        .where('form_status', '=', 'certified')
        .orderBy('id')
        .execute()
    ).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'id' ? v : Number(v)])));

  it('backfills the figures of existing forms as the server computes them', async () => {
    const before = await figuresOf();
    expect(before.length).toBeGreaterThan(20);
    expect(before.some((r) => (r.shipments_inshell_ytd as number) > 0)).toBe(true);
    await down(demo.ctx.db);
    await up(demo.ctx.db);
    expect(await figuresOf()).toEqual(before);

    const monthOf = (month: string) =>
      demo.ctx.db
        .selectFrom('apc_form_1 as f')
        .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
        .selectAll('f')
        .where('f.handler_id', '=', demo.handlers['102'])
        .where('p.period_month', '=', month);
    const october = await monthOf('2026-10').where('f.form_status', '=', 'certified').executeTakeFirstOrThrow();
    const november = await monthOf('2026-11').executeTakeFirstOrThrow();
    expect(november.form_status).toBe('draft');
    expect(Number(november.shipments_inshell_prev_month)).toBe(Number(october.shipments_inshell));
    expect(Number(november.shipments_shelled_prev_month)).toBe(Number(october.shipments_shelled));
  });
});
