import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/**
 * Load sent in turns, and what it cost the server: the pieces the benchmarks share (bench/run.ts, bench/ablation.ts).
 * Two servers (or a server and its floor) take turns of a second or two, so that a comparison is of rates of the same
 * minute on a machine whose speed changes from one minute to the next (decision 0007, "Measuring").
 */

/**
 * glibc's heap setting for the load generator (this process), never for the servers it measures. By default
 * glibc hands the top of its heap back to the kernel as soon as 128 KB of it are free, and autocannon reads every
 * answer into new 64 KB buffers: each large answer's pages were faulted in again, and zeroed, in the kernel of the
 * load generator. On the virtual machines of 2026-11-25 that cost (page faults and interrupts are slow in those
 * guests) left the generator at 100 % of a core, two thirds of it in the kernel, while the server sat 60 % idle: the
 * uncompressed invoices page (487 KB) measured 1,020 to 2,885 req/s and p99 17 to 33 ms, 4,776 to 5,379 req/s and
 * p99 6 to 9 ms with this (docs/decisions/0007-performance-mechanisms.md). It must be set before the process
 * starts, so the benchmark starts itself again with it.
 */
export const LOAD_GENERATOR_ENV = { MALLOC_TRIM_THRESHOLD_: String(2 ** 30) };

/** Runs this benchmark again in a process with LOAD_GENERATOR_ENV, unless this is that process; true if it did. */
export function ranWithLoadGeneratorEnv(): boolean {
  if (Object.keys(LOAD_GENERATOR_ENV).every((k) => process.env[k] !== undefined)) return false;
  const run = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, ...LOAD_GENERATOR_ENV },
  });
  process.exitCode = run.status ?? 1;
  return true;
}

/** The server's environment: this process's, but with glibc's defaults, as `npm start` runs it. */
export function serverEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(LOAD_GENERATOR_ENV)) delete env[k];
  return env;
}
/** One request of a load, made anew for each index. */
export interface Req {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU time (user and system, every thread: V8's GC and compiler threads too) of a process and its workers, in us. */
export function cpuMicros(pid: number): number {
  const ticks = (p: number) => {
    try {
      // Fields 14 and 15 (utime, stime), counted after the command's closing parenthesis.
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  return ([pid, ...childrenOf(pid)].reduce((s, p) => s + ticks(p), 0) * 1e6) / CLOCK_TICKS;
}
/** Linux's USER_HZ, what /proc counts CPU time in (100 on every Linux build in use). */
export const CLOCK_TICKS = 100;

/**
 * autocannon appends every response body to a string (mcollina/autocannon#362), decoding it as UTF-8 in the load
 * generator's one thread. Nothing here reads a body, and decoding a compressed (binary) one costs the client more than
 * the server spends sending it: the same 49 KB br answer replayed by a bare node:http server measured 1,445 req/s with
 * it and 24,709 without, so compressed rows measured the client. Each connection drops the bodies instead.
 */
export function keepNoBodies(client: object): void {
  // Not a public API of autocannon: stop loudly if an upgrade moves it, rather than measure the client again.
  const queue = (client as { pipelinedRequests?: { addBody?: (data: Buffer) => void } }).pipelinedRequests;
  if (typeof queue?.addBody !== 'function')
    throw new Error("bench/run.ts keepNoBodies: autocannon's client has no pipelinedRequests.addBody any more");
  queue.addBody = () => {};
}

/** `seconds` of load (or `amount` requests) on `port`, request `i` made by `make(i)`; bodies are dropped unread. */
export async function sendLoad(
  port: number,
  make: (i: number) => Req,
  opts: { amount?: number; connections: number; seconds: number },
): Promise<autocannon.Result> {
  let i = 0;
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: opts.connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds }),
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...make(i++) }) as autocannon.Request }],
    setupClient: keepNoBodies,
  });
}

/** What one server answered over its turns. */
export interface TurnsResult {
  rps: number;
  p50: number;
  p99: number;
  /** Each turn's rate. */
  turns: number[];
  /** The server's CPU time (every thread, its workers too) over the requests of its turns, in us. */
  cpuPerRequest: number;
  errors: number;
}

/**
 * Each server's load in turns of `seconds`: `turns` rounds of one turn each, one server after the other, after
 * `warmup` seconds of each one's load (not counted: the first second of a fresh read ran at 55 to 60 % of the next).
 * p50 and p99 are the slowest turn's.
 */
export async function inTurns(
  servers: Array<{ port: number; pid: number; make: (i: number) => Req }>,
  options: {
    turns: number;
    seconds: number;
    warmup: number;
    load: (port: number, make: (i: number) => Req, seconds: number) => Promise<autocannon.Result>;
    /** Reverse the servers' order every other round, so that none always follows the same one. */
    alternateOrder?: boolean;
  },
): Promise<TurnsResult[]> {
  if (options.warmup > 0) for (const x of servers) await options.load(x.port, x.make, options.warmup);
  const turns = servers.map(() => [] as autocannon.Result[]);
  const cpu = servers.map(() => 0);
  for (let turn = 0; turn < options.turns; turn += 1) {
    const order = [...servers.entries()];
    if (options.alternateOrder && turn % 2 === 1) order.reverse();
    for (const [k, x] of order) {
      const before = cpuMicros(x.pid);
      turns[k].push(await options.load(x.port, x.make, options.seconds));
      cpu[k] += cpuMicros(x.pid) - before;
    }
  }
  return turns.map((results, k) => {
    const requests = results.reduce((n, r) => n + r.requests.total, 0);
    return {
      cpuPerRequest: cpu[k] / requests,
      rps: requests / results.reduce((n, r) => n + r.duration, 0),
      p50: Math.max(...results.map((r) => r.latency.p50)),
      p99: Math.max(...results.map((r) => r.latency.p99)),
      turns: results.map((r) => r.requests.total / r.duration),
      errors: results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
    };
  });
}
