/**
 * `npm run bench:ablation -- [--handlers 100] [--seasons 2] [--database postgres://... --schema NAME] [--only NAME,...]
 * [--turns 6] [--seconds 1.5] [--warmup 1] [--connections 8] [--port 5300] [--web] [--write-docs]`
 *
 * What each performance mechanism buys (decision 0007, "The seam"): for each server mechanism, two servers side by
 * side on copies of the same data set, one with every mechanism on, one with that mechanism off
 * (PORTAL_MECHANISMS_OFF), take turns of load (bench/turns.ts), so that both are measured in the same minutes of a
 * shared machine. Two loads: the web app's reads (the sign-in batch, the dashboard's packages, the invoices page, the
 * form page's next package, the directories), and the same with one request in four a draft's edit (PATCH of a form
 * 1, 2 or 3 of the open month, as the form page sends it). Per mechanism and load: throughput, p99 and CPU time a
 * request with and without it, and the gain; a mechanism clears the bar when one of them gains 10 % or more, and more
 * than it moved between two servers both all on (the A/A row, measured first: the run's noise).
 * `--web`: the web build's mechanisms (PORTAL_WEB_MECHANISMS_OFF, web/scripts/build-mechanisms.ts), each off in a
 * build of its own: JavaScript per route (bench/bundle-size.ts) and the sign-in's API requests. `--only web` (no
 * server mechanism named) measures those alone.
 * Writes bench/results/ablation-<date>-<database>.md; `--write-docs` also docs/PERFORMANCE-LOAD.md between its
 * ablation:results marks.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { MECHANISM_NAMES, type ServerMechanism } from '../server/src/performance/mechanisms.js';
import { contactsParams, handlerDirectoryParams } from '../web/src/lib/portal/directory-params.js';
import { buildUrl } from '../web/src/lib/jsonapi/client.js';
import { batchBlueprint } from '../web/src/lib/jsonapi/subrequests.js';
import { invoicesParams } from '../web/src/lib/portal/invoice-params.js';
import { nextPackageParams, seasonPackagesParams } from '../web/src/lib/portal/package-params.js';
import { startupReads } from '../web/src/lib/portal/startup-read-list.js';
import { WEB_MECHANISMS, type WebMechanism } from '../web/scripts/build-mechanisms.js';
import { routeSizes } from './bundle-size.js';
import { copyPgSchema, dropPgSchema, fixture, type DataSet, type Fixture } from './data-set.js';
import { parseArgs, writeBetweenMarks } from './lib.js';
import { root, signIn, startServer, stopServer } from './server-process.js';
import { inTurns, ranWithLoadGeneratorEnv, sendLoad, type Req, type TurnsResult } from './turns.js';

const args = parseArgs(process.argv.slice(2));
const handlers = Number(args.handlers ?? 100);
const seasons = Number(args.seasons ?? 2);
const turns = Number(args.turns ?? 6);
const seconds = Number(args.seconds ?? 1.5);
const warmup = Number(args.warmup ?? 1);
const connections = Number(args.connections ?? 8);
const basePort = Number(args.port ?? 5300);
/** Signed-in users the load spreads over (each an Argon2id sign-in on each server). */
const USERS = 40;
/**
 * The mechanisms that exist on each database and act on these loads. `pdf-threads` and `reads-beside-writes` act
 * while a certification renders its PDFs, which these loads never do: the deadline measures them
 * (docs/PERFORMANCE-LOAD.md).
 */
const APPLIES: Record<DataSet['dialect'], ServerMechanism[]> = {
  sqlite: ['document-cache', 'shape-cache', 'row-builders'],
  postgres: ['pg-named'],
};
/** A figure must gain this much for its mechanism to stay (issue 36). */
const BAR = 0.1;

type Token = { token: string; name: string; handlerId: string };
type LoadName = 'read-only' | 'write-mix';

/** Both servers with every mechanism on: the run's own noise, beside which a gain means something. */
const CONTROL = 'none (A/A)';
type Measured = ServerMechanism | typeof CONTROL;

interface Row {
  mechanism: Measured;
  load: LoadName;
  with: TurnsResult;
  without: TurnsResult;
}

function dataSet(): DataSet {
  if (typeof args.database === 'string')
    return { dialect: 'postgres', url: args.database, schema: String(args.schema ?? `bench_${handlers}_${seasons}`) };
  return { dialect: 'sqlite', url: `sqlite:${join(root, 'bench/data', `bench-${handlers}-${seasons}.sqlite`)}` };
}

