/**
 * `npm run bench:lighthouse -- [--data bench/data/bench-10-10.sqlite] [--user bench-1001] [--runs 3] [--port 7180]
 * [--signin-only]`
 *
 * `--signin-only` runs part 1 alone (no Lighthouse).
 *
 * The browser side of the budgets, against the built server (build it first, with the build lock held, and run
 * this under `flock -s /tmp/build.lock` so nobody rebuilds under it) on a copy of a
 * benchmark data set (default: the 10-season one, so the dashboard has 10 seasons of data behind it):
 *
 * 1. Sign-in to a full dashboard, in Debian's Chromium driven by Playwright: from the click on "Sign in" to the
 *    first frame of the dashboard showing its data (the season's table has its rows, no card is still loading),
 *    timed in the page; the number of API requests (`/oauth`, `/jsonapi`, `/api`, `/files`) and the time. Best and
 *    median of `--runs` (the driver's own time, with Playwright's round trips, is printed too).
 * 2. Lighthouse's performance score (mobile preset: its default config, simulated slow 4G and a mid-range phone)
 *    for /signin and, signed in, /dashboard, in the same Chromium (CHROME_PATH, default /usr/bin/chromium,
 *    headless, no sandbox). The dashboard run is a Lighthouse user flow on the page that signed in, with storage
 *    kept, so it measures a signed-in first load of /dashboard. Median of `--runs`.
 *
 * LIGHTHOUSE_REPORTS=<dir> keeps every Lighthouse report (JSON) in that folder, for its audits (LCP element and phases,
 * long tasks, bootup-time...).
 *
 * Prints each figure against its budget (met / NOT MET). Wall times depend on the machine's load: on a shared
 * machine run it more than once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium as playwrightChromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { startFlow } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { BENCH_PASSWORD, budget, budgetLine, parseArgs, type Budget } from './lib.js';

const root = resolve(import.meta.dirname, '..');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
// `/subrequests` (the batch of reads) has no sub-path of its own.
const API = /^\/(oauth|jsonapi|api|files|subrequests)(\/|$)/;

/** LIGHTHOUSE_REPORTS=<dir> keeps each Lighthouse report (JSON) there, for its audits (LCP, TBT, bootup-time...). */
const REPORTS_DIR = process.env.LIGHTHOUSE_REPORTS;

function saveReport(name: string, lhr: unknown): void {
  if (!REPORTS_DIR) return;
  mkdirSync(REPORTS_DIR, { recursive: true });
  writeFileSync(
    join(REPORTS_DIR, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify(lhr, null, 1),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function startServer(database: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${database}`,
      PORTAL_DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  child.kill('SIGTERM');
  throw new Error(`server did not answer /healthz: ${stderr}`);
}

/**
 * Sign in through the page; resolves when the dashboard shows its data. Returns the requests and two times: the
 * page's own (from the click event to the first frame showing the data, read with performance.now() in the page:
 * what the user waits for) and the driver's (from before Playwright's click to its last check: the same plus
 * Playwright's own round trips, about 100 ms here).
 */
async function signInToDashboard(
  base: string,
  user: string,
): Promise<{ requests: string[]; ms: number; driverMs: number }> {
  const browser = await playwrightChromium.launch({ executablePath: CHROME, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${base}/signin`);
    await page.locator('input[name="username"]').fill(user);
    await page.locator('input[name="password"]').fill(BENCH_PASSWORD);
    // Everything the sign-in page needs is loaded before the click: the clock measures the sign-in, not /signin.
    await page.waitForLoadState('networkidle');
    const requests: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (API.test(url.pathname)) requests.push(`${req.method()} ${url.pathname}`);
    });
    // In the page: the click's time, then every frame until the season's table has rows and no card or table is
    // still loading. The SPA keeps this document, so the marks survive the move to /dashboard.
    // (A string: tsx would wrap named functions in a helper the page does not have.)
    await page.evaluate(`(() => {
      const marks = {};
      window.__signInMarks = marks;
      document.addEventListener('click', () => { marks.click ??= performance.now(); }, true);
      const frame = () => {
        const done = marks.click !== undefined && document.querySelector('main table tbody tr') && !document.querySelector('main .ant-skeleton, main .ant-spin-spinning');
        if (done) marks.shown = performance.now();
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    })()`);
    const started = performance.now();
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/\/dashboard/);
    await page.waitForFunction(
      () => (window as unknown as { __signInMarks: { shown?: number } }).__signInMarks.shown !== undefined,
    );
    const driverMs = performance.now() - started;
    const marks = (await page.evaluate('window.__signInMarks')) as { click: number; shown: number };
    return { requests, ms: marks.shown - marks.click, driverMs };
  } finally {
    await browser.close();
  }
}

/** Lighthouse's performance score, or null when the run itself failed (its trace unusable, e.g. NO_NAVSTART). */
function scoreOf(
  lhr: { runtimeError?: { code: string }; categories: { performance: { score: number | null } } } | undefined,
): number | null {
  if (!lhr || lhr.runtimeError || lhr.categories.performance.score === null) {
    console.log(`  a Lighthouse run failed (${lhr?.runtimeError?.code ?? 'no result'}); run again`);
    return null;
  }
  return Math.round(lhr.categories.performance.score * 100);
}

