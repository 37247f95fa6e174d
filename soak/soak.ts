/**
 * `npm run soak [-- --seconds N --users N --db sqlite|postgres|both]`: the built server (server/dist/main.js) on a
 * fresh demo database, SQLite and then PostgreSQL (TEST_DATABASE_URL, in a schema of its own). It signs in N
 * distinct handler users (default 200, made straight in the database: staff sign-in needs a second factor), drives
 * the web app's reads and some profile writes over N concurrent keep-alive connections (one user each) for a
 * bounded time, samples the server's RSS every second, then sends SIGTERM while the same load runs.
 *
 * It fails (exit 1) when: any request errs or answers non-2xx during the soak; the median of the server's RSS in the
 * last quarter of the run is more than RSS_BOUND_MB above the first quarter's (after WARMUP_SECONDS); any request
 * sent before SIGTERM fails or is cut off; or the server does not exit 0 after SIGTERM. RSS_BOUND_MB is 64 MB, plus
 * what DOCUMENT_CACHE_MB (passed on to the server) asks beyond its default of 64.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../server/src/db/database.js';
import { isoTimestamp, newId } from '../server/src/lib/time.js';
import { hashPassword } from '../server/src/users/passwords.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The documents kept in memory (decision 0005) count as growth while they fill: a cache larger than the default
 * 64 MB raises the bound by as much, so that a larger DOCUMENT_CACHE_MB is not taken for a leak. */
const DEFAULT_DOCUMENT_CACHE_MB = 64;
const RSS_BOUND_MB =
  64 + Math.max(0, (Number(process.env.DOCUMENT_CACHE_MB) || DEFAULT_DOCUMENT_CACHE_MB) - DEFAULT_DOCUMENT_CACHE_MB);
/** The heap grows to its working size under this load in the first seconds: not counted as growth. */
const WARMUP_SECONDS = 20;
const PASSWORD = 'soak-password-2026';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    users: { type: 'string', default: '200' },
    db: { type: 'string', default: 'both' },
    port: { type: 'string', default: '4710' },
    'no-build': { type: 'boolean' },
  },
});
const SECONDS = Number(args.seconds);
const USERS = Number(args.users);

interface Outcome {
  status: number | null;
  error?: string;
  sentAt: number;
  ms: number;
  path?: string;
}
interface SoakUser {
  name: string;
  id: string;
  handlerId: string;
  token: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: USERS + 10 });

/** One request on the shared keep-alive agent; never throws. */
function request(
  port: number,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<Outcome & { text: string }> {
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/vnd.api+json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (payload !== undefined) {
      headers['content-type'] =
        typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/vnd.api+json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          sentAt,
          ms: Date.now() - sentAt,
          text: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', (e) => resolve({ status: null, error: e.message, sentAt, ms: Date.now() - sentAt, text: '' }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', (e) =>
      resolve({
        status: null,
        error: (e as NodeJS.ErrnoException).code ?? e.message,
        sentAt,
        ms: Date.now() - sentAt,
        text: '',
      }),
    );
    req.end(payload);
  });
}

/** What the web app asks for on its pages (dashboard, filings, invoices, directory, profile), for one user. */
function workload(u: SoakUser): Array<[string, string, unknown?]> {
  return [
    ['GET', '/jsonapi/node/season?sort=-field_season_start_date'],
    ['GET', `/jsonapi/node/handler/${u.handlerId}?include=field_handler_analytics,field_handler_packet_confirms`],
    [
      'GET',
      `/jsonapi/node/reporting_forms_package?filter[field_handler.id]=${u.handlerId}&sort=-field_reporting_period.field_due_date&include=field_reporting_period,field_form_1,field_form_2,field_form_3&page[limit]=12`,
    ],
    [
      'GET',
      `/jsonapi/node/invoice?filter[field_handler.id]=${u.handlerId}&sort=-field_due_date&include=field_invoice_pdf&page[limit]=20`,
    ],
    ['GET', '/jsonapi/node/monthly_position_report?sort=-created&page[limit]=1&include=field_position_report_pdf'],
    ['GET', '/jsonapi/node/handler?filter[field_show_in_handler_directory]=1&sort=title&page[limit]=500'],
    ['GET', `/jsonapi/user/user/${u.id}`],
    ['GET', `/jsonapi/node/apc_form_4?filter[field_transferring_handler.id]=${u.handlerId}&page[limit]=20`],
    ['GET', '/jsonapi/taxonomy_term/pecan_variety?sort=weight'],
    [
      'PATCH',
      `/jsonapi/user/user/${u.id}`,
      { data: { type: 'user--user', id: u.id, attributes: { field_job_title: `Soak ${Date.now() % 100000}` } } },
    ],
  ];
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : 0;
};