/** A copy of the data set for one server: the edits must not change the generated one, nor the other server's. */
async function copyOf(source: DataSet, label: string): Promise<DataSet & { remove(): Promise<void> }> {
  if (source.dialect === 'postgres') {
    const schema = await copyPgSchema(source.url, source.schema!, `${source.schema}_${label}_${process.pid}`);
    return { ...source, schema, remove: () => dropPgSchema(source.url, schema) };
  }
  const file = join(root, 'bench/data', `ablation-${label}-${process.pid}.sqlite`);
  copyFileSync(source.url.slice('sqlite:'.length), file);
  const remove = async () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  };
  return { ...source, url: `sqlite:${file}`, remove };
}

/** The built server on `port`, with the mechanisms named in `off` turned off. */
function startWithOff(data: DataSet, port: number, off: string): Promise<ChildProcess> {
  return startServer({ ...data, workers: 1 }, port, { env: { PORTAL_MECHANISMS_OFF: off } });
}

async function signInAll(port: number, users: Fixture['users']): Promise<Token[]> {
  const tokens = await signIn(
    port,
    users.map((u) => u.name),
  );
  return users.map((u) => ({ token: tokens.get(u.name)!, name: u.name, handlerId: u.handlerId }));
}

/** What Chromium sends (the server picks br): the web app's answers come compressed. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/**
 * The web app's requests, for one server's tokens: request i of the read-only load is the i-th of the reads in turn,
 * each by the next user; the write-mix puts a draft's edit (its owner's) in place of every fourth.
 */
function requests(fx: Fixture, tokens: Token[], load: LoadName): (i: number) => Req {
  const headers = (t: Token) => ({
    authorization: `Bearer ${t.token}`,
    accept: 'application/vnd.api+json',
    'accept-encoding': BROWSER_ACCEPT_ENCODING,
  });
  const get = (path: string, t: Token): Req => ({ path, headers: headers(t) });
  const reads: Array<(t: Token) => Req> = [
    (t) => ({
      method: 'POST',
      path: '/subrequests?_format=json',
      headers: { ...headers(t), 'content-type': 'application/json' },
      body: JSON.stringify(batchBlueprint(startupReads(t.name))),
    }),
    (t) => get(buildUrl('/jsonapi/node/reporting_forms_package', seasonPackagesParams(t.handlerId, fx.seasonId)), t),
    (t) => get(buildUrl('/jsonapi/node/invoice', invoicesParams(t.handlerId)), t),
    (t) => get(buildUrl('/jsonapi/node/reporting_forms_package', nextPackageParams(t.handlerId, fx.newestDueDate)), t),
    (t) => get(buildUrl('/jsonapi/node/handler', handlerDirectoryParams()), t),
    (t) => get(buildUrl('/jsonapi/user/user', contactsParams(t.handlerId)), t),
  ];
  const owner = new Map(tokens.map((t) => [t.handlerId, t]));
  const drafts = fx.drafts.filter((d) => owner.has(d.handlerId));
  const edit = (i: number): Req => {
    const d = drafts[i % drafts.length];
    const attributes =
      d.bundle === 'apc_form_1'
        ? { field_receipts_native: 1000 + (i % 5000), field_shipments_inshell: 2000 }
        : { field_no_change_flag: i % 2 === 0 };
    return {
      method: 'PATCH',
      path: `/jsonapi/node/${d.bundle}/${d.id}`,
      headers: { ...headers(owner.get(d.handlerId)!), 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: `node--${d.bundle}`, id: d.id, attributes } }),
    };
  };
  return (i) => {
    if (load === 'write-mix' && i % 4 === 3) return edit(i >> 2);
    return reads[i % reads.length](tokens[Math.floor(i / reads.length) % tokens.length]);
  };
}

