/** The deadline run's report: the model as a table, each step's budgets and operations, in Markdown. */
import {
  FILERS_SHARE,
  MODEL_HOURS,
  peakRates,
  SAVES_PER_FORM,
  SESSIONS,
  sessionsIn48Hours,
  THINK_MINUTES,
} from './model.js';
import type { BudgetCheck, OpSummary } from './stats.js';

export interface StepResult {
  rate: number;
  seconds: number;
  throughput: number;
  ops: Record<string, OpSummary>;
  budgets: BudgetCheck[];
  rssMbOverTime: Array<[number, number]>;
  /** Sessions that found no fresh work of their kind (see the report). */
  ranOut: Record<string, number>;
  draftsLeft: number;
}

export interface RunInfo {
  when: string;
  /** The database's kind: with processes and workers, which of the budget's configurations the run is. */
  database: 'sqlite' | 'postgres';
  data: string;
  handlers: number;
  workers: number;
  processes: number;
  minutes: number;
  mix: string;
  machine: string;
  load: string;
}

const n = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits });

/** The model as a table: sessions in the 48 hours, at the peak a second, and why. */
export function modelTable(handlers: number): string {
  const peak = peakRates(handlers);
  const rows = SESSIONS.map((s) => {
    const total = sessionsIn48Hours(s, handlers);
    return `| ${s.name} | ${n(total)} | ${n(peak.byKind[s.name] * 60, 2)} | ${s.why} |`;
  });
  return [
    `| session (${n(handlers)} handlers) | in the ${MODEL_HOURS} h | a minute at the peak | model |`,
    '|---|---:|---:|---|',
    ...rows,
    `| all sessions | ${n(SESSIONS.reduce((a, s) => a + sessionsIn48Hours(s, handlers), 0))} | ${n(peak.total * 60, 1)} | |`,
    '',
    "Handlers work on a working day's curve: the due date's day 2.5 times the day before, its afternoon (13:00 to",
    `17:00) 1.6 times that again, the peak. ${n(FILERS_SHARE * 100)} % of handlers file in the window, forms 1, 2 and 3,`,
    `with ${SAVES_PER_FORM.apc_form_1}, ${SAVES_PER_FORM.apc_form_2} and ${SAVES_PER_FORM.apc_form_3} saves ${THINK_MINUTES} model minutes apart. Staff are at the board`,
    '8:00 to 18:00 both days. The reminder job runs every model hour in every server process, as production runs',
    'it every hour (`REMINDER_INTERVAL_SECONDS`).',
  ].join('\n');
}

export function stepsTable(steps: StepResult[]): string {
  const classOf = (s: StepResult, name: string) => s.budgets.find((b) => b.name === name);
  const rows = steps.map((s) => {
    const cell = (name: string) => {
      const b = classOf(s, name);
      return b ? `${b.value}${b.held ? '' : ' **x**'}` : '';
    };
    const rss = Math.max(0, ...s.rssMbOverTime.map(([, mb]) => mb));
    const requests = Object.values(s.ops).reduce((a, o) => a + o.count, 0);
    return `| ${s.rate}x | ${n(s.seconds)} | ${n(requests)} | ${n(s.throughput, 1)} | ${cell('read p99 ms')} | ${cell('save p99 ms')} | ${cell('certify p99 ms')} | ${cell('errors')} | ${n(rss)} | ${s.budgets.every((b) => b.held) ? 'held' : 'broke'} |`;
  });
  return [
    '| rate | s | requests | req/s | reads p99 ms (< 50) | saves p99 ms (< 100) | certify p99 ms (< 500) | errors |' +
      ' peak RSS MB | budgets |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

export function opsTable(step: StepResult): string {
  const rows = Object.entries(step.ops).map(
    ([op, o]) => `| ${op} | ${o.cls} | ${n(o.count)} | ${o.errors} | ${o.p50} | ${o.p95} | ${o.p99} |`,
  );
  return [
    '| operation | class | count | errors | p50 ms | p95 ms | p99 ms |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

/**
 * Which of the budget's configurations a run is (SQLite one process; PostgreSQL with workers; several processes):
 * the name of its marks in docs/PERFORMANCE.md and of its chart.
 */
export const configurationOf = (info: Pick<RunInfo, 'database' | 'processes' | 'workers'>): string =>
  `${info.database}-${info.processes > 1 ? `processes-${info.processes}` : `workers-${info.workers}`}`;

/** The run, its sustained rate, its steps and its chart: what docs/PERFORMANCE.md shows beside the read budgets. */
export function summary(info: RunInfo, steps: StepResult[], sustained: number | null, chart: string): string {
  const peakPerMinute = peakRates(info.handlers).total * 60;
  const best = steps.find((s) => s.rate === sustained);
  // No step broke: the ramp was cut short, so the rate the budgets hold is higher still.
  const atLeast = steps.every((s) => s.budgets.every((b) => b.held));
  return [
    `Run of ${info.when} UTC on ${info.data}, ${n(info.handlers)} handlers, ${info.processes} server process(es)`,
    `with WEB_CONCURRENCY=${info.workers}, mix ${info.mix}; each step plays the ${MODEL_HOURS} hours in ${info.minutes}`,
    `minutes at its rate times the model (${info.machine}; load average at the end ${info.load}).`,
    '',
    sustained === null
      ? '**Sustained rate: none** (the first step broke a budget).'
      : `**Sustained rate: ${atLeast ? 'at least ' : ''}${sustained}x the model** (${n(sustained * peakPerMinute, 0)}` +
        ` sessions a minute at the peak, ${best ? n(best.throughput, 1) : '?'} requests a second over the step):` +
        ` every budget held${atLeast ? '; the run stopped at --max-steps before any broke' : ''}.`,
    '',
    stepsTable(steps),
    '',
    `![p99 latency and throughput over time](${chart})`,
  ].join('\n');
}

/** The whole report: the summary, each operation's figures and the model; `chart` is the SVG's file name beside it. */
export function report(info: RunInfo, steps: StepResult[], sustained: number | null, chart: string): string {
  const best = steps.find((s) => s.rate === sustained);
  const broke = steps.find((s) => s.budgets.some((b) => !b.held));
  const ranOut = steps.filter((s) => Object.keys(s.ranOut).length > 0);
  return [
    summary(info, steps, sustained, chart),
    '',
    ...(best ? [`Operations at ${best.rate}x:`, '', opsTable(best), ''] : []),
    ...(broke ? [`Operations at ${broke.rate}x, where a budget broke:`, '', opsTable(broke), ''] : []),
    ranOut.length > 0
      ? `Fresh work ran out: ${ranOut.map((s) => `at ${s.rate}x ${JSON.stringify(s.ranOut)}`).join('; ')} (a form filing with no draft left amends an earlier form 1 instead).`
      : `Fresh work never ran out (${steps.at(-1)?.draftsLeft ?? 0} open-month drafts left at the end).`,
    '',
    '**The model** (per step, rate x these figures, compressed):',
    '',
    modelTable(info.handlers),
  ].join('\n');
}
