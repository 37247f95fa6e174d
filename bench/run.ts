/**
 * `npm run bench -- [--sizes 10-2,100-2] [--duration 3] [--warmup 1] [--connections 8] [--workers 1,2] [--postgres
 * URL|off] [--only TEXT,...] [--cpu-prof DIR] [--baseline] [--write-docs]`
 *
 * Starts the built server (`node server/dist/main.js`) on each generated data set (a copy, for SQLite), signs in
 * distinct users, and drives load with autocannon over the requests the web app makes. Per request: throughput,
 * p50, p99, errors; the server's peak RSS. The reads are also served by the floor (bench/floor.ts: one SQL
 * statement + JSON.stringify in a bare Fastify route, in a process of its own) and reported as a ratio, measured in
 * turns of a second with the engine (`inTurns`).
 * `--only` measures the requests whose names contain one of the words given (`--only seasons,directory`; `--only fair`:
 * only the fair-use line, another user's p99 beside one user's hostile reads).
 * Results go to bench/results/<date>.json, which git ignores; `--baseline` also writes them as
 * bench/results/baseline-<size>.json for each size measured (the kept ones, one per data set size), and
 * `--write-docs` writes the table of the latest figures into docs/PERFORMANCE.md (between its bench:results marks).
 * `--cpu-prof DIR` runs the server and the floor with Node's `--cpu-prof` into DIR/server (a .cpuprofile per process)
 * and DIR/floor, written when they stop, and the requests sent to each into DIR/requests.json (for
 * bench/profile-compare.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { LIMITS } from '../server/src/jsonapi/limits.js';
import { freePort } from '../server/src/test-support/free-port.js';
// The web app's own queries, so that the package and invoice reads are the very requests it sends.
// Every read is the web app's own query, imported from where the app builds it.
import { industryAnalyticsParams } from '../web/src/features/analytics/api/analytics-params.js';
import { startupReads } from '../web/src/lib/portal/startup-read-list.js';
import { contactsParams, handlerDirectoryParams } from '../web/src/lib/portal/directory-params.js';
import { buildUrl } from '../web/src/lib/jsonapi/client.js';
import { batchBlueprint } from '../web/src/lib/jsonapi/subrequests.js';
import { handlerWithIncludesParams, userByNameParams } from '../web/src/lib/portal/handler-params.js';
import { invoicesParams } from '../web/src/lib/portal/invoice-params.js';
import { nextPackageParams, seasonPackagesParams } from '../web/src/lib/portal/package-params.js';
import { seasonsParams } from '../web/src/lib/portal/season-params.js';
import { routeSizes } from './bundle-size.js';
import { budget, budgetLine, parseArgs, writeBetweenMarks, type Budget } from './lib.js';
import { copyPgSchema, dropPgSchema, fixture, type Fixture } from './data-set.js';
import { inTurns as sendInTurns, ranWithLoadGeneratorEnv, sendLoad, serverEnv, type Req } from './turns.js';
import { passwordGrant, root, rssSampler, signIn, sleep, startServer, stopServer } from './server-process.js';

const args = parseArgs(process.argv.slice(2));
const duration = Number(args.duration ?? 3);
/** Turns of 1 s of the engine and each floor for the ratios (`inTurns`): as many as `duration` has seconds. */
const turnCount = Math.max(1, Math.round(duration));
/**
 * Seconds of the same load sent, and not counted, before each read's measurement, to the engine and to both floors
 * alike. Without it the first of a 3 s window was a third of the result: the first second of a fresh read ran at 55 to
 * 60 % of the next ones on the engine (V8 still compiling its path; 2026-11-24 night), less on a floor with less code.
 * `--warmup 0` measures from the first request as runs before that night did.
 */
const warmup = Number(args.warmup ?? 1);
const connections = Number(args.connections ?? 8);
const pgUrl =
  args.postgres === 'off'
    ? null
    : String(
        args.postgres ??
          process.env.BENCH_DATABASE_URL ??
          process.env.TEST_DATABASE_URL ??
          'postgres://postgres@127.0.0.1:5432/test',
      );
const workerCounts = String(args.workers ?? '1,2')
  .split(',')
  .map(Number);
const only = args.only ? new Set(String(args.only).split(',')) : null;
const cpuProfDir = args['cpu-prof'] ? resolve(String(args['cpu-prof'])) : null;
/**
 * The server's document cache (decision 0005), as the environment sets it: `DOCUMENT_CACHE_MB=0 npm run bench` measures
 * building every document.
 */
const documentCacheMb = process.env.DOCUMENT_CACHE_MB ?? '64';

