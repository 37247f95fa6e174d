import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, councilCall } from '../test-support/api.js';
import { describeEachDatabase, fixedClock } from '../test-support/databases.js';
import { demoApp, DEMO_TODAY, type DemoApp } from '../test-support/demo.js';

interface Filing {
  form: string;
  period_month: string | null;
  version_id: string;
  amendment_number: number;
}
interface SourceHandler {
  handler_number: string;
  filings: Filing[];
}

describeEachDatabase('council reports and their sources', (target) => {
  let demo: DemoApp;
  const clock = fixedClock(DEMO_TODAY);
  let seasonId: string;
  beforeAll(async () => {
    demo = await demoApp(target, { clock });
    seasonId = (
      await demo.ctx.db
        .selectFrom('reporting_periods')
        .select('season_id')
        .where('period_month', '=', '2026-11')
        .executeTakeFirstOrThrow()
    ).season_id as string;
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
  });

  const sources = async (kind: string, id: string) => {
    const r = await councilCall(demo.app, demo.tokens.staff, 'GET', `/api/council/reports/${kind}/${id}/sources`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { report: { generated_at: string }; months: string[]; forms: string[]; handlers: SourceHandler[] };
  };

  it('is staff only: 401 without a token, 403 for a handler user', async () => {
    for (const url of ['/api/council/reports', '/api/council/reports/monthly/x/sources']) {
      expect((await councilCall(demo.app, null, 'GET', url)).status).toBe(401);
      const r = await councilCall(demo.app, demo.tokens.alice, 'GET', url);
      expect(r.status).toBe(403);
      expect(r.body.errors[0].status).toBe('403');
    }
  });

  it('refuses bad parameters with 422 and unknown reports with 404', async () => {
    const unknownSeason = await councilCall(demo.app, demo.tokens.staff, 'GET', '/api/council/reports?season_id=nope');
    expect(unknownSeason.status).toBe(422);
    expect(unknownSeason.body.errors[0].source.parameter).toBe('season_id');
    expect((await councilCall(demo.app, demo.tokens.staff, 'GET', '/api/council/reports?colour=red')).status).toBe(422);
    expect(
      (await councilCall(demo.app, demo.tokens.staff, 'GET', '/api/council/reports/weekly/x/sources')).status,
    ).toBe(404);
    expect(
      (await councilCall(demo.app, demo.tokens.staff, 'GET', `/api/council/reports/monthly/${'x'.repeat(100)}/sources`))
        .status,
    ).toBe(404);
    expect(
      (
        await councilCall(
          demo.app,
          demo.tokens.staff,
          'GET',
          '/api/council/reports/annual/00000000-0000-0000-0000-000000000000/sources',
        )
      ).status,
    ).toBe(404);
  });

  it("lists the season's reports and workbooks with signed links that download the files", async () => {
    const r = await councilCall(demo.app, demo.tokens.staff, 'GET', `/api/council/reports?season_id=${seasonId}`);
    expect(r.status).toBe(200);
    expect(r.body.season.id).toBe(seasonId);
    expect(r.body.monthly.length).toBeGreaterThan(0);
    const months: string[] = r.body.monthly.map((m: { period_month: string }) => m.period_month);
    expect(months).toEqual([...months].sort().reverse());
    const first = r.body.monthly[0];
    expect(first).toMatchObject({ kind: 'monthly', file: { mime: 'application/pdf' } });
    expect(typeof first.publish_to_portal).toBe('boolean');
    const download = await demo.app.inject({
      method: 'GET',
      url: new URL(first.file.url).pathname + new URL(first.file.url).search,
    });
    expect(download.statusCode).toBe(200);
    expect(download.body.startsWith('%PDF')).toBe(true);
    // Without season_id: the current season.
    const current = await councilCall(demo.app, demo.tokens.staff, 'GET', '/api/council/reports');
    expect(current.body.season.current).toBe(true);
  });

  it('names the handlers and versions a report drew from, as they stood when it was generated', async () => {
    clock.advance(60);
    const made = await councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/reports/monthly', {
      period_month: '2026-11',
    });
    expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
    const before = await sources('monthly', made.body.id);
    expect(before.forms).toEqual(['apc_form_1', 'apc_form_2', 'apc_form_3']);
    expect(before.months.at(-1)).toBe('2026-11');
    // The handlers with a certified form of the month are the report's handler count.
    const ofMonth = (s: typeof before) => s.handlers.filter((h) => h.filings.some((f) => f.period_month === '2026-11'));
    expect(ofMonth(before).length).toBe(made.body.handlers_count);
    for (const h of before.handlers) {
      for (const f of h.filings) {
        const row = await demo.ctx.db
          .selectFrom(f.form)
          .select(['form_status'])
          .where('id', '=', f.version_id)
          .executeTakeFirstOrThrow();
        expect(row.form_status).toBe('certified');
      }
    }

    // Alice certifies a November form afterwards: the report generated before does not count it, a new one does.
    const alice = await demo.ctx.db
      .selectFrom('apc_form_3 as f')
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .innerJoin('handlers as h', 'h.id', 'f.handler_id')
      .select(['f.id'])
      .where('p.period_month', '=', '2026-11')
      .where('h.handler_number', '=', '101')
      .where('f.form_status', '=', 'draft')
      .executeTakeFirst();
    expect(alice, 'alice has a draft form 3 for November in the demo').toBeDefined();
    {
      if (!alice) return;
      clock.advance(60);
      const certified = await api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_3/${alice.id}`, {
        data: {
          type: 'node--apc_form_3',
          id: alice.id,
          attributes: { field_certified: true, field_certification_name: 'Alice Moreno' },
        },
      });
      expect(certified.status, JSON.stringify(certified.body)).toBe(200);
      const has = (s: typeof before) => s.handlers.some((h) => h.filings.some((f) => f.version_id === alice.id));
      expect(has(await sources('monthly', made.body.id))).toBe(false);
      clock.advance(60);
      const again = await councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/reports/monthly', {
        period_month: '2026-11',
      });
      expect(again.body.id).toBe(made.body.id);
      const after = await sources('monthly', made.body.id);
      expect(has(after)).toBe(true);
      expect(after.report.generated_at > before.report.generated_at).toBe(true);
    }
  });

  it('gives the annual report form 5 too, and the industry workbook forms 1 and 3', async () => {
    const annual = await councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/reports/annual', {
      season_id: seasonId,
    });
    const a = await sources('annual', annual.body.id);
    expect(a.forms).toEqual(['apc_form_1', 'apc_form_2', 'apc_form_3', 'apc_form_5']);
    const industry = await councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/analytics/industry', {
      season_id: seasonId,
    });
    const i = await sources('industry', industry.body.id);
    expect(i.forms).toEqual(['apc_form_1', 'apc_form_3']);
    expect(i.handlers.length).toBeGreaterThan(0);
    expect(i.handlers.every((h) => h.filings.every((f) => f.form === 'apc_form_1' || f.form === 'apc_form_3'))).toBe(
      true,
    );
    const listed = await councilCall(demo.app, demo.tokens.staff, 'GET', `/api/council/reports?season_id=${seasonId}`);
    expect(listed.body.annual.map((x: { id: string }) => x.id)).toContain(annual.body.id);
    expect(listed.body.industry_analytics[0].file.filename).toMatch(/\.xlsx$/);
  });
});
