import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { createTestContext, describeEachDatabase, type TestContext } from '../test-support/databases.js';
import { freePort } from '../test-support/free-port.js';

const root = new URL('../../..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/.bin/tsx');

describeEachDatabase('operations', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  beforeAll(async () => {
    ctx = await createTestContext(target, { config: { webDist: '/nonexistent' } });
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  it('answers /healthz with the database it reached', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: target.dialect });
  });

  it('sends security headers and a strict Content-Security-Policy, and no X-Powered-By', async () => {
    // A page (here the not-found answer of a page address, the web app being unbuilt in tests) gets the pages' policy.
    const page = await app.inject({ method: 'GET', url: '/dashboard' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    for (const response of [page, await app.inject({ method: 'GET', url: '/healthz' })]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
    }
  });

  it('sends data answers the API set: nothing may load or frame them, and nothing keeps them', async () => {
    for (const url of ['/healthz', '/jsonapi/node/season', '/api/council/users', '/jsonapi/no/such/type']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy'], url).toBe("default-src 'none';frame-ancestors 'none'");
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(response.headers['x-xss-protection'], url).toBeUndefined();
    }
  });

  it('sends them with answers refused before any route ran, and with API errors', async () => {
    for (const url of [
      '/jsonapi/node/season/%00',
      '/jsonapi/node/season?filter%5Btitle%5D=%00',
      '/jsonapi/node/season',
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: { 'x-request-id': 'proxy-id-7' } });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(String(response.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-request-id'], url).toBe('proxy-id-7');
    }
  });
});

describe('configuration', () => {
  it('stops with one line naming a bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('defaults to the embedded database with demo data outside production only', () => {
    expect(loadConfig({}).databaseUrl).toMatch(/^sqlite:.*data\/portal\.sqlite$/);
    expect(loadConfig({}).demoData).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).demoData).toBe(false);
    expect(loadConfig({ PORTAL_DEMO_DATA: '0' }).demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@y/z' }).demoData).toBe(false);
  });
});

describe('the operators command line and a real server process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-ops-'));
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'p.sqlite')}`,
    PORTAL_DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    WEB_DIST: 'none',
  };
  const cli = (...args: string[]) =>
    spawnSync(tsx, [join(root, 'server/src/cli/portal.ts'), ...args], { env, encoding: 'utf8' });

  it('creates a handler and a user, lists them, and refuses bad input with a message', () => {
    expect(cli('create-handler', '--number', '201', '--name', 'Test Pecans').status).toBe(0);
    const created = cli(
      'create-user',
      '--username',
      'jo',
      '--password',
      'a-long-password',
      '--first-name',
      'Jo',
      '--handler',
      '201',
    );
    expect(created.status, created.stderr).toBe(0);
    const listed = cli('list-users');
    expect(listed.stdout).toContain('jo');
    expect(listed.stdout).toContain('201');
    const bad = cli(
      'create-user',
      '--username',
      'kim',
      '--password',
      'short',
      '--first-name',
      'Kim',
      '--handler',
      '201',
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/password/i);
    expect(cli('frobnicate').stderr).toContain('Unknown command');
  });

  it('refuses to start, in one line, on a web app build that is missing or cut short', () => {
    const dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
    const start = () =>
      spawnSync(tsx, [join(root, 'server/src/main.ts')], {
        env: { ...env, WEB_DIST: dist },
        encoding: 'utf8',
        timeout: 30_000,
      });
    const empty = start();
    expect(empty.status).toBe(1);
    expect(empty.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^The web app is not built \(.* lacks index\.html\): run npm run build/),
    ]);
    writeFileSync(
      join(dist, 'index.html'),
      '<html><head><script type="module" src="/assets/index-1.js"></script></head></html>',
    );
    const half = start();
    expect(half.status).toBe(1);
    expect(half.stderr).toContain('lacks assets/index-1.js');
  });

  it('finishes an in-flight request on SIGTERM, then exits', async () => {
    const port = await freePort();
    const server = spawn(tsx, [join(root, 'server/src/main.ts')], {
      env: { ...env, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (d) => {
      output += String(d);
    });
    await expect.poll(() => output, { timeout: 30_000 }).toContain('running at');
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    const inFlight = fetch(`http://127.0.0.1:${port}/healthz`);
    // SIGTERM once the server has the request in hand, not before it accepted the connection.
    await expect.poll(() => output, { timeout: 10_000 }).toContain('"url":"/healthz"');
    server.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await exited).toBe(0);
  }, 60_000);
});
