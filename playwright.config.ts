import { defineConfig, devices } from '@playwright/test';

/**
 * The browser suite: Debian's Chromium (never a downloaded browser) against the real server, built, on a fresh
 * embedded database with the demo data set. One worker: the machine has two cores and the server needs one.
 */
const PORT = Number(process.env.E2E_PORT ?? 3199);
/** The council console's suite writes a lot (periods, reports, payments): it gets a server and database of its own. */
const COUNCIL_PORT = PORT - 10;
const chromium = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.e2e.ts',
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: chromium,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'desktop',
      testIgnore: 'council/**',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 900 }, launchOptions: chromium },
    },
    { name: 'mobile', testIgnore: 'council/**', use: { ...devices['Pixel 7'], launchOptions: chromium } },
    {
      name: 'council',
      testMatch: 'council/**/*.e2e.ts',
      // Staff sign in with a one-time code: a code is good once, so a test may wait up to 30 s for the next one.
      timeout: 120_000,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1366, height: 900 },
        launchOptions: chromium,
        baseURL: `http://127.0.0.1:${COUNCIL_PORT}`,
      },
    },
  ],
  webServer: [PORT, COUNCIL_PORT].map((port) => ({
    command: 'exec node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { E2E_PORT: String(port) },
  })),
});