interface Target {
  size: string;
  handlers: number;
  seasons: number;
  dialect: 'sqlite' | 'postgres';
  url: string;
  schema?: string;
  workers: number;
}
interface Measured {
  name: string;
  kind: Scenario['kind'];
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The engine's rate in its turns beside the floors' (`inTurns`): the ratios are of these. */
  turnsRps?: number;
  /** The engine's rate over the flat floor's, turn by turn: the run's spread beside its ratio. */
  turnRatios?: number[];
  /** Microseconds of CPU per request in the turns (`inTurns`), of the server and of the floor's process. */
  cpuPerRequest?: { engine: number; floor: number; documentFloor: number };
  floorRps?: number;
  floorP50?: number;
  floorP99?: number;
  ratio?: number;
  /**
   * The floor writing the engine's own document (floor.ts, /floor-document): what the format costs apart from the
   * engine.
   */
  documentFloorRps?: number;
  documentRatio?: number;
}
interface FairUse {
  quietP99: number;
  loudP99: number;
  hostile: Record<string, number>;
}
interface TargetResult extends Target {
  peakRssMb: number;
  signedIn: number;
  results: Measured[];
  fairUse?: FairUse;
  note?: string;
}

// ---------------------------------------------------------------- data sets

function sizes(): Array<{ handlers: number; seasons: number }> {
  const list = args.sizes
    ? String(args.sizes)
        .split(',')
        .map((s) => s.split(/[-x]/).map(Number))
    : readdirSync(join(root, 'bench/data'))
        .map((f) => /^bench-(\d+)-(\d+)\.sqlite$/.exec(f))
        .filter((m) => m)
        .map((m) => [Number(m![1]), Number(m![2])]);
  return list
    .map(([handlers, seasons]) => ({ handlers, seasons }))
    .sort((a, b) => a.handlers * a.seasons - b.handlers * b.seasons);
}

// ---------------------------------------------------------------- server and memory

