import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { ensureOAuthClients } from '../oauth/clients.js';
import { api, ids, signIn, staffCode } from '../test-support/api.js';
import { createTestContext, describeEachDatabase, type TestContext } from '../test-support/databases.js';
import { PASSWORD, seedReportingData, TRANSFER_RECEIVER, type Fixture } from '../test-support/reports-fixture.js';

/** A plain JSON request, as staff tools send them. */
async function post(app: FastifyInstance, token: string | null, url: string, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await app.inject({
    method: 'POST',
    url,
    headers,
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null };
}

describeEachDatabase('council routes', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let f: Fixture;
  let staff: string;
  let alice: string;
  beforeAll(async () => {
    ctx = await createTestContext(target);
    await ensureOAuthClients(ctx.db);
    f = await seedReportingData(ctx);
    app = await buildApp(ctx, { logger: false });
    staff = await signIn(app, 'staff', PASSWORD, await staffCode(ctx));
    alice = await signIn(app, 'alice', PASSWORD);
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  const endpoints = (): Array<[string, unknown]> => [
    ['/api/council/periods', { period_month: '2025-12' }],
    ['/api/council/reports/monthly', { period_month: '2025-09' }],
    ['/api/council/reports/monthly/anything/publish', { publish: true }],
    ['/api/council/reports/annual', { season_id: f.seasonId }],
    ['/api/council/analytics/industry', { season_id: f.seasonId }],
    ['/api/council/analytics/handlers', { season_id: f.seasonId }],
    ['/api/council/invoices/anything/paid', { paid_date: '2025-11-20' }],
  ];

  it('answers 401 without a token and 403 to a handler user on every endpoint, whatever the body', async () => {
    for (const [url, body] of endpoints()) {
      const anonymous = await post(app, null, url, body);
      expect(anonymous.status, url).toBe(401);
      const good = await post(app, alice, url, body);
      expect(good.status, url).toBe(403);
      expect(good.body.errors[0]).toMatchObject({ status: '403', title: 'Forbidden' });
      expect((await post(app, alice, url, { nonsense: 1 })).status, url).toBe(403);
    }
    // nothing was done on their behalf
    expect(
      await ctx.db
        .selectFrom('reporting_periods')
        .select('id')
        .where('period_month', '=', '2025-12')
        .executeTakeFirst(),
    ).toBeUndefined();
    expect(await ctx.db.selectFrom('monthly_position_reports').select('id').executeTakeFirst()).toBeUndefined();
  });

  it('refuses bad input with 422, one error per field, never a 500', async () => {
    const cases: Array<[string, unknown, string[]]> = [
      ['/api/council/periods', {}, ['/period_month']],
      ['/api/council/periods', { period_month: '2025-13' }, ['/period_month']],
      ['/api/council/periods', { period_month: 202512, extra: true }, ['/extra', '/period_month']],
      ['/api/council/reports/monthly', { period_month: '2030-01' }, ['/period_month']], // no such period
      ['/api/council/reports/monthly/x/publish', { publish: 'yes' }, ['/publish']],
      ['/api/council/reports/annual', { season_id: 42 }, ['/season_id']],
      ['/api/council/reports/annual', { season_id: 'no-such-season' }, ['/season_id']],
      ['/api/council/analytics/industry', {}, ['/season_id']],
      ['/api/council/analytics/handlers', { season_id: '' }, ['/season_id']],
      ['/api/council/invoices/x/paid', { paid_date: '2025-02-30', reference: 7 }, ['/paid_date', '/reference']],
    ];
    for (const [url, body, pointers] of cases) {
      const r = await post(app, staff, url, body);
      expect(r.status, `${url} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).toBe(422);
      expect(r.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort(), url).toEqual(pointers);
      for (const e of r.body.errors) expect(e.detail).toBeTruthy();
    }
    expect((await post(app, staff, '/api/council/periods', [1])).status).toBe(400);
    expect((await post(app, staff, '/api/council/periods')).status).toBe(400);
    expect(
      (await post(app, staff, '/api/council/reports/monthly/no-such-report/publish', { publish: true })).status,
    ).toBe(404);
  });

  it('opens a period for every active handler, once', async () => {
    const first = await post(app, staff, '/api/council/periods', { period_month: '2025-12' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ packages_created: 5 }); // 105 is inactive; 106 receives h1's transfers
    const again = await post(app, staff, '/api/council/periods', { period_month: '2025-12' });
    expect(again.body).toEqual({ period_id: first.body.period_id, packages_created: 0 });
  });

  it('generates and publishes monthly reports; handlers see only published ones', async () => {
    const sep = await post(app, staff, '/api/council/reports/monthly', { period_month: '2025-09' });
    expect(sep.status).toBe(201);
    expect(sep.body).toMatchObject({
      type: 'node--monthly_position_report',
      handlers_count: 3,
      publish_to_portal: false,
    });
    const oct = await post(app, staff, '/api/council/reports/monthly', { period_month: '2025-10' });
    expect(oct.status).toBe(201);
    const list = async (token: string) =>
      ids((await api(app, token, 'GET', '/jsonapi/node/monthly_position_report')).body).sort();
    expect(await list(alice)).toEqual([]);
    expect(await list(staff)).toEqual([sep.body.id, oct.body.id].sort());

    const published = await post(app, staff, `/api/council/reports/monthly/${sep.body.id}/publish`, { publish: true });
    expect(published).toEqual({
      status: 200,
      body: { type: 'node--monthly_position_report', id: sep.body.id, publish_to_portal: true },
    });
    expect(await list(alice)).toEqual([sep.body.id]);
    expect(
      (await api(app, alice, 'GET', `/jsonapi/node/monthly_position_report/${oct.body.id}`)).status,
    ).toBeGreaterThanOrEqual(403);
    // the PDF of the published report is readable by the handler
    const withPdf = await api(
      app,
      alice,
      'GET',
      `/jsonapi/node/monthly_position_report/${sep.body.id}?include=field_position_report_pdf`,
    );
    expect(withPdf.status).toBe(200);
    // Publishing froze the figures and rendered the report from them: the report links that file.
    const current = await ctx.db
      .selectFrom('monthly_position_reports')
      .select('position_report_pdf_id')
      .where('id', '=', sep.body.id)
      .executeTakeFirstOrThrow();
    expect(withPdf.body.included.map((x: { id: string }) => x.id)).toEqual([current.position_report_pdf_id]);

    // regenerating keeps it published and the same report
    const again = await post(app, staff, '/api/council/reports/monthly', { period_month: '2025-09' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: sep.body.id, publish_to_portal: true });
    expect(again.body.file_id).not.toBe(sep.body.file_id);

    await post(app, staff, `/api/council/reports/monthly/${sep.body.id}/publish`, { publish: false });
    expect(await list(alice)).toEqual([]);
  });

  it('generates the annual report and the analytics', async () => {
    const annual = await post(app, staff, '/api/council/reports/annual', { season_id: f.seasonId });
    expect(annual.status).toBe(201);
    expect(annual.body).toMatchObject({ type: 'node--annual_position_report', handlers_count: 4 });
    const industry = await post(app, staff, '/api/council/analytics/industry', { season_id: f.seasonId });
    expect(industry.status).toBe(201);
    expect(industry.body.published_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const handlers = await post(app, staff, '/api/council/analytics/handlers', { season_id: f.seasonId });
    expect(handlers.status).toBe(200);
    expect(handlers.body.handler_analytics.map((h: { handler_id: string }) => h.handler_id)).toEqual([
      'h1',
      'h2',
      'h3',
      'h4',
      TRANSFER_RECEIVER,
    ]);
    // alice reads her own handler analytics only
    const mine = await api(app, alice, 'GET', '/jsonapi/node/handler_analytics');
    expect(ids(mine.body)).toEqual([handlers.body.handler_analytics[0].id]);
  });

  it('records an invoice payment once', async () => {
    const invoice = await ctx.db
      .selectFrom('invoices')
      .select(['id', 'invoice_status'])
      .where('handler_id', '=', 'h1')
      .where('period_id', '=', f.periods.sep)
      .executeTakeFirstOrThrow();
    expect(invoice.invoice_status).toBe('open');
    const paid = await post(app, staff, `/api/council/invoices/${invoice.id}/paid`, {
      paid_date: '2025-10-09',
      reference: ' CHK 1001 ',
    });
    expect(paid).toEqual({
      status: 200,
      body: {
        type: 'node--invoice',
        id: invoice.id,
        invoice_status: 'paid',
        paid_date: '2025-10-09',
        paid_reference: 'CHK 1001',
      },
    });
    const row = await ctx.db.selectFrom('invoices').selectAll().where('id', '=', invoice.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ invoice_status: 'paid', paid_date: '2025-10-09', paid_reference: 'CHK 1001' });
    // Every audit entry of the payment (the row, then its re-rendered PDF) shows the values after it.
    const entries = await ctx.db
      .selectFrom('audit_log')
      .select('after_values')
      .where('entity_type', '=', 'invoices')
      .where('entity_id', '=', invoice.id)
      .where('actor_role', '=', 'staff')
      .execute();
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries)
      expect(JSON.parse(String(e.after_values))).toMatchObject({ invoice_status: 'paid', paid_reference: 'CHK 1001' });
    expect(
      (await post(app, staff, `/api/council/invoices/${invoice.id}/paid`, { paid_date: '2025-10-09' })).status,
    ).toBe(409);
    expect(
      (await post(app, staff, '/api/council/invoices/no-such-invoice/paid', { paid_date: '2025-10-09' })).status,
    ).toBe(404);
  });
});
