import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { DATA_PREFIXES, underPrefix } from './api-paths.js';

type HelmetOptions = NonNullable<Parameters<typeof helmet>[0]>;

/**
 * Helmet's configuration for the web app's pages, its files and everything that is not a data answer
 * (docs/SECURITY.md).
 */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"], // Ant Design injects its CSS-in-JS styles at run time.
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      // The council console previews a generated report PDF in a frame, from a blob it fetched itself.
      frameSrc: ["'self'", 'blob:'],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * Helmet's configuration for data answers (JSON: /jsonapi, /oauth, /api, /subrequests, /healthz), after OWASP's REST
 * Security Cheat Sheet: a policy that lets nothing load and no one frame the answer, HSTS, nosniff, X-Frame-Options
 * DENY, with the resource and referrer policies kept. The headers that act only on an HTML document (the opener
 * policy, origin-agent cluster, DNS prefetch, IE's download and XSS-filter switches, Flash's cross-domain policy)
 * are left out: 7 headers of 286 bytes (with Cache-Control) instead of 12 of 642 on every API answer, the commonest.
 */
export const API_HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/** Data answers are never kept by a browser or a proxy (OWASP: sensitive data), unless their route says otherwise. */
const API_CACHING = { 'cache-control': 'no-store' };

/**
 * The headers Helmet sets, read once by running its middleware on a response that only records them. Our policy has
 * no per-request part (no nonces), so every answer gets the same headers; Helmet's middleware built them again for
 * every request (the policy's text, twelve `setHeader` calls with Node's checks), a quarter of a bare route's
 * throughput (decision 0007). A policy with a part computed per request (a function, such as
 * a nonce) is refused here, at start.
 */
export function securityHeaderValues(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  if (hasFunction(options))
    throw new Error('The security headers have a part computed per request: they cannot be read once.');
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      if (typeof value !== 'string') throw new Error(`Security header ${name} is not a plain text.`);
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  let finished = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error ?? null;
    finished = true;
  });
  if (!finished || failure)
    throw new Error(
      `Helmet's headers could not be read once: ${String(failure ?? 'the middleware did not finish at once')}`,
    );
  return headers;
}

function hasFunction(value: unknown): boolean {
  if (typeof value === 'function') return true;
  return typeof value === 'object' && value !== null && Object.values(value).some(hasFunction);
}

/**
 * Every answer that reaches the hooks (API, files, the web app, errors) carries the security headers of its kind and
 * its request id. One hook, run first, so that an answer refused by a later hook has them too.
 */
export function registerAnswerHeaders(app: FastifyInstance): void {
  const forPages = securityHeaderValues();
  const forData = { ...securityHeaderValues(API_HELMET_OPTIONS), ...API_CACHING };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(underPrefix(request.url, DATA_PREFIXES) ? forData : forPages);
    reply.header('x-request-id', request.id);
    done();
  });
}
