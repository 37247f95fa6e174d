/**
 * `npm run bench:deadline -- [--data bench/data/bench-1000-10.sqlite | --postgres URL --schema NAME] [--workers N]
 * [--processes N] [--minutes M] [--rate R] [--max-steps K] [--mix deadline|read-only] [--json FILE] [--write-docs]`
 *
 * The last 48 hours before a due date (issue 36), compressed into M minutes a step: an open-loop load of the web
 * app's own requests (sign-ins, dashboards, form pages, draft saves, certifications with PDF and invoice,
 * amendments, the invoices page, the staff's submissions board and its CSV) on the model of bench/deadline/model.ts,
 * with the reminder job running in the servers as production runs it. Steps at R, then up the ladder (1, 2, 5, 10,
 * 20, 50, ...) times the model until a budget breaks (reads p99 < 50 ms, draft saves < 100 ms, certification
 * < 500 ms, no errors). Runs on a copy of the data (a copy of the SQLite file, or of the PostgreSQL schema), with
 * `--processes` separate servers on it, each with `--workers` (WEB_CONCURRENCY) and this process's environment.
 * Writes bench/results/deadline-<date>.json, .md and .svg (or --json FILE and beside it); `--write-docs` writes
 * its summary into docs/PERFORMANCE.md and its whole report into docs/PERFORMANCE-LOAD.md (bench/deadline/docs.ts).
 * BENCH_PORT sets the first server's port (the next ones follow); otherwise free ports are picked.
 */
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { addDays } from '@pecan/contract';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { freePort } from '../server/src/test-support/free-port.js';
import { deadlineChart, type ChartStep } from './deadline/chart.js';
import { enrolStaff, loadFixture, signInStaff } from './deadline/fixture.js';
import {
  arrivals,
  MODEL_HOURS,
  peakRates,
  SESSIONS,
  sessionsIn48Hours,
  thinkSeconds,
  type SessionName,
} from './deadline/model.js';
import { LADDER, nextRate, sustainedOf } from './deadline/ramp.js';
import { report, type RunInfo, type StepResult } from './deadline/report.js';
import { LoadRun } from './deadline/sessions.js';
import { checkBudgets, summarizeOps, timeline, type TimePoint } from './deadline/stats.js';
import { writeDeadlineDocs } from './deadline/docs.js';
import { parseArgs, seededRandom } from './lib.js';
import { copyPgSchema, dropPgSchema, query } from './data-set.js';
import { ranWithLoadGeneratorEnv } from './turns.js';
import { root, serverRssMb, signIn, startServer, stopServer, type DataTarget } from './server-process.js';

const READ_ONLY: SessionName[] = [
  'dashboard',
  'form 1 filing',
  'form 2 filing',
  'form 3 filing',
  'invoices page',
  'board poll',
  'board CSV',
];

interface Options {
  target: DataTarget;
  processes: number;
  minutes: number;
  /** The ladder from --rate on; then at most REFINE steps between the last rate held and the first broken. */
  rates: number[];
  maxSteps: number;
  mix: 'deadline' | 'read-only';
  json: string;
  writeDocs: boolean;
}

function options(argv: string[]): Options {
  const a = parseArgs(argv);
  const workers = Number(a.workers ?? 1);
  const target: DataTarget = a.postgres
    ? { dialect: 'postgres', url: String(a.postgres), schema: String(a.schema ?? 'bench_1000_2'), workers }
    : { dialect: 'sqlite', url: `sqlite:${resolve(String(a.data ?? 'bench/data/bench-1000-10.sqlite'))}`, workers };
  const rate = Number(a.rate ?? 1);
  const maxSteps = Number(a['max-steps'] ?? LADDER.length);
  const mix = String(a.mix ?? 'deadline');
  if (mix !== 'deadline' && mix !== 'read-only') throw new Error('--mix is deadline or read-only');
  if (!(rate > 0) || !(maxSteps >= 1)) throw new Error('--rate must be > 0 and --max-steps >= 1');
  const stamp = new Date().toISOString().replace(/:/g, '-').slice(0, 16);
  return {
    target,
    processes: Number(a.processes ?? 1),
    minutes: Number(a.minutes ?? 3),
    rates: [rate, ...LADDER.filter((r) => r > rate)],
    maxSteps,
    mix,
    json: resolve(String(a.json ?? join(root, 'bench/results', `deadline-${stamp}.json`))),
    writeDocs: a['write-docs'] === true,
  };
}

