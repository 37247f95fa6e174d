import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { notFound, sendError } from './errors.js';

const here = dirname(fileURLToPath(import.meta.url));
/** web/dist, from server/src/plugins or server/dist/plugins alike. */
export const defaultWebDist = resolve(here, '../../../web/dist');

const API_PREFIXES = ['/jsonapi', '/oauth', '/files', '/healthz', '/api'];

/**
 * Serves the built web app from the same origin as the API. Hashed assets are cached for a year; index.html is
 * never cached, so a new build reaches users on their next load. Any other path that is not an API path gets
 * index.html and the web app's router decides (its own 404 page included).
 */
export async function registerWebApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = ctx.config.webDist ?? defaultWebDist;
  const indexPath = join(root, 'index.html');
  const indexHtml = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`)) || path.startsWith('/assets/');
    if (isApi || request.method !== 'GET' || indexHtml === null) return sendError(reply, notFound(`No route for ${request.method} ${path}.`));
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
  if (indexHtml === null) {
    app.log.warn({ root }, 'web app not built: only the API is served (run npm run build)');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders: (res, path) => {
      if (path.includes(`${join(root, 'assets')}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      else res.header('cache-control', 'no-cache');
    },
  });
}
