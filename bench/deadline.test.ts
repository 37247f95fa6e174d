import { describe, expect, it } from 'vitest';
import { deadlineChart } from './deadline/chart.js';
import { readFileSync } from 'node:fs';
import { betweenMarks } from './lib.js';
import { configurationOf, report, summary, type RunInfo, type StepResult } from './deadline/report.js';
import {
  arrivals,
  handlerCurve,
  hourlyRates,
  MODEL_HOURS,
  peakRates,
  SESSIONS,
  sessionsIn48Hours,
  type SessionModel,
} from './deadline/model.js';
import { checkBudgets, percentile, summarizeOps, timeline, type Sample } from './deadline/stats.js';
import { nextRate, sustainedOf } from './deadline/ramp.js';
import { seededRandom } from './lib.js';

const kind = (name: string): SessionModel => SESSIONS.find((s) => s.name === name)!;
const sample = (cls: Sample['cls'], latency: number, ok = true, due = 0): Sample => ({
  op: `${cls} op`,
  cls,
  due,
  latency,
  ok,
});

describe('the deadline model', () => {
  it('peaks on the due date afternoon, with the day before quieter', () => {
    const curve = handlerCurve();
    expect(curve).toHaveLength(MODEL_HOURS);
    const peak = curve.indexOf(Math.max(...curve));
    expect(peak).toBeGreaterThanOrEqual(24 + 13);
    expect(peak).toBeLessThan(24 + 17);
    expect(curve.slice(0, 24).reduce((a, b) => a + b)).toBeLessThan(curve.slice(24).reduce((a, b) => a + b) / 2);
  });

  it('sends every modelled session over the 48 hours, and scales handlers but not staff', () => {
    const form1 = kind('form 1 filing');
    const perSecond = hourlyRates(form1, 1000);
    expect(perSecond.reduce((a, r) => a + r * 3600, 0)).toBeCloseTo(700, 6);
    expect(sessionsIn48Hours(form1, 100)).toBeCloseTo(70, 6);
    const board = kind('board poll');
    expect(sessionsIn48Hours(board, 100)).toBe(sessionsIn48Hours(board, 1000));
    expect(peakRates(1000).total).toBeGreaterThan(peakRates(100).total);
  });

  it('compresses: a step at rate R sends R x the 48 hours x minutes / 2,880 sessions, in order', () => {
    const handlers = 1000;
    const expected = SESSIONS.reduce((n, s) => n + sessionsIn48Hours(s, handlers), 0) * 20 * (10 / 2880);
    const list = arrivals(handlers, 20, 10, seededRandom('test'));
    expect(Math.abs(list.length - expected) / expected).toBeLessThan(0.05);
    expect(list.every((a, i) => i === 0 || a.at >= list[i - 1].at)).toBe(true);
    expect(list.at(-1)!.at).toBeLessThanOrEqual(600);
    const only = arrivals(handlers, 20, 10, seededRandom('test'), new Set(['invoices page'] as const));
    expect(new Set(only.map((a) => a.kind))).toEqual(new Set(['invoices page']));
  });
});

describe('the step figures', () => {
  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBe(0);
  });

  it('holds a budget under its limit and breaks it at or over, and counts any error', () => {
    const fine = [...Array.from({ length: 99 }, () => sample('read', 5)), sample('save', 90), sample('certify', 400)];
    expect(checkBudgets(fine).every((b) => b.held)).toBe(true);
    const slow = [...fine, sample('read', 60), sample('read', 60)];
    expect(checkBudgets(slow).find((b) => b.name === 'read p99 ms')).toMatchObject({ value: 60, held: false });
    const failed = [...fine, sample('sign-in', 3, false)];
    expect(checkBudgets(failed).find((b) => b.name === 'errors')).toMatchObject({ value: 1, held: false });
  });

  it('summarizes each operation and buckets the timeline by when requests were due', () => {
    const samples = [sample('read', 4, true, 500), sample('read', 8, false, 1500), sample('save', 30, true, 1600)];
    expect(summarizeOps(samples)['read op']).toMatchObject({ count: 2, errors: 1, p50: 4, p99: 8 });
    const points = timeline(samples, 2, 10, 1);
    expect(points.map((p) => p.t)).toEqual([10, 11]);
    expect(points[1]).toMatchObject({ throughput: 2, p99: { read: 8, save: 30 } });
  });
});

