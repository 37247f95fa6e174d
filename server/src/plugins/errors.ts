import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.js';
import { drainBody } from './body.js';

/** Maps Fastify's own errors (bad JSON, body too large, wrong media type) to the same shape. */
function fromFastify(error: FastifyError): ApiError | null {
  const status = error.statusCode;
  if (!status || status >= 500) return null;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'The request body is larger than 1 MiB.');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new ApiError(415, 'Send the body as application/vnd.api+json.');
  }
  if (
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    error instanceof SyntaxError
  ) {
    return new ApiError(400, 'The request body is not valid JSON.');
  }
  return new ApiError(status, error.message);
}

/** Seconds a client is asked to wait after a request that ran out of time. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * A write the database refused for one of its constraints (a unique value taken, a required column left out, a
 * relationship to a row that does not exist, a number out of range) comes from the client's data, not from a fault: a
 * 4xx, and the request's transaction has rolled back. Codes: PostgreSQL SQLSTATE, better-sqlite3 extended result codes.
 */
function fromDatabase(error: unknown): ApiError | null {
  const code = typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code ?? '') : '';
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
    return new ApiError(409, 'A record with this value already exists.');
  if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
    return new ApiError(422, 'A relationship names a record that does not exist.');
  if (code === '23502' || code === 'SQLITE_CONSTRAINT_NOTNULL')
    return new ApiError(422, 'A required field is missing.');
  // A statement past the time budget (QUERY_TIME_BUDGET_MS: PostgreSQL's statement_timeout; on SQLite a costly read's
  // reader thread, db/sqlite-readers/): the server is busy or the read too costly, not broken; the request's
  // transaction, if it had one, has rolled back.
  if (code === '57014' || code === 'SQLITE_INTERRUPT') {
    return new ApiError(
      503,
      'The request took longer than the server allows for one query. Try again shortly, or ask for less at once.',
      {},
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
    );
  }
  // PostgreSQL gave up one of two writes waiting on each other (deadlock), or could not serialize it: the request's
  // transaction rolled back whole, and the same request again will go through.
  if (code === '40P01' || code === '40001') {
    return new ApiError(
      503,
      'The server was saving another change to the same records at the same moment. Try again shortly.',
      {},
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
    );
  }
  // A number beyond the column's range (PostgreSQL's integer columns stop at 2^31) in a filter or a write.
  if (code === '22003') return new ApiError(400, 'A number in the request is out of range.');
  // Text PostgreSQL cannot store (a NUL character in a body's string).
  if (code === '22021' || code === '22P05')
    return new ApiError(400, 'The request contains a character that cannot be stored (NUL).');
  return null;
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .type(JSONAPI_MEDIA_TYPE)
    .send({ jsonapi: { version: '1.0' }, errors: error.errors });
}

/** JSON:API's media type, sent without parameters as JSON:API 1.0 (and Drupal) send it. */
export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

/**
 * Fastify adds `; charset=utf-8` to any JSON media type when it serializes a body; JSON:API 1.0 forbids media type
 * parameters (clients that check the header strictly refuse the answer), and Drupal sends none. Every answer in
 * JSON:API's media type (documents, error documents from any route, write answers) goes out without it.
 */
function registerBareMediaType(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith(JSONAPI_MEDIA_TYPE) && type !== JSONAPI_MEDIA_TYPE)
      reply.header('content-type', JSONAPI_MEDIA_TYPE);
    done(null, payload);
  });
}

export function registerErrorHandling(app: FastifyInstance): void {
  registerBareMediaType(app);
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') drainBody(request, reply);
    const known = error instanceof ApiError ? error : (fromFastify(error) ?? fromDatabase(error));
    if (known) {
      if (known.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(reply, known);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(
      reply,
      new ApiError(500, `Something went wrong. Quote request id ${request.id} when reporting it.`, {
        meta: { request_id: request.id },
      }),
    );
  });
}
