import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestContext, type TestContext } from '../test-support/databases.js';

// A built web app in miniature: index.html, one asset with its .br and .gz (as web/vite.config.ts writes them), and
// route-preload.json. Serving files does not depend on the database, so SQLite only.
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-1.js"></script></head><body><div id="root"></div></body></html>';
const ASSET = `export const x = ${JSON.stringify('pecan '.repeat(400))};`;
// The compressed copies carry a mark, to tell the files the build wrote from a compression made per request.
const BUILT = `${ASSET}\n// compressed at build time`;
const META = '<meta name="dashboard-styles" content="/assets/dashboard-antd-1.css">';

describe('the web app: compressed files and per-route preloads', () => {
  let dist: string;
  let ctx: TestContext;
  let app: FastifyInstance;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'portal-web-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets/app-1.js'), ASSET);
    writeFileSync(join(dist, 'assets/app-1.js.br'), brotliCompressSync(BUILT));
    writeFileSync(join(dist, 'assets/app-1.js.gz'), gzipSync(BUILT));
    writeFileSync(
      join(dist, 'route-preload.json'),
      JSON.stringify({
        '/signin': ['/assets/signin-page-1.js', '/assets/auth-shell-1.js'],
        '/dashboard': ['/assets/dashboard-home-1.js'],
      }),
    );
    writeFileSync(
      join(dist, 'dashboard-styles.json'),
      JSON.stringify({ href: '/assets/dashboard-antd-1.css', paths: ['/dashboard'] }),
    );
    ctx = await createTestContext({ dialect: 'sqlite', url: 'sqlite::memory:' }, { config: { webDist: dist } });
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the brotli file written by the build to a client that accepts it, the gzip one to others, the plain one to the rest', async () => {
    const br = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BUILT);
    const gz = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BUILT);
    const plain = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ASSET);
  });

  it("puts a path's page chunks in its index.html as modulepreload links, and none elsewhere", async () => {
    const signin = await app.inject({ url: '/signin', headers: { 'accept-encoding': 'br' } });
    expect(signin.headers['content-encoding']).toBe('br');
    expect(signin.headers['cache-control']).toBe('no-cache');
    const html = brotliDecompressSync(signin.rawPayload).toString();
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/signin-page-1.js"><link rel="modulepreload" crossorigin href="/assets/auth-shell-1.js"></head>',
    );
    expect(html).not.toContain('dashboard-home');
    const dashboard = await app.inject({ url: '/dashboard/?x=1' });
    expect(dashboard.body).toContain('href="/assets/dashboard-home-1.js"');
    expect(dashboard.body).not.toContain('signin-page');
    const other = await app.inject({ url: '/dashboard/invoices', headers: { 'accept-encoding': 'gzip' } });
    expect(other.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(other.rawPayload).toString()).toBe(INDEX.replace('</head>', `${META}</head>`));
  });

  it("links the dashboard's antd stylesheet from /dashboard's index.html only, and names it in every page", async () => {
    const stylesheet = '<link rel="stylesheet" href="/assets/dashboard-antd-1.css">';
    const dashboard = (await app.inject({ url: '/dashboard' })).body;
    // Before the chunks' preloads: a stylesheet in the head is fetched first either way, and holds the first paint.
    expect(dashboard).toContain(`${META}${stylesheet}<link rel="modulepreload"`);
    for (const url of ['/signin', '/', '/dashboard/invoices', '/forgotpassword']) {
      const html = (await app.inject({ url })).body;
      expect(html, url).toContain(META);
      expect(html, url).not.toContain(stylesheet);
    }
  });

  it('answers HEAD on a page or a file as GET, headers only', async () => {
    // Over a real socket: Node's server is what leaves a HEAD answer's body out, and inject() does not.
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const send = (method: string, url: string) =>
      fetch(`${base}${url}`, { method, headers: { 'accept-encoding': 'br' } });
    for (const url of ['/signin', '/dashboard', '/forms/anything', '/assets/app-1.js']) {
      const get = await send('GET', url);
      await get.arrayBuffer(); // read whole, so the connection is idle again and app.close() need not wait for it
      const head = await send('HEAD', url);
      expect(head.status, url).toBe(200);
      expect(await head.arrayBuffer(), url).toHaveProperty('byteLength', 0);
      for (const name of ['content-type', 'content-encoding', 'content-length', 'cache-control'])
        expect(head.headers.get(name), `${url} ${name}`).toEqual(get.headers.get(name));
    }
    expect((await send('HEAD', '/assets/nope.js')).status).toBe(404);
  });

  it('still answers an unknown asset or API path with a 404, not index.html', async () => {
    expect((await app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/jsonapi/nothing' })).statusCode).toBe(404);
    // The batch endpoint is POST only: a GET is the API's 404 in JSON, not the web app.
    const batchGet = await app.inject({ url: '/subrequests?_format=json' });
    expect(batchGet.statusCode).toBe(404);
    expect(batchGet.body).not.toContain('<!doctype html>');
  });
});
