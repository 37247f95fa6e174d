import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { addDays } from '@pecan/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { closeMailTransports } from '../mail/mailer.js';
import { startTestSmtpServer, type TestSmtpServer } from '../mail/test-smtp.js';
import { systemClock } from '../lib/time.js';
import { describeEachDatabase, fixedClock, testConfig, testDatabases } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { createHandler, createUser } from '../workflows/accounts.js';
import type { Actor } from '../workflows/common.js';
import { openPeriod } from '../workflows/seasons.js';
import { runReminders } from './run.js';

describeEachDatabase('reminders', (target) => {
  let demo: DemoApp;
  let smtp: TestSmtpServer;
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

  it('reminds each handler user once before the due date and once when overdue', async () => {
    const clock = demo.ctx.clock as ReturnType<typeof fixedClock>;
    const settings = { daysBefore: 3 };
    // November 2026 is due on 2026-12-10; on the 6th it is not yet time.
    clock.set('2026-12-06T09:00:00Z');
    expect((await runReminders(demo.ctx, settings)).claimed).toBe(0);
    clock.set('2026-12-07T09:00:00Z');
    // Two passes at once (as two replicas would run them) and one more later: each reminder once.
    const [a, b] = await Promise.all([runReminders(demo.ctx, settings), runReminders(demo.ctx, settings)]);
    expect(a.claimed + b.claimed).toBe(4);
    expect(a.sent + b.sent).toBe(4);
    expect((await runReminders(demo.ctx, settings)).claimed).toBe(0);
    const soon = await Promise.all(
      ['alice', 'bob', 'carol', 'dave'].map((u) =>
        smtp.waitFor((m) => m.to.includes(`${u}@example.com`) && m.subject.startsWith('Reminder:')),
      ),
    );
    expect(soon[0].subject).toBe('Reminder: November 2026 reports of handler 101 are due 2026-12-10');
    expect(soon[0].text).toContain('Still to certify: Form 1, Form 2, Form 3.');

    clock.set('2026-12-11T09:00:00Z');
    expect((await runReminders(demo.ctx, settings)).sent).toBe(4);
    expect((await runReminders(demo.ctx, settings)).claimed).toBe(0);
    await smtp.waitFor((m) => m.to.includes('dave@example.com') && m.subject.startsWith('Overdue:'));
    expect(smtp.messages.filter((m) => m.subject.includes('November 2026'))).toHaveLength(8);

    clock.set('2026-11-22T12:01:00Z'); // back to when the staff token was issued
    const log = await demo.app.inject({
      method: 'GET',
      url: '/api/council/reminders?kind=overdue',
      headers: { authorization: `Bearer ${demo.tokens.staff}` },
    });
    expect(log.statusCode, log.body).toBe(200);
    const body = log.json();
    expect(body.data).toHaveLength(4);
    expect(
      body.data.every(
        (r: { status: string; period_month: string }) => r.status === 'sent' && r.period_month === '2026-11',
      ),
    ).toBe(true);
    expect(body.data.map((r: { username: string }) => r.username).sort()).toEqual(['alice', 'bob', 'carol', 'dave']);
  });
});

const postgres = testDatabases().find((t) => t.dialect === 'postgres');

/** Two real server processes on one PostgreSQL schema, each running the reminder job every second. */
describe.skipIf(!postgres)('reminders with two server replicas [postgres]', () => {
  const url = postgres?.url ?? '';
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let smtp: TestSmtpServer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const database = openDatabase({ url, pgSchema: schema, poolSize: 2 });
    try {
      await migrateToLatest(database.db, schema);
      const ctx: AppContext = {
        config: testConfig({ databaseUrl: url }),
        db: database.db,
        dialect: 'postgres',
        clock: systemClock,
        fileLinkSecret: 'x'.repeat(32),
      };
      const staff: Actor = { ctx, viewer: { userId: 'test-setup', name: 'setup', role: 'staff', handlerId: null } };
      await createHandler(staff, { number: '201', name: 'First Pecans' });
      await createHandler(staff, { number: '202', name: 'Second Pecans' });
      const user = (username: string, handler: string, mail?: string) =>
        createUser(staff, {
          username,
          password: 'replica-test-pass-1',
          firstName: username,
          mail,
          role: 'handler',
          handlerNumber: handler,
        });
      await user('ann', '201', 'ann@example.com');
      await user('ben', '201', 'ben@example.com');
      await user('cal', '202', 'cal@example.com');
      await user('nomail', '202');
      const today = new Date().toISOString().slice(0, 10);
      const { periodId } = await openPeriod(staff, today.slice(0, 7));
      // Due tomorrow: a reminder is due today.
      await database.db
        .updateTable('reporting_periods')
        .set({ due_date: addDays(today, 1) })
        .where('id', '=', periodId)
        .execute();
    } finally {
      await database.close();
    }
  }, 60_000);

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          child.once('exit', r);
          setTimeout(r, 5000);
        });
      }
    }
    await smtp?.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('sends each reminder e-mail exactly once', async () => {
    const root = resolve(import.meta.dirname, '../../..');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      HOST: '127.0.0.1',
      SMTP_URL: smtp.url,
      REMINDER_INTERVAL_SECONDS: '1',
      REMINDER_DAYS_BEFORE: '3',
      PORTAL_DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: 'none',
    };
    const output: string[] = [];
    for (const port of ['0', '0']) {
      const child = spawn(resolve(root, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
        cwd: root,
        env: { ...env, PORT: port },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
      child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
      children.push(child);
    }
    const expected = ['ann@example.com', 'ben@example.com', 'cal@example.com'];
    try {
      for (const to of expected) await smtp.waitFor((m) => m.to.includes(to), 60_000);
    } catch (error) {
      throw new Error(`${String(error)}\nserver output:\n${output.join('')}`);
    }
    // Both replicas keep running their job every second: nothing more may arrive.
    await new Promise((r) => setTimeout(r, 4000));
    expect(
      children.every((c) => c.exitCode === null),
      output.join(''),
    ).toBe(true);
    expect(smtp.messages.map((m) => m.to.join(',')).sort()).toEqual(expected);
    for (const m of smtp.messages)
      expect(m.subject).toMatch(/^Reminder: .* reports of handler 20[12] are due \d{4}-\d{2}-\d{2}$/);

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const rows = await admin.query(`select kind, status from ${schema}.reminders_sent`);
      expect(rows.rows).toHaveLength(3);
      expect(
        rows.rows.every((r: { status: string; kind: string }) => r.status === 'sent' && r.kind === 'due_soon'),
      ).toBe(true);
    } finally {
      await admin.end();
    }
  }, 120_000);
});