interface Target {
  name: 'sqlite' | 'postgres';
  env: Record<string, string>;
  databaseUrl: string;
  schema?: string;
  cleanup(): Promise<void>;
}

async function makeTarget(name: 'sqlite' | 'postgres'): Promise<Target> {
  if (name === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'soak-'));
    const databaseUrl = `sqlite:${join(dir, 'portal.sqlite')}`;
    return {
      name,
      databaseUrl,
      env: { DATABASE_URL: databaseUrl },
      async cleanup() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `soak_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    name,
    databaseUrl: url,
    schema,
    env: { DATABASE_URL: url, DATABASE_SCHEMA: schema },
    async cleanup() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

function startServer(target: Target, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [join(ROOT, 'server/dist/main.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...target.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      PORTAL_DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
      WEB_CONCURRENCY: '1',
    },
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += String(d);
  });
  child.stderr!.on('data', (d) => {
    output += String(d);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 300 s:\n${output}`)), 300_000);
    const check = setInterval(() => {
      if (output.includes('running at')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    }, 200);
    child.on('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`server exited ${code}:\n${output}`));
    });
  });
}

/** Users made in the database like the CLI makes them (one password hash shared, so making them is quick). */
async function createUsers(target: Target): Promise<Array<Omit<SoakUser, 'token'>>> {
  const database = openDatabase({ url: target.databaseUrl, pgSchema: target.schema });
  try {
    const template = await database.db
      .selectFrom('users')
      .selectAll()
      .where('name', '=', 'alice')
      .executeTakeFirstOrThrow();
    const handlers = (await database.db.selectFrom('handlers').select('id').orderBy('handler_number').execute()).map(
      (h) => String(h.id),
    );
    const hash = await hashPassword(PASSWORD);
    const now = isoTimestamp(new Date());
    const users = Array.from({ length: USERS }, (_, i) => ({
      name: `soak${i}`,
      id: newId(),
      handlerId: handlers[i % handlers.length],
    }));
    for (let i = 0; i < users.length; i += 50) {
      await database.db
        .insertInto('users')
        .values(
          users.slice(i, i + 50).map((u) => ({
            ...template,
            id: u.id,
            name: u.name,
            title: u.name,
            mail: `${u.name}@soak.example.com`,
            first_name: 'Soak',
            last_name: u.name,
            handler_id: u.handlerId,
            pass_hash: hash,
            created: now,
            changed: now,
          })),
        )
        .execute();
    }
    return users;
  } finally {
    await database.close();
  }
}

async function signInAll(port: number, users: Array<Omit<SoakUser, 'token'>>): Promise<SoakUser[]> {
  const out: SoakUser[] = [];
  for (let i = 0; i < users.length; i += 4) {
    const batch = await Promise.all(
      users.slice(i, i + 4).map(async (u) => {
        const form = new URLSearchParams({
          grant_type: 'password',
          client_id: 'portal-web',
          username: u.name,
          password: PASSWORD,
        }).toString();
        const r = await request(port, 'POST', '/oauth/token', undefined, form);
        if (r.status !== 200) throw new Error(`sign-in of ${u.name}: ${r.status} ${r.error ?? r.text}`);
        return { ...u, token: (JSON.parse(r.text) as { access_token: string }).access_token };
      }),
    );
    out.push(...batch);
  }
  return out;
}

