import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from './context.js';
import { ApiError } from './lib/errors.js';
import { registerErrorHandling, sendError } from './plugins/errors.js';
import { registerJsonApiBodyParser } from './plugins/body.js';
import { registerCompression } from './plugins/compression.js';
import { registerAnswerHeaders } from './plugins/security-headers.js';
import { lazyRequestLogger } from './plugins/request-logger.js';
import { registerWebApp } from './plugins/web.js';
import { registerOAuthRoutes } from './oauth/routes.js';
import { Registry } from './jsonapi/registry.js';
import { registerJsonApiRoutes } from './jsonapi/routes.js';
import { allResources } from './resources/index.js';
import { registerFileRoutes } from './files/routes.js';
import { registerDemoRoutes } from './demo/routes.js';
import { registerCouncilRoutes } from './council/routes.js';
import { registerAnalyticsRoutes } from './analytics/routes.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { registerApiClientRoutes } from './api-clients/routes.js';
import { registerSsoRoutes } from './sso/routes.js';
import { registerSubrequestRoutes } from './subrequests/routes.js';
import { registerFormImportRoutes } from './forms-import/routes.js';
import { trackRequests } from './ops/drain.js';
import { checkUrlLength, LIMITS } from './jsonapi/limits.js';

export const BODY_LIMIT = 1024 * 1024;
/** Bytes of the request line and headers Node's parser reads: room for a 32 KiB address and the usual headers. */
export const MAX_HEADER_BYTES = 64 * 1024;

export interface BuildOptions {
  /** pino logger options, or false for silence in tests. */
  logger?: boolean | Record<string, unknown>;
}

/** Builds the whole server: plugins first, then the API, then the web app behind everything else. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: ctx.config.logLevel },
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.config.trustProxy,
    // A request id in every log line and every 500, taken from a proxy's header when there is one.
    genReqId: (req) =>
      typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'].slice(0, 64) : randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    // Addresses up to LIMITS.urlBytes (32 KiB) are served and longer ones get a 414 from the hook below; Node's
    // parser stops at 16 KiB of headers (request line included) by default, with a 431 that is not a JSON:API
    // document. Beyond this, clientError below answers.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler: answerClientError,
    // Errors the router meets before any route runs (a malformed URL, a path segment over the length limit) get
    // the same JSON:API error document as everything else.
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      void sendError(
        reply,
        new ApiError(status, status === 414 ? 'A part of the address is too long.' : 'The address is malformed.'),
      );
    },
  });
  // Hooks that await nothing are written with `done` rather than `async`: every request runs them, and a promise per
  // hook cost 3-4 % of a small read's throughput (A/B in decision 0007). A synchronous throw still becomes the reply.
  registerAnswerHeaders(app);
  // A NUL character has no place in an address, and PostgreSQL cannot even compare text with one (found by the
  // fuzzer: GET /jsonapi/node/season/%00 was a 500 there and a 404 on SQLite): refused alike on both.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.length > LIMITS.urlBytes / 4) checkUrlLength(request.url);
    if (!request.url.includes('%00')) return done(); // nearly every request: no split, no pattern
    const [path, query = ''] = request.url.split('?', 2);
    if (path.includes('%00')) throw new ApiError(404, 'Nothing is found at this address.');
    const pair = query.split('&').find((p) => p.includes('%00'));
    if (pair !== undefined) {
      const name = safeDecode(pair.split('=')[0]);
      throw new ApiError(400, `The value of "${name}" contains a NUL character.`, { source: { parameter: name } });
    }
    done();
  });
  // Requests in flight, for a shutdown that finishes them (ops/drain.ts).
  trackRequests(app);

  registerErrorHandling(app);
  await registerCompression(app);
  await app.register(formbody, { bodyLimit: BODY_LIMIT });
  registerJsonApiBodyParser(app);

  app.get('/healthz', async (_request, reply) => {
    try {
      await sql`select 1`.execute(ctx.db);
      return { status: 'ok', database: ctx.dialect };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: ctx.dialect });
    }
  });

  await registerOAuthRoutes(app, ctx);
  await registerFileRoutes(app, ctx);
  await registerJsonApiRoutes(app, ctx, new Registry(allResources));
  await registerSubrequestRoutes(app, ctx);
  await registerFormImportRoutes(app, ctx);
  await registerDemoRoutes(app, ctx);
  await registerCouncilRoutes(app, ctx);
  await registerAnalyticsRoutes(app, ctx);
  registerAccountRoutes(app, ctx);
  registerApiClientRoutes(app, ctx);
  registerSsoRoutes(app, ctx);
  await registerWebApp(app, ctx);
  return app;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' ')).replace(/\0/g, '');
  } catch {
    return text;
  }
}

/**
 * What Node's HTTP parser refuses before any route (headers over MAX_HEADER_BYTES, a malformed request line, a
 * request that took too long to arrive): the JSON:API error document every other refusal is, not Fastify's own JSON.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `The request's address and headers are larger than ${MAX_HEADER_BYTES / 1024} KiB.`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request is malformed.'];
  const body = JSON.stringify({
    jsonapi: { version: '1.0' },
    errors: [{ status: String(status), title: STATUS_CODES[status], detail }],
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/vnd.api+json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
