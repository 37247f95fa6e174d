import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeMailTransports } from '../mail/mailer.js';
import { startTestSmtpServer, type TestSmtpServer } from '../mail/test-smtp.js';
import { describeEachDatabase, fixedClock } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { openPeriod } from '../workflows/seasons.js';
import { retryDelayMinutes, runReminders } from './run.js';

/** Failed sends are expected here: kept out of the test output. */
const quiet = { info: () => undefined, error: () => undefined };
const STAFF = { userId: 'test', name: 'staff', role: 'staff' as const, handlerId: null };

/**
 * Reminders of forms 4 and 5, and retries of failed sends, on the demo data (handler 101: alice and bob; 102:
 * carol; 103: dave). In the 2026-2027 season every handler's Form 1 reports inter-handler shipments from
 * September; 101 has a certified agreement (with 102), 102's own agreement was cancelled and 103 has none.
 */
describeEachDatabase('reminders of forms 4 and 5', (target) => {
  let demo: DemoApp;
  let smtp: TestSmtpServer;
  const rowsOf = (kinds: string[]) =>
    demo.ctx.db
      .selectFrom('reminders_sent as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['u.name', 'r.kind', 'r.status', 'r.attempts', 'r.next_attempt_at', 'r.due_date'])
      .where('r.kind', 'in', kinds)
      .orderBy('u.name')
      .execute();
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    demo = await demoApp(target);
    demo.ctx.config.smtpUrl = smtp.url;
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
    closeMailTransports();
    await smtp?.close();
  });

  it('reminds the handlers that reported transfers without a certified agreement, due the 10th after the first', async () => {
    const clock = demo.ctx.clock as ReturnType<typeof fixedClock>;
    // First transfers in September 2026: due 10 October, a Saturday; Monday 12 October is Columbus Day -> 13 October.
    clock.set('2026-10-11T09:00:00Z');
    await runReminders(demo.ctx, { daysBefore: 3 }, quiet);
    const rows = await rowsOf(['form_4_due_soon', 'form_4_overdue']);
    expect(rows.map((r) => [r.name, r.kind, r.due_date, r.status])).toEqual([
      ['carol', 'form_4_due_soon', '2026-10-13', 'sent'],
      ['dave', 'form_4_due_soon', '2026-10-13', 'sent'],
    ]);
    const mail = await smtp.waitFor((m) => m.to.includes('dave@example.com') && m.subject.includes('Form 4'));
    expect(mail.subject).toBe('Reminder: Form 4 (inter-handler transfer agreement) of handler 103 is due 2026-10-13');
    expect(mail.text).toContain('Your September 2026 Form 1 reports inter-handler transfers');
  });

  it("keys the overdue reminder to the season's first transfer month, not to a later month due in the window", async () => {
    const clock = demo.ctx.clock as ReturnType<typeof fixedClock>;
    // October's forms 1 report transfers too and are due 10 November, inside the window; September's came first.
    clock.set('2026-11-08T09:00:00Z');
    await runReminders(demo.ctx, { daysBefore: 3 }, quiet);
    const rows = await rowsOf(['form_4_overdue']);
    expect(rows.map((r) => [r.name, r.kind, r.due_date])).toEqual([
      ['carol', 'form_4_overdue', '2026-10-13'],
      ['dave', 'form_4_overdue', '2026-10-13'],
    ]);
  });

  it('reminds every handler of its year-end form, and retries a failed send with backoff until it reaches each person once', async () => {
    const clock = demo.ctx.clock as ReturnType<typeof fixedClock>;
    clock.set('2027-09-01T09:00:00Z');
    await openPeriod({ ctx: demo.ctx, viewer: STAFF }, '2027-08'); // the August period the year-end reminder hangs on
    // 2026-2027 ends 31 August 2027; its year-end form is due Friday 10 September 2027. On the 8th it is 2 days away.
    clock.set('2027-09-08T09:00:00Z');
    demo.ctx.config.smtpUrl = 'smtp://127.0.0.1:1'; // nothing listens: every send fails
    const settings = { daysBefore: 3, retryMinutes: 15, maxAttempts: 3 };
    const failing = await runReminders(demo.ctx, settings, quiet);
    expect(failing.sent).toBe(0);
    let rows = await rowsOf(['form_5_due_soon']);
    expect(rows.map((r) => [r.name, r.status, Number(r.attempts), r.next_attempt_at])).toEqual(
      ['alice', 'bob', 'carol', 'dave'].map((name) => [name, 'retrying', 1, '2027-09-08T09:15:00+00:00']),
    ); // 09:00 + 15 minutes
    // Not yet time: nothing is sent again.
    clock.set('2027-09-08T09:10:00Z');
    expect((await runReminders(demo.ctx, settings, quiet)).claimed).toBe(0);

    // The second attempt fails too: the next waits twice as long (30 minutes).
    clock.set('2027-09-08T09:16:00Z');
    await runReminders(demo.ctx, settings, quiet);
    rows = await rowsOf(['form_5_due_soon']);
    expect(
      rows.every(
        (r) => r.status === 'retrying' && Number(r.attempts) === 2 && r.next_attempt_at === '2027-09-08T09:46:00+00:00',
      ),
    ).toBe(true);

    // Mail works again: two replicas' passes at once send each reminder once; a later pass sends nothing.
    demo.ctx.config.smtpUrl = smtp.url;
    clock.set('2027-09-08T09:47:00Z');
    const [a, b] = await Promise.all([
      runReminders(demo.ctx, settings, quiet),
      runReminders(demo.ctx, settings, quiet),
    ]);
    expect(a.claimed + b.claimed).toBeGreaterThanOrEqual(4);
    expect((await runReminders(demo.ctx, settings, quiet)).claimed).toBe(0);
    rows = await rowsOf(['form_5_due_soon']);
    expect(rows.map((r) => [r.name, r.status, Number(r.attempts)])).toEqual(
      ['alice', 'bob', 'carol', 'dave'].map((n) => [n, 'sent', 3]),
    );
    await smtp.waitFor((m) => m.to.includes('dave@example.com') && m.subject.includes('Form 5'));
    const form5Mail = smtp.messages.filter((m) => m.subject.startsWith('Reminder: Form 5'));
    expect(form5Mail.map((m) => String(m.to)).sort()).toEqual([
      'alice@example.com',
      'bob@example.com',
      'carol@example.com',
      'dave@example.com',
    ]);
    expect(form5Mail[0].text).toContain('The 2026-2027 year-end inventory (as of 31 August) is not certified yet.');
  });

  it('gives up after the last attempt', async () => {
    const clock = demo.ctx.clock as ReturnType<typeof fixedClock>;
    demo.ctx.config.smtpUrl = 'smtp://127.0.0.1:1';
    clock.set('2027-09-13T09:00:00Z'); // overdue now
    const settings = { daysBefore: 3, retryMinutes: 1, maxAttempts: 2 };
    await runReminders(demo.ctx, settings, quiet);
    clock.set('2027-09-13T09:02:00Z');
    await runReminders(demo.ctx, settings, quiet);
    const rows = await rowsOf(['form_5_overdue']);
    expect(rows.map((r) => [r.status, Number(r.attempts)])).toEqual([
      ['failed', 2],
      ['failed', 2],
      ['failed', 2],
      ['failed', 2],
    ]);
    demo.ctx.config.smtpUrl = smtp.url;
  });

  it('waits retryMinutes, then twice as long each time', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMinutes(n, 15))).toEqual([15, 30, 60, 120]);
  });
});
