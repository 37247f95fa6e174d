import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeMailTransports } from '../mail/mailer.js';
import { startTestSmtpServer, type TestSmtpServer } from '../mail/test-smtp.js';
import { councilCall } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * The staff home (GET /api/council/home), sending a reminder now (POST /api/council/reminders/now) and the refusal
 * to publish a report from no handler's filings, on the demo data set (today 2026-11-22: November 2026 opened and
 * due 2026-12-10, every earlier month filed, October's report generated and not published).
 */
describeEachDatabase('council staff home', (target) => {
  let demo: DemoApp;
  let smtp: TestSmtpServer;
  let november: string;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    demo = await demoApp(target);
    demo.ctx.config.smtpUrl = smtp.url;
    november = (
      await demo.ctx.db
        .selectFrom('reporting_periods')
        .select('id')
        .where('period_month', '=', '2026-11')
        .executeTakeFirstOrThrow()
    ).id;
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
    closeMailTransports();
    await smtp?.close();
  });

  const staff = (method: string, url: string, body?: unknown) =>
    councilCall(demo.app, demo.tokens.staff, method, url, body);

  it('is staff only: 401 without a token, 403 for a handler user', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/council/home', undefined],
      ['POST', '/api/council/reminders/now', { period_id: november, handler: '101' }],
    ] as const) {
      expect((await councilCall(demo.app, null, method, url, body)).status).toBe(401);
      const r = await councilCall(demo.app, demo.tokens.alice, method, url, body);
      expect(r.status).toBe(403);
      expect(r.body.errors[0].status).toBe('403');
    }
    expect((await staff('GET', '/api/council/home?x=1')).status).toBe(422);
    expect(smtp.messages).toHaveLength(0);
  });

  it('counts what needs staff today, the same as the board, the invoices and the reports say', async () => {
    // Seeded on top of the demo: an account request waiting and one unpaid invoice not yet due.
    await demo.ctx.db.updateTable('users').set({ status: 'pending' }).where('name', '=', 'dave').execute();
    const open = await staff('GET', '/api/council/invoices?status=open');
    expect(open.status).toBe(200);
    const invoices = open.body.data as Array<{ id: string; amount_due: string; due_date: string }>;
    expect(invoices.length).toBeGreaterThan(1);
    await demo.ctx.db
      .updateTable('invoices')
      .set({ due_date: '2026-12-31' })
      .where('id', '=', invoices[0].id)
      .execute();
    invoices[0].due_date = '2026-12-31';
    const cents = (a: string) => Math.round(Number(a) * 100);
    const total = invoices.reduce((s, i) => s + cents(i.amount_due), 0);
    const late = invoices.filter((i) => i.due_date < '2026-11-22');
    expect(late.length).toBeGreaterThan(0);

    const r = await staff('GET', '/api/council/home');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const home = r.body;
    expect(home.today).toBe('2026-11-22');
    expect(home.month).toMatchObject({
      period_id: november,
      period_month: '2026-11',
      due_date: '2026-12-10',
      days_left: 18,
      handlers: 3,
    });
    const board = await staff('GET', `/api/council/board?period_id=${november}`);
    expect(home.month.counts).toEqual(board.body.counts);
    expect(home.overdue_handlers).toEqual([]);
    expect(home.amendments_waiting).toEqual({ count: 0, months: [] });
    expect(home.account_requests.count).toBe(1);
    expect(home.invoices).toEqual({
      unpaid: invoices.length,
      unpaid_total: (total / 100).toFixed(2),
      overdue: late.length,
      overdue_total: (late.reduce((s, i) => s + cents(i.amount_due), 0) / 100).toFixed(2),
    });
    expect(home.reports_to_publish.map((d: { period_month: string }) => d.period_month)).toEqual(['2026-10']);
    expect(home.reminders).toEqual({ since: '2026-10-23', sent: 0, failed: 0, retrying: 0 });
    await demo.ctx.db.updateTable('users').set({ status: 'active' }).where('name', '=', 'dave').execute();
  });

  it('shows a month past its due date as overdue, with each late handler', async () => {
    await demo.ctx.db
      .updateTable('reporting_periods')
      .set({ due_date: '2026-11-20' })
      .where('id', '=', november)
      .execute();
    try {
      const home = (await staff('GET', '/api/council/home')).body;
      // No month is due from today on: the newest month, two days late.
      expect(home.month).toMatchObject({ period_month: '2026-11', due_date: '2026-11-20', days_left: -2 });
      const board = await staff('GET', `/api/council/board?period_id=${november}`);
      expect(home.month.counts).toEqual(board.body.counts);
      expect(home.month.counts.overdue).toBe(9);
      expect(home.overdue_handlers.map((h: { handler_number: string }) => h.handler_number)).toEqual([
        '101',
        '102',
        '103',
      ]);
      expect(home.overdue_handlers[0].months).toEqual([
        { period_id: november, period_month: '2026-11', due_date: '2026-11-20' },
      ]);
    } finally {
      await demo.ctx.db
        .updateTable('reporting_periods')
        .set({ due_date: '2026-12-10' })
        .where('id', '=', november)
        .execute();
    }
  });

  it('refuses to publish a report from no filings: 409, nothing changed', async () => {
    const generated = await staff('POST', '/api/council/reports/monthly', { period_month: '2026-11' });
    expect(generated.status).toBe(201);
    expect(generated.body.handlers_count).toBe(0);
    const refused = await staff('POST', `/api/council/reports/monthly/${generated.body.id}/publish`, { publish: true });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toBe(
      'The November 2026 report would publish nothing: no handler has certified its forms for the month yet.',
    );
    expect(refused.body.errors[0].meta).toEqual({ code: 'nothing_to_publish' });
    const list = await staff('GET', '/api/council/reports');
    const doc = list.body.monthly.find((d: { period_month: string }) => d.period_month === '2026-11');
    expect(doc.publish_to_portal).toBe(false);
    const frozen = await demo.ctx.db
      .selectFrom('monthly_position_reports')
      .select('publish_to_portal')
      .where('id', '=', generated.body.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(frozen.publish_to_portal)).toBe(false);
    // A report with nothing in it is not offered on the home either.
    const home = (await staff('GET', '/api/council/home')).body;
    expect(home.reports_to_publish.map((d: { period_month: string }) => d.period_month)).toEqual(['2026-10']);
  });

  it('sends a reminder now to one late handler, once within 15 minutes, audited', async () => {
    const bad = await staff('POST', '/api/council/reminders/now', { period_id: 'nope', handler: '999', extra: 1 });
    expect(bad.status).toBe(422);
    expect(
      (await staff('POST', '/api/council/reminders/now', { period_id: 'nope', handler: '101' })).body.errors[0].source
        .pointer,
    ).toBe('/period_id');
    const october = (
      await demo.ctx.db
        .selectFrom('reporting_periods')
        .select('id')
        .where('period_month', '=', '2026-10')
        .executeTakeFirstOrThrow()
    ).id;
    const filed = await staff('POST', '/api/council/reminders/now', { period_id: october, handler: '101' });
    expect(filed.status).toBe(409);
    expect(filed.body.errors[0].detail).toContain('nothing to remind');

    const first = await staff('POST', '/api/council/reminders/now', { period_id: november, handler: '101' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      period_id: november,
      handler_id: demo.handlers['101'],
      kind: 'due_soon',
      failed: [],
    });
    expect([...first.body.sent].sort()).toEqual(['alice@example.com', 'bob@example.com']);
    const mail = await smtp.waitFor((m) => m.to.includes('alice@example.com'));
    expect(mail.subject).toBe('Reminder: November 2026 reports of handler 101 are due 2026-12-10');
    expect(mail.text).toContain('Still to certify: Form 1, Form 2, Form 3.');

    // A second click: refused, no e-mail.
    const again = await staff('POST', '/api/council/reminders/now', {
      period_id: november,
      handler: demo.handlers['101'],
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].meta.code).toBe('reminded_recently');
    expect(again.body.errors[0].detail).toContain('one every 15 minutes');
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages).toHaveLength(2);

    const log = await staff('GET', '/api/council/reminders?kind=sent_now');
    expect(log.body.data.map((r: { username: string; status: string }) => `${r.username}:${r.status}`).sort()).toEqual([
      'alice:sent',
      'bob:sent',
    ]);
    const audit = await staff('GET', `/api/council/audit?action=remind&handler=101`);
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      action: 'remind',
      actor: { name: 'staff' },
      entity_id: demo.handlers['101'],
    });
    expect(audit.body.data[0].after).toMatchObject({
      period_month: '2026-11',
      missing: ['Form 1', 'Form 2', 'Form 3'],
    });
    expect((await staff('GET', '/api/council/home')).body.reminders.sent).toBe(2);

    // Sixteen minutes later (the claims made earlier): it can go again, and the rows are claimed anew.
    const earlier = new Date(Date.parse('2026-11-22T12:00:00Z') - 16 * 60_000).toISOString();
    await demo.ctx.db
      .updateTable('reminders_sent')
      .set({ claimed_at: earlier })
      .where('kind', '=', 'sent_now')
      .execute();
    const later = await staff('POST', '/api/council/reminders/now', { period_id: november, handler: '101' });
    expect(later.status).toBe(200);
    expect(later.body.sent).toHaveLength(2);
    await smtp.waitFor(() => smtp.messages.length === 4);
    expect((await staff('GET', '/api/council/audit?action=remind')).body.data).toHaveLength(2);
  });
});