/** Sends each request of a load once and stops at the first that fails: a wrong load measures errors. */
async function check(port: number, make: (i: number) => Req, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const r = make(i);
    const res = await fetch(`http://127.0.0.1:${port}${r.path}`, {
      method: r.method ?? 'GET',
      headers: r.headers,
      body: r.body,
    });
    if (!res.ok) throw new Error(`${r.method ?? 'GET'} ${r.path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }
}

async function measureMechanism(source: DataSet, mechanism: Measured, index: number): Promise<Row[]> {
  const copies = [await copyOf(source, 'with'), await copyOf(source, 'without')];
  const servers: ChildProcess[] = [];
  try {
    const ports = [basePort + 2 * index, basePort + 2 * index + 1];
    servers.push(await startWithOff(copies[0], ports[0], ''));
    servers.push(await startWithOff(copies[1], ports[1], mechanism === CONTROL ? '' : mechanism));
    const fx = await fixture(copies[0]);
    const users = fx.users.filter((u) => u.handlerId).slice(0, USERS);
    const tokens = [await signInAll(ports[0], users), await signInAll(ports[1], users)];
    const rows: Row[] = [];
    for (const load of ['read-only', 'write-mix'] as const) {
      const makes = tokens.map((t) => requests(fx, t, load));
      for (const [k, make] of makes.entries()) await check(ports[k], make, 12);
      const [on, off] = await inTurns(
        servers.map((s, k) => ({ port: ports[k], pid: s.pid!, make: makes[k] })),
        {
          turns,
          seconds,
          warmup,
          alternateOrder: true,
          load: (port, make, secs) => sendLoad(port, make, { connections, seconds: secs }),
        },
      );
      rows.push({ mechanism, load, with: on, without: off });
      console.error(`  ${mechanism} ${load}: ${line(rows[rows.length - 1])}`);
    }
    return rows;
  } finally {
    for (const s of servers) await stopServer(s);
    for (const c of copies) await c.remove();
  }
}

// ---------------------------------------------------------------- figures

/** Each figure's gain with the mechanism: more requests a second, less p99, less CPU a request. */
function gains(r: Row) {
  return {
    throughput: r.with.rps / r.without.rps - 1,
    p99: r.without.p99 / r.with.p99 - 1,
    cpu: r.without.cpuPerRequest / r.with.cpuPerRequest - 1,
  };
}
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(0)} %`;
const FIGURE_NAMES = { throughput: 'req/s', p99: 'p99', cpu: 'CPU' } as const;

/**
 * The figures on which a mechanism buys 10 % or more, and more than the A/A row (both servers all on) of the same
 * load moved by itself: a gain the noise could make alone does not count.
 */
function verdict(r: Row, rows: Row[]): string {
  if (r.mechanism === CONTROL) return 'noise';
  const control = rows.find((c) => c.mechanism === CONTROL && c.load === r.load);
  const noise = control ? gains(control) : { throughput: 0, p99: 0, cpu: 0 };
  const g = gains(r);
  const figures = (Object.keys(g) as Array<keyof typeof g>).filter((f) => g[f] >= BAR && g[f] > Math.abs(noise[f]));
  return figures.length > 0 ? `clears 10 % (${figures.map((f) => FIGURE_NAMES[f]).join(', ')})` : 'under 10 %';
}

function line(r: Row): string {
  const g = gains(r);
  return (
    `${r.with.rps.toFixed(0)} vs ${r.without.rps.toFixed(0)} req/s (${pct(g.throughput)}), p99 ${r.with.p99} vs ` +
    `${r.without.p99} ms (${pct(g.p99)}), CPU ${r.with.cpuPerRequest.toFixed(0)} vs ` +
    `${r.without.cpuPerRequest.toFixed(0)} us (${pct(g.cpu)}), errors ${r.with.errors}/${r.without.errors}`
  );
}

function table(rows: Row[], note: string): string {
  const out = [
    note,
    '',
    '| mechanism | load | figure | with | without | gain | verdict |',
    '| --- | --- | --- | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    const g = gains(r);
    const outcome = verdict(r, rows);
    const figures: Array<[string, string, string, number]> = [
      ['req/s', r.with.rps.toFixed(0), r.without.rps.toFixed(0), g.throughput],
      ['p99 ms', String(r.with.p99), String(r.without.p99), g.p99],
      ['CPU us/req', r.with.cpuPerRequest.toFixed(0), r.without.cpuPerRequest.toFixed(0), g.cpu],
    ];
    figures.forEach(([figure, on, off, gain], k) =>
      out.push(
        `| ${k === 0 ? r.mechanism : ''} | ${k === 0 ? r.load : ''} | ${figure} | ${on} | ${off} | ${pct(gain)} | ` +
          `${k === 0 ? outcome : ''} |`,
      ),
    );
  }
  return out.join('\n');
}

// ---------------------------------------------------------------- the web build's mechanisms

/**
 * The web app built with each of its mechanisms off in turn (PORTAL_WEB_MECHANISMS_OFF), into
 * bench/data/web-<name>/dist:
 * gzipped JavaScript a route loads, the dashboard's stylesheet, and the API requests from sign-in to a full
 * dashboard (the token, then the start-up reads: one batch, or one request each without it).
 */
function webTable(): string {
  const startupRequests = startupReads('x').length;
  const variants: Array<WebMechanism | 'none'> = ['none', ...(Object.keys(WEB_MECHANISMS) as WebMechanism[])];
  const built = variants.map((name) => {
    const outDir = join(root, 'bench/data', `web-${name}`, 'dist');
    console.error(`web build with ${name === 'none' ? 'every mechanism' : `${name} off`} into ${outDir}`);
    const build = spawnSync('npm', ['run', 'build', '-w', 'web'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, PORTAL_WEB_MECHANISMS_OFF: name === 'none' ? '' : name, PORTAL_WEB_OUT_DIR: outDir },
    });
    if (build.status !== 0) throw new Error(`the web build with ${name} off failed`);
    const sizes = Object.fromEntries(routeSizes(outDir).map((r) => [r.route, r]));
    const stylesheet = readdirSync(join(outDir, 'assets')).find((f) => /^dashboard-antd-.*\.css\.gz$/.test(f));
    return {
      name,
      signin: sizes['/signin'],
      dashboard: sizes['/dashboard'],
      stylesheetKb: stylesheet ? statSync(join(outDir, 'assets', stylesheet)).size / 1024 : 0,
      requests: 1 + (name === 'signin-batch' ? startupRequests : 1),
    };
  });
  const all = built[0];
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const out = [
    `The web build with each mechanism off, ${new Date().toISOString().slice(0, 10)}: gzipped JavaScript a route ` +
      'loads (bench/bundle-size.ts), and the API requests from sign-in to a full dashboard (the token request, then ' +
      'the start-up reads: one batch, or one request each).',
    '',
    '| web mechanism off | /signin JS gzip KB (files) | /dashboard JS gzip KB (files) | dashboard stylesheet gzip KB |' +
      ' API requests, sign-in to dashboard |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const b of built) {
    const delta = (x: number, y: number) => (b === all ? '' : ` (${x >= y ? '+' : ''}${kb(x - y)})`);
    out.push(
      `| ${b.name === 'none' ? 'none (the default build)' : b.name} | ` +
        `${kb(b.signin.gzipBytes)}${delta(b.signin.gzipBytes, all.signin.gzipBytes)} (${b.signin.files}) | ` +
        `${kb(b.dashboard.gzipBytes)}${delta(b.dashboard.gzipBytes, all.dashboard.gzipBytes)} (${b.dashboard.files}) | ` +
        `${b.stylesheetKb.toFixed(1)} | ${b.requests} |`,
    );
  }
  return out.join('\n');
}

/**
 * The latest results of each part (SQLite, PostgreSQL, the web build), each written by a run of its own, into
 * docs/PERFORMANCE-LOAD.md between its ablation:results marks.
 */
function writeDocs(): void {
  const results = join(root, 'bench/results');
  const latest = (part: string) =>
    readdirSync(results)
      .filter((f) => f.startsWith('ablation-') && f.endsWith(`-${part}.md`))
      .sort()
      .pop();
  const parts = ['sqlite', 'postgres', 'web'].flatMap((part) => {
    const file = latest(part);
    return file ? [readFileSync(join(results, file), 'utf8').trim()] : [];
  });
  writeBetweenMarks(join(root, 'docs/PERFORMANCE-LOAD.md'), 'ablation:results', parts.join('\n\n'));
}

async function main(): Promise<void> {
  buildIfStale();
  const source = dataSet();
  const only = typeof args.only === 'string' ? args.only.split(',') : null;
  const unknown = (only ?? []).filter((name) => name !== 'web' && !(MECHANISM_NAMES as string[]).includes(name));
  if (unknown.length > 0) throw new Error(`--only: unknown mechanism ${unknown.join(', ')}`);
  const measured = APPLIES[source.dialect].filter((m) => !only || only.includes(m));
  const mechanisms: Measured[] = measured.length > 0 ? [CONTROL, ...measured] : [];
  const loadBefore = loadavg();
  const rows: Row[] = [];
  for (const [k, mechanism] of mechanisms.entries()) {
    console.error(
      `${mechanism === CONTROL ? 'all on' : `${mechanism} off`} against all on (${source.dialect}, ${handlers} x ${seasons}):`,
    );
    rows.push(...(await measureMechanism(source, mechanism, k)));
  }
  const loadAfter = loadavg();
  const date = new Date().toISOString().slice(0, 10);
  const note =
    `${handlers} handlers x ${seasons} seasons on ${source.dialect}, ${date}: ${turns} turns of ${seconds} s each ` +
    `server in turn, ${connections} connections, ${USERS} users; load average ${loadBefore[0].toFixed(1)} before, ` +
    `${loadAfter[0].toFixed(1)} after (${availableParallelism()} cores).`;
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const written: Array<[string, string]> = [];
  if (mechanisms.length > 0) {
    written.push([source.dialect, table(rows, note)]);
    // The figures themselves, to read again (each server's turns, p50, errors).
    writeFileSync(
      join(root, 'bench/results', `ablation-${date}-${source.dialect}.json`),
      JSON.stringify(rows, null, 2),
    );
  }
  if (args.web) written.push(['web', webTable()]);
  for (const [part, markdown] of written) {
    console.log(`${markdown}\n`);
    const file = join(root, 'bench/results', `ablation-${date}-${part}.md`);
    writeFileSync(file, `${markdown}\n`);
    console.error(`Written to ${file}`);
  }
  if (args['write-docs']) writeDocs();
}

if (!ranWithLoadGeneratorEnv()) await main();