/** A page's score: a failed Lighthouse run is not a score of 0; it is run again (at most twice more). */
async function scoreWithRetry(run: () => Promise<number | null>): Promise<number | null> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const score = await run();
    if (score !== null) return score;
  }
  return null;
}

type Flags = { port: number; output: 'json'; logLevel: 'error'; onlyCategories: string[] };

/** Lighthouse (mobile preset: the default config) on /signin. */
async function lighthouseSignin(base: string): Promise<number | null> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
  try {
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
    const result = await lighthouse(`${base}/signin`, flags);
    if (result) saveReport('signin', result.lhr);
    return scoreOf(result?.lhr);
  } finally {
    chrome.kill();
  }
}

/** Lighthouse on /dashboard, signed in: a user flow on the page that signed in, storage kept. */
async function lighthouseDashboard(base: string, user: string): Promise<number | null> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/signin`, { waitUntil: 'networkidle0' });
    // The form renders after the app's code has run, which on a busy machine can be after the network went idle.
    await page.waitForSelector('input[name="username"]', { timeout: 60_000 });
    await page.type('input[name="username"]', user);
    await page.type('input[name="password"]', BENCH_PASSWORD);
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'networkidle0' }).catch(() => undefined),
      page.click('form button[type="submit"]'),
    ]);
    await page.waitForSelector('main table tbody tr', { timeout: 60_000 });
    const flow = await startFlow(page, {
      flags: { disableStorageReset: true, onlyCategories: ['performance'], logLevel: 'error' },
    });
    await flow.navigate(`${base}/dashboard`);
    const { steps } = await flow.createFlowResult();
    saveReport('dashboard', steps[0].lhr);
    return scoreOf(steps[0].lhr);
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const data = resolve(String(a.data ?? 'bench/data/bench-10-10.sqlite'));
  const user = String(a.user ?? 'bench-1001');
  const runs = Number(a.runs ?? 3);
  const port = Number(a.port ?? process.env.BENCH_LIGHTHOUSE_PORT ?? 7180);
  if (!existsSync(data))
    throw new Error(`${data} does not exist: make it with npm run bench:data -- --handlers 10 --seasons 10`);
  if (!existsSync(join(root, 'server/dist/main.js')) || !existsSync(join(root, 'web/dist/index.html')))
    throw new Error('build first: flock /tmp/build.lock node scripts/build-if-stale.mjs');
  // A copy: signing in writes (tokens, audit), and the data set must stay as generated.
  const dir = mkdtempSync(join(tmpdir(), 'portal-lighthouse-'));
  const copy = join(dir, 'bench.sqlite');
  copyFileSync(data, copy);
  const server = await startServer(copy, port);
  const base = `http://127.0.0.1:${port}`;
  const budgets: Budget[] = [];
  try {
    const signIns: { requests: string[]; ms: number }[] = [];
    // One run first to warm the server's caches and the disk, not counted.
    await signInToDashboard(base, user);
    for (let i = 0; i < runs; i += 1) signIns.push(await signInToDashboard(base, user));
    const counts = signIns.map((s) => s.requests.length);
    const times = signIns.map((s) => s.ms);
    console.log(
      `Sign-in to dashboard (${user}, ${data.split('/').pop()}): ${signIns.map((s) => `${s.requests.length} requests, ${s.ms.toFixed(0)} ms`).join('; ')}`,
    );
    console.log(
      `  as the driver counts it (with Playwright's round trips): ${signIns.map((s) => `${s.driverMs.toFixed(0)} ms`).join('; ')}`,
    );
    console.log(`  requests: ${signIns[0].requests.join(', ')}`);
    budgets.push(budget('sign-in to full dashboard: API requests', Math.max(...counts), 5, 'requests', true));
    budgets.push(
      budget(
        'sign-in to full dashboard: time (median)',
        Math.round(median(times)),
        300,
        'ms',
        true,
        `(best ${Math.min(...times).toFixed(0)} ms)`,
      ),
    );

    const signinScores: number[] = [];
    const dashboardScores: number[] = [];
    for (let i = 0; i < (a['signin-only'] ? 0 : runs); i += 1) {
      const signin = await scoreWithRetry(() => lighthouseSignin(base));
      const dashboard = await scoreWithRetry(() => lighthouseDashboard(base, user));
      if (signin !== null) signinScores.push(signin);
      if (dashboard !== null) dashboardScores.push(dashboard);
    }
    if (!a['signin-only']) {
      console.log(
        `Lighthouse performance (mobile): /signin ${signinScores.join(', ')}; /dashboard ${dashboardScores.join(', ')}`,
      );
      budgets.push(
        budget('Lighthouse performance, mobile: /signin (median)', median(signinScores), 95, 'points', false),
      );
      budgets.push(
        budget('Lighthouse performance, mobile: /dashboard (median)', median(dashboardScores), 90, 'points', false),
      );
    }
  } finally {
    server.kill('SIGTERM');
    await sleep(500);
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('\nBudgets\n');
  for (const b of budgets) console.log(budgetLine(b));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
