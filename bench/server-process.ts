/**
 * What the benchmarks share about the server they measure: the load generator's own environment, starting and
 * stopping the built server (`node server/dist/main.js`), its memory and CPU from /proc, reading the data set, a
 * copy of a PostgreSQL data set's schema, and signing users in. Used by bench/run.ts and bench/deadline.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { BENCH_PASSWORD } from './lib.js';

export const root = resolve(import.meta.dirname, '..');

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
const LOAD_GENERATOR_ENV = { MALLOC_TRIM_THRESHOLD_: String(2 ** 30) };

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

/** A data set the server runs on: a SQLite file (`sqlite:PATH`) or a PostgreSQL URL with its schema. */
export interface DataTarget {
  dialect: 'sqlite' | 'postgres';
  url: string;
  schema?: string;
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

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** RSS of a server and its workers (node:cluster's children), in MB. */
export function serverRssMb(pid: number): number {
  return [pid, ...childrenOf(pid)].reduce((s, p) => s + rssKb(p), 0) / 1024;
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
const CLOCK_TICKS = 100;

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

/** Rows of one statement on the data set (`?` placeholders; numbered for PostgreSQL). */
export async function query(
  t: Pick<DataTarget, 'dialect' | 'url' | 'schema'>,
  text: string,
  params: unknown[] = [],
): Promise<Array<Record<string, unknown>>> {
  if (t.dialect === 'sqlite') {
    const db = new SQLite(t.url.slice('sqlite:'.length), { readonly: true });
    try {
      return db.prepare(text).all(...params) as Array<Record<string, unknown>>;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: t.url, options: `-c search_path=${t.schema}` });
  await client.connect();
  try {
    let n = 0;
    return (
      await client.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows;
  } finally {
    await client.end();
  }
}

/**
 * A copy of a PostgreSQL data set's schema, as SQLite's is run on a copy of its file: the writes (edits,
 * certifications, sign-ins) must leave the generated data set as it was, or a second run finds no drafts left to
 * edit. Tables with their columns, defaults, keys and indexes (LIKE ... INCLUDING ALL), rows, then the foreign keys.
 */
export async function copyPgSchema(url: string, from: string, to: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (
      await client.query(
        `select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'`,
        [from],
      )
    ).rows.map((r) => r.table_name as string);
    // Referenced tables named as the source schema sees them (unqualified), to be made again inside the copy.
    await client.query(`set search_path = ${pgIdent(from)}`);
    const foreignKeys = (
      await client.query(
        `select c.conrelid::regclass::text as table_name, c.conname, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = $1 and c.contype = 'f'`,
        [from],
      )
    ).rows;
    await client.query(`drop schema if exists ${pgIdent(to)} cascade`);
    await client.query(`create schema ${pgIdent(to)}`);
    await client.query(`set search_path = ${pgIdent(to)}`);
    for (const table of tables) {
      await client.query(`create table ${pgIdent(table)} (like ${pgIdent(from)}.${pgIdent(table)} including all)`);
      await client.query(`insert into ${pgIdent(table)} select * from ${pgIdent(from)}.${pgIdent(table)}`);
    }
    for (const fk of foreignKeys)
      await client.query(`alter table ${fk.table_name} add constraint ${pgIdent(fk.conname)} ${fk.definition}`);
    // Functions and triggers (the data version's, the audit log's): LIKE copies neither. Their definitions name the
    // source schema's objects qualified: put the copy's name in.
    const qualified = new RegExp(`\\b${from}\\.`, 'g');
    const functions = (
      await client.query(
        `select pg_get_functiondef(p.oid) as definition from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1`,
        [from],
      )
    ).rows;
    const triggers = (
      await client.query(
        `select pg_get_triggerdef(t.oid) as definition from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and not t.tgisinternal`,
        [from],
      )
    ).rows;
    for (const row of [...functions, ...triggers])
      await client.query(String(row.definition).replace(qualified, `${to}.`));
    await client.query('analyze');
    return to;
  } finally {
    await client.end();
  }
}

export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${pgIdent(schema)} cascade`);
  } finally {
    await client.end();
  }
}

const pgIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

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
