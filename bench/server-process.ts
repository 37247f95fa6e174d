/**
 * The server the benchmarks measure: starting and stopping the built server (`node server/dist/main.js`), its memory
 * from /proc, and signing users in. Used by bench/run.ts, bench/deadline.ts and bench/ablation.ts; the load
 * generator's environment and CPU time are in turns.ts, the data set and its copies in data-set.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DataSet } from './data-set.js';
import { BENCH_PASSWORD } from './lib.js';
import { childrenOf, serverEnv } from './turns.js';

export const root = resolve(import.meta.dirname, '..');

/** A data set with the number of workers (`WEB_CONCURRENCY`) of the server that runs on it. */
export interface DataTarget extends DataSet {
  workers: number;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the built server on `port` and waits for /healthz. `nodeArgs` go before the script (e.g. --cpu-prof);
 * `env` is added to the server's environment (this process's, see serverEnv).
 */
export async function startServer(
  t: DataTarget,
  port: number,
  options: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'server/dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...serverEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: t.url,
      ...(t.schema ? { DATABASE_SCHEMA: t.schema } : {}),
      PORTAL_DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      ACCESS_TOKEN_TTL: '3600',
      WEB_CONCURRENCY: String(t.workers),
      ...options.env,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    if (i === 299) break;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      // With several workers, wait until all of them listen (the primary logs nothing we can read cheaply): a short
      // grace.
      if (res.ok) {
        if (t.workers > 1) await sleep(1500);
        return child;
      }
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  await stopServer(child);
  throw new Error(`server did not answer /healthz: ${stderr}`);
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function rssKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** RSS of a server and its workers (node:cluster's children), in MB. */
export function serverRssMb(pid: number): number {
  return [pid, ...childrenOf(pid)].reduce((s, p) => s + rssKb(p), 0) / 1024;
}

/** Samples the RSS of the server and its workers every 100 ms; the peak is of their sum. */
export function rssSampler(pid: number): { stop(): number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, serverRssMb(pid));
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Signs users in by password as the web app does (4 at a time: each is an Argon2id check); their access tokens. */
export async function signIn(port: number, names: string[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  for (let i = 0; i < names.length; i += 4) {
    await Promise.all(
      names.slice(i, i + 4).map(async (name) => {
        const res = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: passwordGrant(name),
        });
        if (!res.ok) throw new Error(`sign-in of ${name}: ${res.status} ${await res.text()}`);
        tokens.set(name, ((await res.json()) as { access_token: string }).access_token);
      }),
    );
  }
  return tokens;
}

/** The web app's sign-in form as the token endpoint takes it. */
export const passwordGrant = (username: string): string =>
  new URLSearchParams({
    grant_type: 'password',
    client_id: 'portal-web',
    username,
    password: BENCH_PASSWORD,
  }).toString();