/** Node's flags for `--cpu-prof`: the server's profiles (one per process) and the floor's in folders of their own. */
function cpuProfArgs(name: 'server' | 'floor'): string[] {
  return cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${join(cpuProfDir, name)}`] : [];
}

// ---------------------------------------------------------------- scenarios

interface Scenario {
  name: string;
  kind: 'read' | 'batch' | 'write';
  floor?: (i: number) => string;
  make: (i: number) => Req;
  amount?: number;
  connections?: number;
  /** Measured a second time as a browser asks, compressed (the large reads). */
  alsoCompressed?: boolean;
}

/** What Chromium sends (the server picks br). */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

function scenarios(fx: Fixture, tokens: Array<{ token: string; name: string; handlerId: string }>): Scenario[] {
  const u = (i: number) => tokens[i % tokens.length];
  const auth = (i: number) => ({ authorization: `Bearer ${u(i).token}`, accept: 'application/vnd.api+json' });
  const get =
    (path: (i: number) => string) =>
    (i: number): Req => ({ path: path(i), headers: auth(i) });
  const write = (i: number, method: string, path: string, data: unknown): Req => ({
    method,
    path,
    headers: { ...auth(i), 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data }),
  });
  const form1Drafts = fx.drafts.filter((d) => d.bundle === 'apc_form_1');
  const ownerToken = new Map(tokens.map((t) => [t.handlerId, t]));
  const draftsWithToken = fx.drafts.filter((d) => ownerToken.has(d.handlerId));
  const form1WithToken = form1Drafts.filter((d) => ownerToken.has(d.handlerId));
  const asOwner = (handlerId: string) => ({ authorization: `Bearer ${ownerToken.get(handlerId)!.token}` });
  const list: Scenario[] = [
    {
      name: 'POST /oauth/token (sign-in)',
      kind: 'write',
      connections: 4,
      amount: 40,
      make: (i) => ({
        method: 'POST',
        path: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: passwordGrant(fx.users[i % fx.users.length].name),
      }),
    },
    // The sign-in by password knows the name; by single sign-on the name comes from here.
    { name: 'GET /oauth/debug (sign-in by single sign-on)', kind: 'read', make: get(() => '/oauth/debug') },
    {
      name: 'user by name (certification page)',
      kind: 'read',
      make: get((i) => buildUrl('/jsonapi/user/user', userByNameParams(u(i).name))),
      floor: (i) => `/floor/me?name=${u(i).name}`,
    },
    {
      name: 'seasons (sign-in)',
      kind: 'read',
      make: get(() => buildUrl('/jsonapi/node/season', seasonsParams())),
      floor: () => '/floor/seasons',
    },
    {
      name: 'industry analytics (analytics page)',
      kind: 'read',
      make: get(() => buildUrl('/jsonapi/node/industry_analytics', industryAnalyticsParams())),
      floor: () => '/floor/industryAnalytics',
    },
    {
      name: 'handler + includes (dashboard)',
      kind: 'read',
      make: get((i) => buildUrl(`/jsonapi/node/handler/${u(i).handlerId}`, handlerWithIncludesParams())),
      floor: (i) => `/floor/handler?handler=${u(i).handlerId}`,
    },
    {
      // The form page's 'Next package' button, on the newest package's form: the package before it, its forms' ids.
      name: 'next package (form page)',
      kind: 'read',
      make: get((i) =>
        buildUrl('/jsonapi/node/reporting_forms_package', nextPackageParams(u(i).handlerId, fx.newestDueDate)),
      ),
      floor: (i) => `/floor/nextPackage?handler=${u(i).handlerId}&before=${encodeURIComponent(fx.newestDueDate)}`,
    },
    {
      name: 'packages, current season (dashboard)',
      kind: 'read',
      alsoCompressed: true,
      make: get((i) =>
        buildUrl('/jsonapi/node/reporting_forms_package', seasonPackagesParams(u(i).handlerId, fx.seasonId)),
      ),
      floor: (i) => `/floor/packagesSeason?handler=${u(i).handlerId}&season=${fx.seasonId}`,
    },
    {
      // The invoices page's read (web/src/lib/portal/invoice-params.ts): of form 1 only its PDF.
      name: 'invoices, limit 200 (invoices page)',
      kind: 'read',
      alsoCompressed: true,
      make: get((i) => buildUrl('/jsonapi/node/invoice', invoicesParams(u(i).handlerId))),
      floor: (i) => `/floor/invoices?handler=${u(i).handlerId}`,
    },
    // The sign-in's one batch (docs/decisions/0003): measured, but not a single read, so not held to the read budgets.
    {
      // The web app's (web/src/lib/portal/startup-read-list.ts): the user with its handler, the seasons,
      // the newest position report, and (waiting for the user's answer, its handler id put in by the server) the
      // current season's packages and the unpaid invoices.
      name: 'batch: user, seasons, newest report, current packages, unpaid invoices (sign-in)',
      kind: 'batch',
      make: (i) => ({
        method: 'POST',
        path: '/subrequests?_format=json',
        headers: { ...auth(i), 'content-type': 'application/json' },
        body: JSON.stringify(batchBlueprint(startupReads(u(i).name))),
      }),
    },
    {
      // What the directory page reads first (web/src/lib/portal/directory-api.ts): 50 by title, no search.
      name: 'handler directory',
      kind: 'read',
      make: get(() => buildUrl('/jsonapi/node/handler', handlerDirectoryParams())),
      floor: () => '/floor/handlerDirectory',
    },
    {
      name: 'user directory (one handler)',
      kind: 'read',
      // The contacts page (directory-params.ts).
      make: get((i) => buildUrl('/jsonapi/user/user', contactsParams(u(i).handlerId))),
      floor: (i) => `/floor/userDirectory?handler=${u(i).handlerId}`,
    },
    {
      name: 'PATCH form 1 draft',
      kind: 'write',
      connections: 4,
      make: (i) => {
        const d = form1WithToken[i % form1WithToken.length];
        const req = write(i, 'PATCH', `/jsonapi/node/apc_form_1/${d.id}`, {
          type: 'node--apc_form_1',
          id: d.id,
          attributes: { field_receipts_native: 1000 + (i % 5000), field_shipments_inshell: 2000 },
        });
        return { ...req, headers: { ...req.headers, ...asOwner(d.handlerId) } };
      },
    },
    {
      name: 'certify (PATCH draft, PDF, invoice)',
      kind: 'write',
      connections: 2,
      amount: draftsWithToken.length,
      make: (i) => {
        const d = draftsWithToken[i % draftsWithToken.length];
        const figures =
          d.bundle === 'apc_form_1'
            ? {
                field_receipts_by_variety: [{ variety: 'Desirable', pounds: 50_000 }],
                field_receipts_native: 1000,
                field_receipts_substandard: 0,
                field_shipments_inshell: 2000,
                field_shipments_shelled: 0,
                field_interhandler_shipments: [],
                field_interhandler_received: 0,
                field_inventory_inshell: 100_000,
                field_inventory_shelled: 10_000,
                field_committed_domestic: 0,
                field_committed_export: 0,
                field_under_contract_from_handlers: 0,
              }
            : { field_no_change_flag: true };
        const req = write(i, 'PATCH', `/jsonapi/node/${d.bundle}/${d.id}`, {
          type: `node--${d.bundle}`,
          id: d.id,
          attributes: {
            ...figures,
            field_certified: true,
            field_certification_name: 'Bench',
            field_certification_title: 'Officer',
          },
        });
        return { ...req, headers: { ...req.headers, ...asOwner(d.handlerId) } };
      },
    },
  ];
  // The large reads again as the web app's browser sends them, asking for a compressed answer (Chromium's
  // Accept-Encoding): the server compresses at every request, a cost the rows above leave out. No floor: it sends
  // its flat rows uncompressed.
  const compressed = list
    .filter((s) => s.alsoCompressed)
    .map((s): Scenario => ({
      name: `${s.name}, compressed (br)`,
      kind: s.kind,
      make: (i) => {
        const r = s.make(i);
        return { ...r, headers: { ...r.headers, 'accept-encoding': BROWSER_ACCEPT_ENCODING } };
      },
    }));
  list.splice(
    list.findIndex((s) => s.name.startsWith('batch:')),
    0,
    ...compressed,
  );
  return list.filter((s) => !only || [...only].some((o) => s.name.includes(o)));
}

/**
 * A read's load, measured after `warmup` seconds of it (see `warmup`). Writes are measured from their first request.
 */
async function measure(
  port: number,
  make: (i: number) => Req,
  opts: { amount?: number; connections?: number; kind?: string },
): Promise<autocannon.Result> {
  if (warmup > 0 && opts.kind !== 'write' && !opts.amount) await load(port, make, opts, warmup);
  return load(port, make, opts);
}

async function load(
  port: number,
  make: (i: number) => Req,
  opts: { amount?: number; connections?: number },
  seconds = duration,
): Promise<autocannon.Result> {
  const result = await sendLoad(port, make, { ...opts, connections: opts.connections ?? connections, seconds });
  countServed(port, result.requests.total);
  return result;
}

/**
 * With `--cpu-prof`: the requests of the load sent to each kind of process, written to DIR/requests.json when the
 * run ends, so that `bench/profile-compare.ts` gives each one's CPU time per request.
 */
const profiledPorts = new Map<number, 'server' | 'floor'>();
const served = { server: 0, floor: 0 };
function countServed(port: number, requests: number): void {
  const kind = profiledPorts.get(port);
  if (kind) served[kind] += requests;
}
function writeServedCounts(): void {
  if (cpuProfDir) writeFileSync(join(cpuProfDir, 'requests.json'), `${JSON.stringify(served, null, 2)}\n`);
}

/**
 * The engine and its floors measured in turns of a second (`duration` turns each, after `warmup` seconds of each's
 * load), so that each ratio compares rates of the same minute. Measured one after the other, 4 s each, the floors of
 * the small reads moved by up to half from one run to the next on the machines of 2026-11-25 (next package's floor
 * 8,451 and 13,089 req/s in two runs), and a ratio took a floor's good seconds against the engine's bad ones.
 */
async function inTurns(
  servers: Array<{ port: number; pid: number; make: (i: number) => Req }>,
  s: Scenario,
): Promise<Array<{ rps: number; p50: number; p99: number; turns: number[]; cpuPerRequest: number }>> {
  return sendInTurns(servers, {
    turns: turnCount,
    seconds: 1,
    warmup,
    load: (port, make, secs) => load(port, make, s, secs),
  });
}

const cpuLine = (c: { engine: number; floor: number; documentFloor: number }) =>
  `${c.engine.toFixed(1)} us, floor ${c.floor.toFixed(1)} us (${((c.floor / c.engine) * 100).toFixed(0)}%), writing the document ${c.documentFloor.toFixed(1)} us`;

function summary(r: autocannon.Result) {
  return {
    requests: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

// ---------------------------------------------------------------- floor

async function startFloor(t: Target, port: number): Promise<ChildProcess> {
  // A process of its own, with the server's environment (bench/floor.ts says why).
  const floor = fork(join(root, 'bench/floor.ts'), [], {
    execArgv: ['--import', 'tsx', ...cpuProfArgs('floor')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...serverEnv(), FLOOR_URL: t.url, FLOOR_PORT: String(port), FLOOR_SCHEMA: t.schema ?? '' },
  });
  await new Promise<void>((ok, fail) => {
    floor.once('message', () => ok());
    floor.once('error', fail);
    floor.once('exit', (code) => fail(new Error(`the floor exited before it listened (exit code ${code})`)));
  });
  return floor;
}

/** Reads the engine's document of each distinct floor request of a scenario and hands them to the floor's worker. */
async function giveDocuments(floor: ChildProcess, port: number, s: Scenario, users: number): Promise<void> {
  const documents: Record<string, string> = {};
  for (let i = 0; i < users; i += 1) {
    const key = s.floor!(i);
    if (key in documents) continue;
    const r = s.make(i);
    const res = await fetch(`http://127.0.0.1:${port}${r.path}`, { headers: r.headers });
    if (!res.ok) throw new Error(`${s.name}: ${res.status} reading the document for the floor`);
    documents[key] = await res.text();
  }
  const taken = new Promise((ok) => floor.once('message', ok));
  floor.send({ documents });
  await taken;
}