describe('the chart and the docs', () => {
  it('draws each class that has requests, the throughput and the steps', () => {
    const svg = deadlineChart(
      [
        { t: 0, throughput: 10, p99: { read: 4, certify: 300 } },
        { t: 1, throughput: 20, p99: { read: 6 } },
      ],
      [
        { rate: 10, start: 0, end: 1, held: true },
        { rate: 20, start: 1, end: 2, held: false },
      ],
      'a <title>',
      [
        [0, 200],
        [2, 250],
      ],
    );
    expect(svg).toContain('class="series-read"');
    expect(svg).toContain('class="series-certify"');
    expect(svg).not.toContain('class="series-save"');
    expect(svg).toContain('class="series-throughput"');
    expect(svg).toContain('class="series-rss"');
    expect(svg).toContain('20x (broke)');
    expect(svg).toContain('a &lt;title>');
  });

  it('replaces only what lies between the marks', () => {
    const doc = 'a\n<!-- deadline:results -->\nold\n<!-- /deadline:results -->\nb\n';
    expect(betweenMarks(doc, 'deadline:results', 'new')).toBe(
      'a\n<!-- deadline:results -->\nnew\n<!-- /deadline:results -->\nb\n',
    );
    expect(betweenMarks('no marks', 'deadline:results', 'new')).toBeNull();
  });

  it('names each budget configuration, and every one has its marks in docs/PERFORMANCE.md', () => {
    const names = [
      configurationOf({ database: 'sqlite', processes: 1, workers: 1 }),
      configurationOf({ database: 'postgres', processes: 1, workers: 2 }),
      configurationOf({ database: 'postgres', processes: 1, workers: 1 }),
      configurationOf({ database: 'postgres', processes: 2, workers: 1 }),
    ];
    expect(names).toEqual(['sqlite-workers-1', 'postgres-workers-2', 'postgres-workers-1', 'postgres-processes-2']);
    const doc = readFileSync(new URL('../docs/PERFORMANCE.md', import.meta.url), 'utf8');
    for (const name of names) expect(betweenMarks(doc, `deadline:${name}`, 'x')).not.toBeNull();
  });

  it('summarizes a run with its steps and its chart, and the report adds the operations', () => {
    const info: RunInfo = {
      when: '2026-11-27 10:00',
      database: 'sqlite',
      data: 'bench-1000-2.sqlite',
      handlers: 1000,
      workers: 1,
      processes: 1,
      minutes: 2,
      mix: 'deadline',
      machine: '2 cores',
      load: '0.1 0.1 0.1',
    };
    const step = {
      rate: 10,
      seconds: 120,
      throughput: 2.3,
      ops: { 'form page': { cls: 'read', count: 3, errors: 0, p50: 4, p95: 9, p99: 60 } },
      budgets: checkBudgets([sample('read', 60), sample('save', 5), sample('certify', 50)]),
      rssMbOverTime: [[0, 250]],
      ranOut: {},
      draftsLeft: 10,
    } as unknown as StepResult;
    const short = summary(info, [step], null, 'chart.svg');
    expect(short).toContain('**Sustained rate: none**');
    expect(short).toContain('| 10x | 120 |');
    expect(short).toContain('60 **x**');
    expect(short).toContain('](chart.svg)');
    expect(short).not.toContain('| form page |');
    expect(report(info, [step], null, 'chart.svg')).toContain('| form page | read | 3 | 0 | 4 | 9 | 60 |');
    const held = { ...step, budgets: checkBudgets([sample('read', 6)]) } as StepResult;
    expect(summary(info, [held], 10, 'chart.svg')).toContain('**Sustained rate: at least 10x the model**');
    expect(summary(info, [held, step], 10, 'chart.svg')).toContain('**Sustained rate: 10x the model**');
  });
});

describe('the ramp', () => {
  const ladder = [1, 2, 5, 10, 20, 50];
  const held = (rate: number) => ({ rate, held: true });
  const broke = (rate: number) => ({ rate, held: false });

  it('climbs the ladder while every budget holds, then looks between the last held and the first broken', () => {
    expect(nextRate(ladder, [held(1)])).toBe(2);
    expect(nextRate(ladder, [held(10), held(20)])).toBe(50);
    expect(nextRate(ladder, [held(1), held(50)])).toBeNull();
    expect(nextRate(ladder, [held(10), held(20), broke(50)])).toBe(32);
    expect(nextRate(ladder, [held(10), held(20), broke(50), held(32)])).toBe(40);
    expect(nextRate(ladder, [held(10), held(20), broke(50), broke(32)])).toBe(25);
    expect(nextRate(ladder, [held(10), held(20), broke(50), held(32), held(40)])).toBeNull();
    expect(nextRate(ladder, [broke(1)])).toBeNull();
  });

  it('sustains the largest rate held below every rate that broke', () => {
    expect(sustainedOf([held(10), held(20), broke(50), held(32)])).toBe(32);
    expect(sustainedOf([held(10), broke(20), held(50)])).toBe(10);
    expect(sustainedOf([broke(1)])).toBeNull();
    expect(sustainedOf([held(1), held(2)])).toBe(2);
  });
});
