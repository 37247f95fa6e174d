/**
 * A probe (not a benchmark of record): the reminder job's pass when everything due has been claimed, which is what
 * the job finds nearly every time it wakes. On a copy of DATA, with the clock at AT (default two days before
 * November's due date, when every handler of a bench data set has a reminder due), one pass claims and "sends" every
 * reminder (no SMTP_URL: logged, not sent), then 40 passes are timed. `tsx bench/probe-reminder-pass.ts DATA [AT]`.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfig } from '../server/src/config/config.js';
import type { AppContext } from '../server/src/context.js';
import { openDatabase } from '../server/src/db/database.js';
import { loadFileLinkSecret } from '../server/src/files/signing.js';
import type { MailLog } from '../server/src/mail/mailer.js';
import { runReminders } from '../server/src/reminders/run.js';

const [data, at = '2026-12-08T15:00:00Z'] = process.argv.slice(2);
const from = resolve(data);
const copy = join(dirname(from), `probe-${process.pid}.sqlite`);
copyFileSync(from, copy);
const url = `sqlite:${copy}`;
const database = openDatabase({ url });
try {
  const ctx: AppContext = {
    config: loadConfig({ ...process.env, DATABASE_URL: url, PORTAL_DEMO_DATA: '0', SMTP_URL: '' }),
    db: database.db,
    dialect: database.dialect,
    clock: { now: () => new Date(at) },
    fileLinkSecret: await loadFileLinkSecret(database.db),
  };
  const quiet: MailLog = { info() {}, error() {} };
  const settings = { daysBefore: 5 };
  console.log('first pass', await runReminders(ctx, settings, quiet));
  const ms: number[] = [];
  for (let i = 0; i < 40; i += 1) {
    const started = performance.now();
    await runReminders(ctx, settings, quiet);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  console.log(`later passes: min ${ms[0].toFixed(1)} ms, p50 ${ms[20].toFixed(1)} ms, max ${ms[39].toFixed(1)} ms`);
} finally {
  await database.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
}