/** A copy of the data to run on, and how to drop it. */
async function copyOfData(t: DataTarget): Promise<{ target: DataTarget; drop(): Promise<void> }> {
  if (t.dialect === 'sqlite') {
    const from = t.url.slice('sqlite:'.length);
    if (!existsSync(from)) throw new Error(`${from} does not exist: make it with npm run bench:data.`);
    const copy = join(dirname(from), `deadline-run-${process.pid}.sqlite`);
    copyFileSync(from, copy);
    // A write-ahead log not yet checkpointed holds part of the data: it comes along.
    if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${copy}-wal`);
    return {
      target: { ...t, url: `sqlite:${copy}` },
      drop: async () => {
        for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
      },
    };
  }
  const schema = await copyPgSchema(t.url, t.schema!, `bench_dl_run_${process.pid}`);
  return { target: { ...t, schema }, drop: () => dropPgSchema(t.url, schema) };
}

/**
 * The servers' environment: the reminder job every model hour (as production runs it every hour), looking far
 * enough ahead to find the open month's due date, and tokens that outlive the run.
 */
function serverSettings(o: Options, dueDate: string): Record<string, string> {
  const today = new Date().toISOString().slice(0, 10);
  let days = 0;
  while (addDays(today, days) < dueDate && days < 60) days += 1;
  return {
    REMINDER_INTERVAL_SECONDS: String(Math.max(1, Math.round((o.minutes * 60) / MODEL_HOURS))),
    REMINDER_DAYS_BEFORE: String(Math.max(3, days)),
    ACCESS_TOKEN_TTL: String(7 * 86400),
  };
}

/**
 * What the run left in the database, to check that answers of 200 did the work: the open month's forms certified,
 * the forms' PDFs, the invoices and their PDFs made, the reminders the job claimed.
 */
async function verify(t: DataTarget, since: string, periodId: string): Promise<Record<string, number>> {
  const one = async (sql: string, params: unknown[]) => Number((await query(t, sql, params))[0].n);
  const certified = await Promise.all(
    ['apc_form_1', 'apc_form_2', 'apc_form_3'].map((f) =>
      one(`select count(*) as n from ${f} where period_id = ? and form_status = 'certified'`, [periodId]),
    ),
  );
  const pdfs = (owner: string) =>
    one(`select count(*) as n from files where filemime = 'application/pdf' and owner_type like ? and created >= ?`, [
      owner,
      since,
    ]);
  return {
    openMonthCertified: certified.reduce((a, b) => a + b, 0),
    formPdfs: await pdfs('node--apc_form_%'),
    invoices: await one('select count(*) as n from invoices where created >= ?', [since]),
    invoicePdfs: await pdfs('node--invoice'),
    remindersClaimed: await one('select count(*) as n from reminders_sent where claimed_at >= ?', [since]),
  };
}

async function runStep(
  run: LoadRun,
  o: Options,
  handlers: number,
  rate: number,
  servers: ChildProcess[],
  clock: { start: number },
): Promise<{ step: StepResult; points: TimePoint[]; chartStep: ChartStep }> {
  const kinds = new Set<SessionName>(o.mix === 'read-only' ? READ_ONLY : SESSIONS.map((s) => s.name));
  const planned = arrivals(handlers, rate, o.minutes, seededRandom(`deadline-${rate}`), kinds);
  const startedAt = (performance.now() - clock.start) / 1000;
  const rss: Array<[number, number]> = [];
  const sample = () =>
    rss.push([
      Math.round((performance.now() - clock.start) / 100) / 10,
      Math.round(servers.reduce((mb, s) => mb + serverRssMb(s.pid!), 0)),
    ]);
  sample();
  const timer = setInterval(sample, 1000);
  run.startStep();
  const t0 = performance.now();
  for (const a of planned) run.start(a.kind, a.at);
  await run.settle();
  clearInterval(timer);
  sample();
  const seconds = Math.max(o.minutes * 60, (performance.now() - t0) / 1000);
  const budgets = checkBudgets(run.samples);
  const step: StepResult = {
    rate,
    seconds: Math.round(seconds),
    throughput: Math.round((run.samples.length / seconds) * 10) / 10,
    ops: summarizeOps(run.samples),
    budgets,
    rssMbOverTime: rss,
    ranOut: { ...run.ranOut },
    draftsLeft: run.draftsRemaining(),
  };
  run.ranOut = {};
  const width = Math.max(1, Math.round((o.minutes * 60) / 60));
  const points = timeline(run.samples, seconds, startedAt, width);
  const held = budgets.every((b) => b.held);
  return { step, points, chartStep: { rate, start: startedAt, end: startedAt + seconds, held } };
}

function firstPort(k: number): Promise<number> {
  const base = Number(process.env.BENCH_PORT ?? 0);
  return base > 0 ? Promise.resolve(base + k) : freePort();
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  buildIfStale();
  const data = o.target.dialect === 'sqlite' ? basename(o.target.url) : `PostgreSQL schema ${o.target.schema}`;
  const began = performance.now();
  const { target, drop } = await copyOfData(o.target);
  const servers: ChildProcess[] = [];
  try {
    const fx = await loadFixture(target);
    const handlers = fx.handlerIds.length;
    // To the second, a second early: stored times are written without milliseconds, some with +00:00 for Z.
    const since = new Date(Date.now() - 1000).toISOString().slice(0, 19);
    const env = serverSettings(o, fx.period.dueDate);
    const staffSecret = await enrolStaff(target, fx.staff);
    const ports: number[] = [];
    for (let k = 0; k < o.processes; k += 1) {
      ports.push(await firstPort(k));
      servers.push(await startServer(target, ports[k], { env }));
    }
    console.error(
      `${data}: ${handlers} handlers, ${o.processes} process(es) x ${target.workers} worker(s); signing in`,
    );
    const tokens = await signIn(ports[0], [...fx.userOf.values()]);
    tokens.set(fx.staff, await signInStaff(ports[0], fx.staff, staffSecret));
    const run = new LoadRun(ports, fx, tokens, thinkSeconds(o.minutes) * 1000, seededRandom('deadline'));
    await run.warmUp(READ_ONLY);
    run.readOnly = o.mix === 'read-only';
    const clock = { start: performance.now() };
    const steps: StepResult[] = [];
    const points: TimePoint[] = [];
    const chartSteps: ChartStep[] = [];
    for (let rate: number | null = o.rates[0]; rate !== null && steps.length < o.maxSteps;) {
      const r = await runStep(run, o, handlers, rate, servers, clock);
      steps.push(r.step);
      points.push(...r.points);
      chartSteps.push(r.chartStep);
      const line = r.step.budgets.map((b) => `${b.name} ${b.value}${b.held ? '' : ' (BROKE)'}`).join(', ');
      console.error(`  ${rate}x: ${r.step.throughput} req/s over ${r.step.seconds} s; ${line}`);
      rate = nextRate(o.rates, chartSteps);
    }
    const sustainedRate = sustainedOf(chartSteps);
    const verified = await verify(target, since, fx.period.id);
    const certifications = steps.reduce(
      (n, s) => n + Object.values(s.ops).reduce((m, op) => m + (op.cls === 'certify' ? op.count - op.errors : 0), 0),
      0,
    );
    console.error(`  certifications answered: ${certifications}; left in the database: ${JSON.stringify(verified)}`);
    const setupSeconds = Math.round((clock.start - began) / 1000);
    console.error(
      `  setup (copy, servers, sign-ins) ${setupSeconds} s, steps ${Math.round(steps.reduce((a, x) => a + x.seconds, 0))} s`,
    );
    if (verified.formPdfs < certifications)
      console.error('  FEWER FORM PDFs THAN CERTIFICATIONS ANSWERED: an answer of 200 did not do the work.');
    if (run.errorExamples.length > 0)
      console.error(`  errors, first ones:\n    ${run.errorExamples.slice(0, 8).join('\n    ')}`);
    const info: RunInfo = {
      when: since.slice(0, 16).replace('T', ' '),
      database: target.dialect,
      data,
      handlers,
      workers: target.workers,
      processes: o.processes,
      minutes: o.minutes,
      mix: o.mix,
      machine: `${cpus().length} cores, ${cpus()[0]?.model}, Node ${process.version}`,
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    };
    const model = {
      handlers,
      minutes: o.minutes,
      peakSessionsPerMinute: peakRates(handlers).total * 60,
      sessions: SESSIONS.map((s) => ({ name: s.name, in48Hours: sessionsIn48Hours(s, handlers), why: s.why })),
    };
    const svgFile = o.json.replace(/\.json$/, '') + '.svg';
    const mdFile = o.json.replace(/\.json$/, '') + '.md';
    const title = `Deadline: ${data}, ${o.processes} process(es) x ${target.workers} worker(s), ${o.minutes} min a step`;
    const svg = deadlineChart(
      points,
      chartSteps,
      title,
      steps.flatMap((x) => x.rssMbOverTime),
    );
    mkdirSync(dirname(o.json), { recursive: true });
    const json = {
      info,
      model,
      steps,
      sustainedRate,
      setupSeconds,
      sustainedThroughput: steps.find((x) => x.rate === sustainedRate)?.throughput ?? null,
      verified: { certifications, ...verified },
      errors: run.errorExamples,
      timeline: points,
    };
    writeFileSync(o.json, `${JSON.stringify(json, null, 2)}\n`);
    writeFileSync(svgFile, svg);
    const md = report(info, steps, sustainedRate, basename(svgFile));
    writeFileSync(mdFile, `${md}\n`);
    console.log(`\n${md}\n\nResults: ${o.json}, ${basename(mdFile)}, ${basename(svgFile)}`);
    if (o.writeDocs) console.log(writeDeadlineDocs(info, steps, sustainedRate, svg));
  } finally {
    for (const s of servers) await stopServer(s);
    await drop();
  }
}

if (!ranWithLoadGeneratorEnv())
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
