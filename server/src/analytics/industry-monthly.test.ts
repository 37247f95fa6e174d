import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { sumOfFigures } from './industry-monthly.js';

it('withholds a sum when any part is withheld', () => {
  expect(
    sumOfFigures([
      { value: 5, withheld: false, handlerCount: 3 },
      { value: 7, withheld: false, handlerCount: 3 },
    ]).value,
  ).toBe(12);
  expect(
    sumOfFigures([
      { value: 5, withheld: false, handlerCount: 3 },
      { value: null, withheld: true, handlerCount: 2 },
    ]),
  ).toMatchObject({ value: null, withheld: true });
});

describeEachDatabase('industry monthly figures for the charts', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  });
  afterAll(async () => {
    await demo?.close();
  });

  const get = (token: string, query: string) =>
    demo.app.inject({
      method: 'GET',
      url: `/api/analytics/industry-monthly${query}`,
      headers: { authorization: `Bearer ${token}` },
    });

  it('shows published months only, with totals that equal the certified forms', async () => {
    const season = await demo.ctx.db
      .selectFrom('seasons')
      .select('id')
      .where('title', '=', '2025-2026')
      .executeTakeFirstOrThrow();
    const response = await get(demo.tokens.carol, `?season_id=${season.id}`);
    expect(response.statusCode).toBe(200);
    const months = response.json().months as Array<{
      month: string;
      published: boolean;
      receipts_total: { value: number | null; withheld: boolean };
      shipments_inshell: { value: number | null };
    }>;
    expect(months.map((m) => m.month)).toEqual([
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
    ]);
    expect(months.every((m) => m.published)).toBe(true);
    const november = months.find((m) => m.month === '2025-11')!;
    const expected = await sql<{
      receipts: number;
      shipments: number;
    }>`select sum(f.receipts_total) as receipts, sum(f.shipments_inshell) as shipments
      from apc_form_1 f join reporting_periods p on p.id = f.period_id where p.period_month = '2025-11' and f.form_status = 'certified'`.execute(
      demo.ctx.db,
    );
    // Only two demo handlers receive substandard pecans: that part is withheld, and so is the total built on it.
    expect(november.receipts_total).toMatchObject({ value: null, withheld: true });
    expect(november.shipments_inshell.value).toBe(Number(expected.rows[0].shipments));
    const parts = await sql<{ n: number }>`select sum(f.receipts_improved + f.receipts_native) as n
      from apc_form_1 f join reporting_periods p on p.id = f.period_id where p.period_month = '2025-11' and f.form_status = 'certified'`.execute(
      demo.ctx.db,
    );
    expect(
      (november as unknown as { receipts_improved_native: { value: number } }).receipts_improved_native.value,
    ).toBe(Number(parts.rows[0].n));
  });

  it('shows nothing of a month whose report is not published yet', async () => {
    const season = await demo.ctx.db
      .selectFrom('seasons')
      .select('id')
      .where('title', '=', '2026-2027')
      .executeTakeFirstOrThrow();
    const months = (await get(demo.tokens.alice, `?season_id=${season.id}`)).json().months as Array<{
      month: string;
      published: boolean;
      shipments_inshell: { value: number | null };
    }>;
    const october = months.find((m) => m.month === '2026-10')!;
    expect(october.published).toBe(false);
    expect(october.shipments_inshell.value).toBeNull();
    expect(months.find((m) => m.month === '2026-09')!.published).toBe(true);
  });

  it('asks for a season and a signed-in user', async () => {
    expect((await get(demo.tokens.alice, '')).statusCode).toBe(422);
    expect((await get(demo.tokens.alice, '?season_id=nope')).statusCode).toBe(422);
    expect(
      (await demo.app.inject({ method: 'GET', url: '/api/analytics/industry-monthly?season_id=x' })).statusCode,
    ).toBe(401);
  });
});
