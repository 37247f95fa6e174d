import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Viewer } from '../../../context.js';
import { amendForm1, at, LOADER } from '../../../demo/filings.js';
import { describeEachDatabase } from '../../../test-support/databases.js';
import { demoApp, type DemoApp } from '../../../test-support/demo.js';
import { generateMonthlyPositionReport, reviseMonthlyPositionReport } from '../position-reports.js';
import { currentPublication, monthScope, seasonPublications } from './publications.js';
import { DEFAULT_RULES } from './rules.js';
import { f1Atom, figureKeys } from './season-model.js';
import { expectNothingRecoverable } from './test-auditor.js';

describeEachDatabase('published figures, frozen and audited', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  });
  afterAll(async () => {
    await demo?.close();
  });

  const seasonId = async (title: string) =>
    String(
      (await demo.ctx.db.selectFrom('seasons').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id,
    );
  const industryMonthly = async (season: string) =>
    (
      await demo.app.inject({
        method: 'GET',
        url: `/api/analytics/industry-monthly?season_id=${season}`,
        headers: { authorization: `Bearer ${demo.tokens.carol}` },
      })
    ).json().months as Array<{ month: string; receipts_improved_native: { value: number | null; withheld: boolean } }>;

  it('lets the auditor recover no withheld figure from anything the demo published, in any season', async () => {
    const seasons = await demo.ctx.db.selectFrom('seasons').select('id').execute();
    let checked = 0;
    for (const s of seasons) {
      const figures = (await seasonPublications(demo.ctx.db, String(s.id))).flatMap((p) => p.figures);
      expectNothingRecoverable(figures, DEFAULT_RULES);
      checked += figures.length;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('shows primary and complementary suppression in the demo reports', async () => {
    const publications = await seasonPublications(demo.ctx.db, await seasonId('2025-2026'));
    const reasons = new Set(publications.flatMap((p) => p.figures.map((f) => f.suppressed)));
    expect(reasons.has('complementary')).toBe(true);
    expect(reasons.has('few-handlers') || reasons.has('dominance')).toBe(true);
  });

  it('keeps a published month as published through an amendment, until staff publish a revision', async () => {
    const season = await seasonId('2025-2026');
    const month = '2025-11';
    const before = (await industryMonthly(season)).find((m) => m.month === month)!;
    const published = currentPublication(await seasonPublications(demo.ctx.db, season), monthScope(month))!;
    const improved = published.figures.find((f) => f.key === f1Atom('receipts_improved', month))!;

    // Alice adds 12,500 lb to her November improved receipts (the demo's amendment).
    const alice = await demo.ctx.db
      .selectFrom('users')
      .select('id')
      .where('name', '=', 'alice')
      .executeTakeFirstOrThrow();
    const viewer: Viewer = {
      userId: String(alice.id),
      name: 'alice',
      role: 'handler',
      handlerId: demo.handlers['101'],
    };
    await amendForm1(at(demo.ctx, '2026-11-22T13:00:00Z'), viewer, month, 'Late weigh tickets');

    // Nothing published moves: the charts, the frozen figures, and the report rendered again.
    expect((await industryMonthly(season)).find((m) => m.month === month)).toEqual(before);
    const staff = { ctx: demo.ctx, viewer: LOADER };
    await generateMonthlyPositionReport(staff, month);
    expect(currentPublication(await seasonPublications(demo.ctx.db, season), monthScope(month))!.id).toBe(published.id);

    // A revision publishes the amended figures, checked against everything published before it.
    await reviseMonthlyPositionReport(staff, month);
    const publications = await seasonPublications(demo.ctx.db, season);
    const revision = currentPublication(publications, monthScope(month))!;
    expect(revision.revision).toBe(published.revision + 1);
    expect(revision.figures.find((f) => f.key === f1Atom('receipts_improved', month))!.value).toBe(
      improved.value + 12_500,
    );
    const after = (await industryMonthly(season)).find((m) => m.month === month)!;
    const chart = revision.figures.find((f) => f.key === figureKeys.chart('receipts_improved_native', month))!;
    expect(after.receipts_improved_native).toMatchObject(
      chart.suppressed === null ? { value: chart.value, withheld: false } : { value: null, withheld: true },
    );
    expectNothingRecoverable(
      publications.flatMap((p) => p.figures),
      DEFAULT_RULES,
    );
  });

  it('takes a revision from staff only, for a month that has a period', async () => {
    const post = (token: string, url: string, payload: object) =>
      demo.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}` } });
    const season = await seasonId('2025-2026');
    const revisionOf = async () =>
      currentPublication(await seasonPublications(demo.ctx.db, season), monthScope('2025-10'))!.revision;
    const before = await revisionOf();
    expect(
      (await post(demo.tokens.alice, '/api/council/reports/monthly/revision', { period_month: '2025-10' })).statusCode,
    ).toBe(403);
    expect(
      (await post(demo.tokens.staff, '/api/council/reports/monthly/revision', { period_month: '2031-10' })).statusCode,
    ).toBe(422);
    expect(await revisionOf()).toBe(before);
    const ok = await post(demo.tokens.staff, '/api/council/reports/monthly/revision', { period_month: '2025-10' });
    expect(ok.statusCode).toBe(200);
    expect(await revisionOf()).toBe(before + 1);
    const annual = await post(demo.tokens.staff, '/api/council/reports/annual/revision', {
      season_id: await seasonId('2024-2025'),
    });
    expect(annual.statusCode).toBe(200);
    const seasonRevisions = (await seasonPublications(demo.ctx.db, await seasonId('2024-2025'))).filter(
      (p) => p.scope === 'season',
    );
    expect(seasonRevisions.map((p) => p.revision)).toEqual([1, 2]);
  });
});
