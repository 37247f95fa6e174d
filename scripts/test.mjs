// npm test: the type check, the lint (ESLint: the import boundaries and cycles, zero warnings; Prettier's layout),
// then every suite: contract and server (on SQLite and PostgreSQL), then the browser suite.
// It checks first what a fresh machine may lack, installs it when it can, or stops with one line saying what to run.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { buildIfStale } from './build-if-stale.mjs';

const root = new URL('..', import.meta.url).pathname;
const fail = (line) => {
  console.error(`\nnpm test stopped: ${line}\n`);
  process.exit(1);
};

/** Checks the server is reachable; returns its major version. */
async function checkPostgres() {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  process.env.TEST_DATABASE_URL = url;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return Math.floor(Number((await client.query('show server_version_num')).rows[0].server_version_num) / 10000);
  } catch (error) {
    fail(
      `PostgreSQL is not reachable at ${url} (${error.message}). Start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set TEST_DATABASE_URL.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** The major version of a client program on PATH, or 0. */
function majorOnPath(program) {
  const r = spawnSync(program, ['--version'], { encoding: 'utf8' });
  return Number(/\(PostgreSQL\)\s+(\d+)/.exec(r.stdout ?? '')?.[1] ?? 0);
}

/**
 * The backup test runs pg_dump and pg_restore of the server's major version or newer (found the way
 * server/src/reliability/pg-client.ts finds them: Debian's /usr/lib/postgresql/<major>/bin, else PATH).
 */
function checkPostgresClient(major) {
  const debian = '/usr/lib/postgresql';
  const versioned =
    existsSync(debian) &&
    readdirSync(debian).some(
      (v) => Number(v) >= major && ['pg_dump', 'pg_restore'].every((p) => existsSync(join(debian, v, 'bin', p))),
    );
  if (versioned || (majorOnPath('pg_dump') >= major && majorOnPath('pg_restore') >= major)) return;
  const install = `apt-get update && apt-get install -y postgresql-client-${major}`;
  if (process.getuid?.() === 0) {
    console.log(`Installing Debian's postgresql-client-${major} for the backup test (${install})...`);
    try {
      execSync(
        `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client-${major}`,
        { stdio: 'inherit' },
      );
    } catch {
      fail(`installing postgresql-client-${major} failed: run \`${install}\` and try again.`);
    }
    return;
  }
  fail(
    `the backup test needs pg_dump and pg_restore ${major} or newer: run \`sudo apt-get update && sudo apt-get install -y postgresql-client-${major}\`.`,
  );
}

function checkChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  if (process.getuid?.() === 0) {
    console.log("Installing Debian's Chromium for the browser suite (apt-get install chromium)...");
    try {
      execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
        stdio: 'inherit',
      });
    } catch {
      fail('installing Chromium failed: run `apt-get update && apt-get install -y chromium` and try again.');
    }
    return;
  }
  fail(
    "the browser suite needs Debian's Chromium at /usr/bin/chromium: run `sudo apt-get update && sudo apt-get install -y chromium`.",
  );
}

function run(title, command, args) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status === 0;
}

/** Passed and failed counts from a runner's JSON report; a missing report counts as one failure. */
function counts(file, read) {
  try {
    return read(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { passed: 0, failed: 1 };
  }
}

checkPostgresClient(await checkPostgres());
checkChromium();
buildIfStale();
// Not under test-results/: Playwright empties that folder when it starts.
const reports = join(root, 'test-reports');
mkdirSync(reports, { recursive: true });
const vitestReport = join(reports, 'vitest.json');
const playwrightReport = join(reports, 'playwright.json');
process.env.PLAYWRIGHT_JSON_OUTPUT_FILE = playwrightReport;
const results = [
  ['type check', run('type check', 'npm', ['run', 'typecheck'])],
  ['lint', run('lint (ESLint: import boundaries and cycles, zero warnings)', 'npm', ['run', 'lint'])],
  ['format', run('format (Prettier; npm run format rewrites the files it names)', 'npm', ['run', 'format:check'])],
  [
    'contract and server (SQLite and PostgreSQL)',
    run('contract and server tests', 'npx', [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestReport}`,
    ]),
  ],
  ['browser suite', run('browser suite (Playwright, Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'])],
];
const unit = counts(vitestReport, (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests }));
const browser = counts(playwrightReport, (r) => ({
  passed: r.stats.expected + r.stats.flaky,
  failed: r.stats.unexpected,
}));
const failed = results.filter(([, ok]) => !ok).map(([name]) => name);
console.log(failed.length === 0 ? '\nAll suites passed.' : `\nFailed suites: ${failed.join(', ')}`);
// A check that is not a suite (type check, lint, format) counts as one failure when it fails.
const checksFailed = results.slice(0, 3).filter(([, ok]) => !ok).length;
console.log(`${unit.passed + browser.passed} passed, ${unit.failed + browser.failed + checksFailed} failed`);
process.exit(failed.length === 0 ? 0 : 1);
