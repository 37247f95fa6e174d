import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { NOT_PAGE_PREFIXES, underPrefix } from './api-paths.js';
import { notFound } from '../lib/errors.js';
import { sendError } from './errors.js';

const here = dirname(fileURLToPath(import.meta.url));
/** web/dist, from server/src/plugins or server/dist/plugins alike. */
export const defaultWebDist = resolve(here, '../../../web/dist');

/** index.html as sent: as it is and compressed (the not-found handler is outside @fastify/compress's reach). */
interface IndexPage {
  plain: string;
  br: Buffer;
  gzip: Buffer;
}

function indexPage(html: string): IndexPage {
  return { plain: html, br: brotliCompressSync(html), gzip: gzipSync(html, { level: 9 }) };
}

/** The build's list of page chunks per first-load path (web/vite.config.ts, route-preload.json). */
function routePreloads(root: string): Record<string, string[]> {
  const manifest = join(root, 'route-preload.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : {};
}

/** The dashboard's Ant Design stylesheet made by the build (web/scripts/dashboard-styles.tsx), if any. */
function dashboardStyles(root: string): { href: string; paths: string[] } | null {
  const manifest = join(root, 'dashboard-styles.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : null;
}

/**
 * index.html per first-load path: with `<link rel="modulepreload">` for the chunks of that path's pages, listed
 * by the build in route-preload.json, so they download with the entry instead of after it, and on the dashboard's
 * paths its pre-rendered antd stylesheet. Every page names that stylesheet in a meta tag, for the sign-in page to
 * fetch it ahead (an inline script could not: the CSP allows none). Other paths get index.html with the meta only.
 */
function indexPages(root: string, html: string): { byPath: Map<string, IndexPage>; fallback: IndexPage } {
  const routes = routePreloads(root);
  const styles = dashboardStyles(root);
  const meta = styles ? `<meta name="dashboard-styles" content="${styles.href}">` : '';
  const page = (head: string) => indexPage(html.replace('</head>', `${meta}${head}</head>`));
  const byPath = new Map<string, IndexPage>();
  for (const path of new Set([...Object.keys(routes), ...(styles?.paths ?? [])])) {
    const stylesheet = styles?.paths.includes(path) ? `<link rel="stylesheet" href="${styles.href}">` : '';
    const preloads = (routes[path] ?? []).map((f) => `<link rel="modulepreload" crossorigin href="${f}">`).join('');
    byPath.set(path, page(stylesheet + preloads));
  }
  return { byPath, fallback: page('') };
}

function sendIndex(request: FastifyRequest, reply: FastifyReply, page: IndexPage) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(page.br);
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(page.gzip);
  return reply.send(page.plain);
}

/**
 * Serves the built web app from the same origin as the API, its files compressed at build time (brotli, else
 * gzip, else as they are). Hashed assets are cached for a year; index.html is
 * never cached, so a new build reaches users on their next load. Any other path that is not an API path gets
 * index.html and the web app's router decides (its own 404 page included).
 */
export async function registerWebApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = ctx.config.webDist ?? defaultWebDist;
  const indexPath = join(root, 'index.html');
  const indexHtml = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
  const pages = indexHtml === null ? null : indexPages(root, indexHtml);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    // HEAD answers as GET would, headers only (Node sends no body for it).
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (underPrefix(path, NOT_PAGE_PREFIXES) || !reading || pages === null)
      return sendError(reply, notFound(`No route for ${request.method} ${path}.`));
    return sendIndex(request, reply, pages.byPath.get(path.replace(/\/+$/, '') || '/') ?? pages.fallback);
  });
  if (indexHtml === null) {
    app.log.warn({ root }, 'web app not built: only the API is served (run npm run build)');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The build writes x.br and x.gz next to each compressible file (web/vite.config.ts, precompress): sent as
    // they are to a client that accepts them, with no compressing per request.
    preCompressed: true,
    // Our own Cache-Control (below), not @fastify/send's `public, max-age=0`, which it would write after it.
    cacheControl: false,
    setHeaders: (res, path) => {
      if (path.includes(`${join(root, 'assets')}`))
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
    },
  });
}
