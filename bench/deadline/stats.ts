/** Pure figures of a step: percentiles, each operation's summary, the budgets, the timeline for the chart. */

/** What the load generator records of each request. */
export interface Sample {
  op: string;
  cls: OpClass;
  /** Milliseconds from the step's start to when the request was due (its latency counts from there). */
  due: number;
  latency: number;
  ok: boolean;
}

/** The budget classes of issue 36; sign-in has no latency budget of its own, only "no errors". */
export type OpClass = 'read' | 'save' | 'certify' | 'sign-in';
export const OP_CLASSES: OpClass[] = ['read', 'save', 'certify', 'sign-in'];

export const BUDGET_MS: Partial<Record<OpClass, number>> = { read: 50, save: 100, certify: 500 };

/** The p-th percentile (0 < p <= 100) by nearest rank: the smallest value with p % of the values at or under it. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export interface OpSummary {
  cls: OpClass;
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function summarize(list: Sample[], cls: OpClass): OpSummary {
  const sorted = list.map((s) => s.latency).sort((a, b) => a - b);
  return {
    cls,
    count: list.length,
    errors: list.filter((s) => !s.ok).length,
    p50: round1(percentile(sorted, 50)),
    p95: round1(percentile(sorted, 95)),
    p99: round1(percentile(sorted, 99)),
  };
}

/** Per operation: count, errors and latency percentiles (ms, from when each request was due). */
export function summarizeOps(samples: Sample[]): Record<string, OpSummary> {
  const byOp = new Map<string, Sample[]>();
  for (const s of samples) byOp.set(s.op, [...(byOp.get(s.op) ?? []), s]);
  return Object.fromEntries(
    [...byOp].sort(([a], [b]) => a.localeCompare(b)).map(([op, l]) => [op, summarize(l, l[0].cls)]),
  );
}

export interface BudgetCheck {
  name: string;
  limit: number;
  value: number;
  held: boolean;
}

/** Each class's p99 under its budget (a class with no request holds), and no error at all. */
export function checkBudgets(samples: Sample[]): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const cls of OP_CLASSES) {
    const limit = BUDGET_MS[cls];
    if (limit === undefined) continue;
    const sorted = samples
      .filter((s) => s.cls === cls)
      .map((s) => s.latency)
      .sort((a, b) => a - b);
    const value = round1(percentile(sorted, 99));
    checks.push({ name: `${cls} p99 ms`, limit, value, held: value < limit });
  }
  const errors = samples.filter((s) => !s.ok).length;
  checks.push({ name: 'errors', limit: 0, value: errors, held: errors === 0 });
  return checks;
}

/** One bucket of the timeline: the p99 of each class and the requests answered a second. */
export interface TimePoint {
  /** Seconds from the start of the run. */
  t: number;
  throughput: number;
  p99: Partial<Record<OpClass, number>>;
}

/** Buckets of `width` seconds over a step that started `offset` seconds into the run, by when requests were due. */
export function timeline(samples: Sample[], seconds: number, offset: number, width: number): TimePoint[] {
  const points: TimePoint[] = [];
  for (let start = 0; start < seconds; start += width) {
    const inside = samples.filter((s) => s.due / 1000 >= start && s.due / 1000 < start + width);
    const p99: TimePoint['p99'] = {};
    for (const cls of OP_CLASSES) {
      const sorted = inside
        .filter((s) => s.cls === cls)
        .map((s) => s.latency)
        .sort((a, b) => a - b);
      if (sorted.length > 0) p99[cls] = round1(percentile(sorted, 99));
    }
    points.push({ t: round1(offset + start), throughput: round1(inside.length / width), p99 });
  }
  return points;
}