// ---------------------------------------------------------------- one target

async function runTarget(t: Target): Promise<TargetResult> {
  let runUrl = t.url;
  let copy: string | null = null;
  if (t.dialect === 'sqlite') {
    // A copy: the writes (edits, certifications, sign-ins) must not change the generated data set.
    copy = join(root, 'bench/data', `run-${process.pid}.sqlite`);
    copyFileSync(t.url.slice('sqlite:'.length), copy);
    runUrl = `sqlite:${copy}`;
  }
  const runSchema =
    t.dialect === 'postgres' ? await copyPgSchema(t.url, t.schema!, `bench_run_${process.pid}`) : undefined;
  const target = { ...t, url: runUrl, schema: runSchema ?? t.schema };
  const fx = await fixture(target);
  const port = await freePort();
  const server = await startServer(target, port, { nodeArgs: cpuProfArgs('server') });
  profiledPorts.set(port, 'server');
  const rss = rssSampler(server.pid!);
  const result: TargetResult = { ...t, peakRssMb: 0, signedIn: 0, results: [] };
  let floor: ChildProcess | null = null;
  try {
    const users = fx.users.filter((x) => x.handlerId).slice(0, 100);
    const signedIn = await signIn(
      port,
      users.map((x) => x.name),
    );
    const tokens = users.map((x) => ({ token: signedIn.get(x.name)!, name: x.name, handlerId: x.handlerId }));
    result.signedIn = tokens.length;
    const floorPort = await freePort();
    floor = t.workers === 1 ? await startFloor(target, floorPort) : null;
    profiledPorts.set(floorPort, 'floor');
    for (const s of scenarios(fx, tokens)) {
      // Check the request once (and warm up) before measuring.
      const probe = s.make(0);
      if (s.kind !== 'write') {
        const send = (r: Req) =>
          fetch(`http://127.0.0.1:${port}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
        for (let k = 0; k < 20; k += 1) await send(s.make(k));
        const res = await send(probe);
        if (!res.ok) throw new Error(`${s.name}: ${res.status} ${(await res.text()).slice(0, 300)}`);
      }
      const measured: Measured = { name: s.name, kind: s.kind, ...summary(await measure(port, s.make, s)) };
      if (floor && s.floor) {
        const f = s.floor;
        const make = (i: number): Req => ({ path: f(i), headers: s.make(i).headers });
        const fres = await fetch(`http://127.0.0.1:${floorPort}${make(0).path}`, { headers: make(0).headers });
        if (!fres.ok) throw new Error(`floor of ${s.name}: ${fres.status}`);
        await giveDocuments(floor, port, s, tokens.length);
        const document = (i: number): Req => ({
          ...make(i),
          path: make(i).path.replace('/floor/', '/floor-document/'),
        });
        const [engine, flat, written] = await inTurns(
          [
            { port, pid: server.pid!, make: s.make },
            { port: floorPort, pid: floor.pid!, make },
            { port: floorPort, pid: floor.pid!, make: document },
          ],
          s,
        );
        Object.assign(measured, {
          turnsRps: engine.rps,
          floorRps: flat.rps,
          floorP50: flat.p50,
          floorP99: flat.p99,
          ratio: engine.rps / flat.rps,
          documentFloorRps: written.rps,
          documentRatio: engine.rps / written.rps,
          turnRatios: engine.turns.map((e, k) => e / flat.turns[k]),
          cpuPerRequest: {
            engine: engine.cpuPerRequest,
            floor: flat.cpuPerRequest,
            documentFloor: written.cpuPerRequest,
          },
        });
      }
      result.results.push(measured);
      console.error(
        `  ${s.name.padEnd(40)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms  errors ${measured.errors + measured.non2xx}${measured.ratio ? `  in turns ${measured.turnsRps!.toFixed(0)} req/s, floor ${measured.floorRps!.toFixed(0)} req/s (${(measured.ratio * 100).toFixed(0)}%), writing the document ${measured.documentFloorRps!.toFixed(0)} req/s (${(measured.documentRatio! * 100).toFixed(0)}%) [${measured.turnRatios!.map((r) => (r * 100).toFixed(0)).join(' ')}]; CPU a request ${cpuLine(measured.cpuPerRequest!)}` : ''}`,
      );
    }
    if (tokens.length > 1 && (!only || [...only].some((o) => 'fair use'.includes(o))))
      result.fairUse = await fairUse(port, tokens);
  } finally {
    if (floor) await stopServer(floor);
    result.peakRssMb = rss.stop();
    await stopServer(server);
    if (copy) for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
    if (runSchema) await dropPgSchema(t.url, runSchema);
  }
  return result;
}

// ---------------------------------------------------------------- fair use

/**
 * The attack of issue 32 kept within the server's limits (jsonapi/limits.ts: as many OR-ed CONTAINS conditions as
 * allowed, over a path of as many relationships as allowed, each text and page new, so nothing is kept for it), sent
 * by one user in four loops.
 */
const HOSTILE_PATH = ['field_amendment_of', 'field_reporting_forms_package', 'field_reporting_period', 'title']
  .slice(-(LIMITS.pathHops + 1))
  .join('.');
function hostileUrl(i: number): string {
  const parts = ['filter[any][group][conjunction]=OR'];
  for (let c = 0; c < LIMITS.filterConditions; c += 1) {
    const at = `filter[c${c}][condition]`;
    parts.push(
      `${at}[path]=${HOSTILE_PATH}`,
      `${at}[operator]=CONTAINS`,
      `${at}[value]=${i}-${c}-${'q'.repeat(40)}`,
      `${at}[memberOf]=any`,
    );
  }
  return `/jsonapi/node/apc_form_1?${parts.join('&')}&page[offset]=${i}`;
}

/** Another user's dashboard read, quiet and then while one user sends hostile reads in parallel: its p99 both ways. */
async function fairUse(port: number, tokens: Array<{ token: string; handlerId: string }>): Promise<FairUse> {
  const [attacker, victim] = tokens;
  const headers = (t: { token: string }) => ({
    authorization: `Bearer ${t.token}`,
    accept: 'application/vnd.api+json',
  });
  const read = (): Req => ({
    path: buildUrl(`/jsonapi/node/handler/${victim.handlerId}`, handlerWithIncludesParams()),
    headers: headers(victim),
  });
  const quiet = await load(port, read, { connections: 2 });
  const hostile: Record<string, number> = {};
  let stop = false;
  let sent = 0;
  const loop = async () => {
    while (!stop) {
      const res = await fetch(`http://127.0.0.1:${port}${hostileUrl(sent++)}`, { headers: headers(attacker) });
      await res.arrayBuffer();
      hostile[res.status] = (hostile[res.status] ?? 0) + 1;
    }
  };
  const loops = [loop(), loop(), loop(), loop()];
  await sleep(200);
  const loud = await load(port, read, { connections: 2 });
  stop = true;
  await Promise.all(loops);
  const fair = { quietP99: quiet.latency.p99, loudP99: loud.latency.p99, hostile };
  console.error(
    `  fair use: another user's p99 ${fair.quietP99} ms quiet, ${fair.loudP99} ms beside one user's hostile reads (answers ${JSON.stringify(hostile)})`,
  );
  return fair;
}

/** The fair-use line: another user's p99 at most twice its quiet value (at least 1 ms: autocannon's resolution). */
function fairUseBudget(r: TargetResult): Budget | null {
  const f = r.fairUse;
  if (!f) return null;
  const ratio = Math.max(f.loudP99, 1) / Math.max(f.quietP99, 1);
  return budget(
    `fair use at ${r.size} ${r.dialect}: another user's p99 beside one user's hostile reads / quiet`,
    ratio,
    2,
    'x',
    true,
    `(p99 ${f.quietP99} -> ${f.loudP99} ms; hostile answers ${Object.entries(f.hostile)
      .map(([s, n]) => `${n} x ${s}`)
      .join(', ')})`,
  );
}

// ---------------------------------------------------------------- report

const percent = (x?: number) => (x ? `${(x * 100).toFixed(0)}%` : '');

/**
 * The table of the latest figures in docs/PERFORMANCE.md: every request at the budget size (the largest SQLite data
 * set, one worker), the p99 with more workers when measured, and the budget lines met.
 */
function latestFigures(
  big: TargetResult,
  more: TargetResult | undefined,
  js: { route: string; files: number; gzipBytes: number }[],
  budgets: Budget[],
  machine: { nproc: number; cpu?: string; node: string },
): string {
  const at = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const cpu = (m: Measured) =>
    m.cpuPerRequest ? `${m.cpuPerRequest.engine.toFixed(0)} / ${m.cpuPerRequest.floor.toFixed(0)}` : '';
  const rows = big.results.map((m) => {
    const p99More = more ? ` ${more.results.find((x) => x.name === m.name)?.p99 ?? ''} |` : '';
    return `| ${m.name} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} |${p99More} ${percent(m.ratio)} | ${percent(m.documentRatio)} | ${cpu(m)} |`;
  });
  const met = budgets.filter((b) => b.met).length;
  return [
    `Run of ${at} UTC on SQLite ${big.handlers.toLocaleString('en-US')} handlers x ${big.seasons} seasons, one worker` +
      ` (${machine.nproc} cores, ${machine.cpu}, Node ${machine.node}),`,
    `${duration} s a request after ${warmup} s not counted, ${connections} connections, peak RSS ${big.peakRssMb.toFixed(0)} MB;`,
    `the ratios from ${turnCount} turns of 1 s of the engine and each floor.`,
    '',
    `| request | req/s | p50 ms | p99 ms |${more ? ` p99 ms, ${more.workers} workers |` : ''} engine / floor` +
      ' | engine / floor writing the document | CPU us a request, engine / floor |',
    `|---|---:|---:|---:|${more ? '---:|' : ''}---:|---:|---:|`,
    ...rows,
    '',
    `JavaScript per route (gzip): ${js.map((r) => `${r.route} ${(r.gzipBytes / 1024).toFixed(0)} KB in ${r.files} files`).join(', ')}.` +
      ` Budget lines met: ${met} of ${budgets.length}.`,
  ].join('\n');
}

function table(r: TargetResult): string {
  const rows = r.results.map(
    (m) =>
      `| ${m.name} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.errors + m.non2xx} | ${m.turnsRps ? m.turnsRps.toFixed(0) : ''} | ${m.floorRps ? m.floorRps.toFixed(0) : ''} | ${percent(m.ratio)} | ${m.documentFloorRps ? m.documentFloorRps.toFixed(0) : ''} | ${percent(m.documentRatio)} |`,
  );
  return [
    `**${r.handlers} handlers x ${r.seasons} seasons, ${r.dialect}${r.dialect === 'postgres' ? ` (schema ${r.schema})` : ''}, WEB_CONCURRENCY=${r.workers}, DOCUMENT_CACHE_MB=${documentCacheMb}**: peak RSS ${r.peakRssMb.toFixed(0)} MB, ${r.signedIn} users signed in`,
    '',
    '| request | req/s | p50 ms | p99 ms | errors | req/s in turns with the floors | floor req/s | engine / floor | floor writing the document, req/s | engine / that |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  try {
    buildIfStale();
  } catch (error) {
    if (!existsSync(join(root, 'server/dist/main.js'))) throw error;
    console.error(
      `The build failed; benchmarking the existing server/dist (${error instanceof Error ? error.message.split('\n')[0] : error}).`,
    );
  }
  const targets: Target[] = [];
  const list = sizes();
  if (list.length === 0)
    throw new Error('No data set in bench/data: run npm run bench:data -- --handlers 10 --seasons 2 first.');
  const largest = list[list.length - 1];
  for (const s of list) {
    const file = join(root, 'bench/data', `bench-${s.handlers}-${s.seasons}.sqlite`);
    const size = `${s.handlers}-${s.seasons}`;
    if (existsSync(file)) targets.push({ size, ...s, dialect: 'sqlite', url: `sqlite:${file}`, workers: 1 });
    if (s === largest)
      for (const w of workerCounts.filter((w) => w > 1))
        targets.push({ size, ...s, dialect: 'sqlite', url: `sqlite:${file}`, workers: w });
    if (pgUrl) {
      const schema = `bench_${s.handlers}_${s.seasons}`;
      const client = new pg.Client({ connectionString: pgUrl });
      const has = await client
        .connect()
        .then(() => client.query('select 1 from information_schema.schemata where schema_name = $1', [schema]))
        .then(
          (r) => (r.rowCount ?? 0) > 0,
          () => false,
        );
      await client.end().catch(() => undefined);
      if (has) targets.push({ size, ...s, dialect: 'postgres', url: pgUrl, schema, workers: 1 });
      else
        console.error(
          `PostgreSQL: no schema ${schema} (make it with npm run bench:data -- --handlers ${s.handlers} --seasons ${s.seasons} --database ${pgUrl})`,
        );
    }
  }
  const results: TargetResult[] = [];
  for (const t of targets) {
    console.error(`\n${t.handlers} handlers x ${t.seasons} seasons on ${t.dialect}, ${t.workers} worker(s):`);
    results.push(await runTarget(t));
  }

  // Budgets
  const bySize = (r: TargetResult) => r.handlers * r.seasons;
  const sqlite1 = results
    .filter((r) => r.dialect === 'sqlite' && r.workers === 1)
    .sort((a, b) => bySize(a) - bySize(b));
  const big = sqlite1[sqlite1.length - 1];
  // Growth is by the number of handlers at the same number of seasons: a handler's own reads grow with its seasons
  // by design (its invoices page lists every invoice), which is not a scan.
  const small = sqlite1.find((r) => r.seasons === big?.seasons) ?? sqlite1[0];
  const budgets: Budget[] = [];
  if (big) {
    for (const m of big.results.filter((x) => x.kind === 'read')) {
      const sameDocument = m.documentRatio
        ? `(against the floor writing the same document: ${Math.round(m.documentRatio * 100)} %)`
        : undefined;
      if (m.ratio !== undefined)
        budgets.push(
          budget(
            `${m.name}: throughput / floor at ${big.size}`,
            Math.round(m.ratio * 100),
            70,
            '%',
            false,
            sameDocument,
          ),
        );
      budgets.push(budget(`${m.name}: p99 at ${big.size}`, m.p99, 25, 'ms', true));
      // The same size served as a machine of this many cores would be run (WEB_CONCURRENCY = cores), when measured.
      const perCore = results
        .find((r) => r.dialect === 'sqlite' && r.size === big.size && r.workers === cpus().length && r.workers > 1)
        ?.results.find((x) => x.name === m.name);
      if (perCore)
        budgets.push(budget(`${m.name}: p99 at ${big.size}, ${cpus().length} workers`, perCore.p99, 25, 'ms', true));
      const before = small && small !== big ? small.results.find((x) => x.name === m.name) : undefined;
      if (before)
        budgets.push(
          budget(
            `${m.name}: p50 growth ${small.size} -> ${big.size}`,
            Math.max(m.p50, 1) / Math.max(before.p50, 1),
            2,
            'x',
            true,
            `(p50 ${before.p50} -> ${m.p50} ms; autocannon has 1 ms resolution)`,
          ),
        );
    }
  }
  for (const r of results.filter((x) => x.workers === 1)) {
    const line = fairUseBudget(r);
    if (line) budgets.push(line);
  }
  const dist = join(root, 'web/dist');
  const js = existsSync(dist) ? routeSizes(dist) : [];
  const limits: Record<string, number> = { '/signin': 200, '/dashboard': 350 };
  for (const r of js)
    budgets.push(
      budget(
        `JS for ${r.route} (gzip)`,
        Math.round(r.gzipBytes / 1024),
        limits[r.route],
        'KB',
        true,
        `(${r.files} files)`,
      ),
    );

  const machine = {
    nproc: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    cpu: cpus()[0]?.model,
    load: readFileSync('/proc/loadavg', 'utf8').trim(),
  };
  const stamp = new Date().toISOString().replace(/:/g, '-').slice(0, 16);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const out = join(root, 'bench/results', `${stamp}.json`);
  const run = {
    date: new Date().toISOString(),
    machine,
    duration,
    warmup,
    connections,
    documentCacheMb: Number(documentCacheMb),
  };
  writeFileSync(out, JSON.stringify({ ...run, results, js, budgets }, null, 2));
  if (args.baseline) {
    for (const size of new Set(results.map((r) => r.size))) {
      const namesSize = new RegExp(`(?<![0-9])${size}(?![0-9])`);
      const kept = budgets.filter((b) => namesSize.test(b.name) || b.name.startsWith('JS for'));
      const file = join(root, 'bench/results', `baseline-${size}.json`);
      const ofSize = results.filter((r) => r.size === size);
      writeFileSync(
        file,
        JSON.stringify({ baseline: { size, run: stamp }, ...run, results: ofSize, js, budgets: kept }, null, 2),
      );
      console.log(`Baseline for ${size}: ${file}`);
    }
  }
  writeServedCounts();

  const md = [
    `Run ${new Date().toISOString().slice(0, 16)} UTC: ${machine.nproc} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}, load average at the end ${machine.load}; ${duration} s per request after ${warmup} s of the same load not counted, ${connections} connections (sign-in 4, writes 4, certification 2); the ratios to the floors from ${turnCount} turns of 1 s of the engine, the floor and the floor writing the document, in turn.`,
    '',
    ...results.flatMap((r) => [table(r), '']),
    '**JS per route** (web/dist, gzip -9 per file): ' +
      js.map((r) => `${r.route} ${(r.gzipBytes / 1024).toFixed(0)} KB (${r.files} files)`).join(', '),
    '',
    '**Budgets**',
    '',
    '```',
    ...budgets.map(budgetLine),
    '```',
  ].join('\n');
  console.log(`\n${md}\n\nResults: ${out}`);
  if (args['write-docs']) {
    const doc = join(root, 'docs/PERFORMANCE.md');
    const more = results.find((r) => r.dialect === 'sqlite' && r.size === big?.size && r.workers > 1);
    if (!big)
      console.error(
        '--write-docs: no SQLite data set was measured with one worker; docs/PERFORMANCE.md left as it is.',
      );
    else {
      writeBetweenMarks(doc, 'bench:results', latestFigures(big, more, js, budgets, machine));
      console.log(`Latest figures written to ${doc}.`);
    }
  }
}

if (!ranWithLoadGeneratorEnv())
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