/** One loop per user, each over its own keep-alive connection, until `until()` says stop. */
async function drive(
  port: number,
  users: SoakUser[],
  until: () => boolean,
  record: (o: Outcome) => void,
): Promise<void> {
  await Promise.all(
    users.map(async (u, i) => {
      const work = workload(u);
      for (let n = i; !until(); n += 1) {
        const [method, path, body] = work[n % work.length];
        const r = await request(port, method, path, u.token, body);
        record({ ...r, path: `${method} ${path.split('?')[0].replace(/[0-9a-f-]{36}/g, ':id')}` });
        if (r.status === null || r.status === 503) return; // the server is going away (SIGTERM phase)
      }
    }),
  );
}

interface Result {
  db: string;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rssFirstQuarterMb: number;
  rssLastQuarterMb: number;
  rssGrowthMb: number;
  rssMaxMb: number;
  sigterm: {
    inFlight: number;
    inFlightOk: number;
    inFlightFailed: number;
    afterRefused: number;
    exitCode: number | null;
    exitMs: number;
  };
  failures: string[];
}

async function soak(name: 'sqlite' | 'postgres', port: number): Promise<Result> {
  const target = await makeTarget(name);
  const failures: string[] = [];
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const t0 = Date.now();
    server = await startServer(target, port);
    console.log(`[${name}] server up with demo data in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const users = await signInAll(port, await createUsers(target));
    console.log(`[${name}] ${users.length} users signed in; ${USERS} connections for ${SECONDS} s`);
    const pid = server.child.pid!;
    // Open the N connections first, as N browsers would have them open: a connection still waiting in the kernel's
    // accept queue when the load starts can wait there for long while the server is saturated (seen on SQLite,
    // whose queries run on the event loop), which measures the ramp, not the steady state.
    const opened = await Promise.all(users.map(() => request(port, 'GET', '/healthz')));
    if (opened.some((o) => o.status !== 200))
      throw new Error(`opening connections: ${opened.filter((o) => o.status !== 200).length} failed`);

    // The soak.
    const outcomes: Outcome[] = [];
    const samples: number[] = [];
    const start = Date.now();
    const sampler = setInterval(() => samples.push(rssMb(pid)), 1000);
    const firstError = new Map<string, number>();
    await drive(
      port,
      users,
      () => Date.now() - start >= SECONDS * 1000,
      (o) => {
        outcomes.push(o);
        const key = `${o.status ?? o.error} ${o.path}`;
        if (o.status === null || o.status < 200 || o.status >= 300) firstError.set(key, (firstError.get(key) ?? 0) + 1);
      },
    );
    clearInterval(sampler);
    const elapsed = (Date.now() - start) / 1000;
    console.log(
      `[${name}] RSS MB every 5 s: ${samples
        .filter((_, i) => i % 5 === 0)
        .map((x) => x.toFixed(0))
        .join(' ')}`,
    );
    const errors = outcomes.filter((o) => o.status === null).length;
    const non2xx = outcomes.filter((o) => o.status !== null && (o.status < 200 || o.status >= 300)).length;
    if (errors + non2xx > 0)
      failures.push(
        `${errors} errors and ${non2xx} non-2xx answers: ${JSON.stringify(Object.fromEntries(firstError))}`,
      );
    const steady = samples.slice(WARMUP_SECONDS);
    const quarter = Math.max(1, Math.floor(steady.length / 4));
    const firstQuarter = median(steady.slice(0, quarter));
    // Medians, not peaks: RSS saw-tooths with each major collection; a leak lifts the whole last quarter.
    const lastQuarter = median(steady.slice(-quarter));
    const growth = lastQuarter - firstQuarter;
    if (growth > RSS_BOUND_MB) failures.push(`RSS grew ${growth.toFixed(0)} MB (bound ${RSS_BOUND_MB} MB)`);

    // SIGTERM under the same load: everything sent before the signal must finish with 2xx, and the process exit 0.
    const during: Outcome[] = [];
    let signalledAt = Number.POSITIVE_INFINITY;
    let exited: { code: number | null; at: number } | undefined;
    const exit = new Promise<void>((resolve) =>
      server!.child.on('exit', (code) => {
        exited = { code, at: Date.now() };
        resolve();
      }),
    );
    const load = drive(
      port,
      users,
      () => exited !== undefined || Date.now() - signalledAt > 30_000,
      (o) => during.push(o),
    );
    await new Promise((r) => setTimeout(r, 3000));
    signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await Promise.race([exit, new Promise((r) => setTimeout(r, 60_000))]);
    await load;
    const inFlight = during.filter((o) => o.sentAt < signalledAt);
    const inFlightFailed = inFlight.filter((o) => o.status === null || o.status < 200 || o.status >= 300);
    const kinds = new Map<string, number>();
    for (const o of inFlightFailed)
      kinds.set(`${o.status ?? o.error} ${o.path}`, (kinds.get(`${o.status ?? o.error} ${o.path}`) ?? 0) + 1);
    if (inFlightFailed.length > 0)
      failures.push(
        `${inFlightFailed.length} requests sent before SIGTERM failed: ${JSON.stringify(Object.fromEntries(kinds))}`,
      );
    if (exited?.code !== 0)
      failures.push(`server exit after SIGTERM: ${exited ? exited.code : 'still running after 60 s'}`);
    const latencies = outcomes.map((o) => o.ms);
    return {
      db: name,
      seconds: Math.round(elapsed),
      requests: outcomes.length,
      rps: Math.round(outcomes.length / elapsed),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      non2xx,
      errors,
      rssFirstQuarterMb: Math.round(firstQuarter),
      rssLastQuarterMb: Math.round(lastQuarter),
      rssGrowthMb: Math.round(growth),
      rssMaxMb: Math.round(Math.max(...samples)),
      sigterm: {
        inFlight: inFlight.length,
        inFlightOk: inFlight.length - inFlightFailed.length,
        inFlightFailed: inFlightFailed.length,
        afterRefused: during.filter((o) => o.sentAt >= signalledAt && (o.status === null || o.status >= 300)).length,
        exitCode: exited?.code ?? null,
        exitMs: exited ? exited.at - signalledAt : -1,
      },
      failures,
    };
  } finally {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await target.cleanup();
  }
}

async function main(): Promise<number> {
  if (!args['no-build']) {
    const build = spawnSync('flock', ['/tmp/build.lock', 'node', 'scripts/build-if-stale.mjs'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (build.status !== 0) return 1;
  }
  const dbs: Array<'sqlite' | 'postgres'> =
    args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as 'sqlite' | 'postgres'];
  const results: Result[] = [];
  for (const db of dbs) results.push(await soak(db, Number(args.port)));
  console.table(
    results.map((r) => ({
      db: r.db,
      seconds: r.seconds,
      requests: r.requests,
      'req/s': r.rps,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      errors: r.errors,
      non2xx: r.non2xx,
      'RSS q1 MB': r.rssFirstQuarterMb,
      'RSS last-q MB': r.rssLastQuarterMb,
      'growth MB': r.rssGrowthMb,
      'RSS max MB': r.rssMaxMb,
    })),
  );
  console.table(
    results.map((r) => ({
      db: r.db,
      'sent before SIGTERM': r.sigterm.inFlight,
      '2xx': r.sigterm.inFlightOk,
      failed: r.sigterm.inFlightFailed,
      'refused after': r.sigterm.afterRefused,
      'exit code': r.sigterm.exitCode,
      'exit after ms': r.sigterm.exitMs,
    })),
  );
  const failures = results.flatMap((r) => r.failures.map((f) => `[${r.db}] ${f}`));
  for (const f of failures) console.error(`FAIL ${f}`);
  console.log(
    failures.length === 0
      ? `soak passed (RSS growth bound ${RSS_BOUND_MB} MB, medians of the first and last quarter after ${WARMUP_SECONDS} s warm-up)`
      : 'soak FAILED',
  );
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
