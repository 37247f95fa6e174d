import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.js';

/**
 * JSON bodies: application/vnd.api+json for the JSON:API (where plain application/json is a 415, as in Drupal: the
 * hook in jsonapi/routes.ts), application/json for the council's endpoints and subrequests. Media type parameters
 * other than ext/profile/charset are refused with 415, as JSON:API 1.0 requires.
 */
export function registerJsonApiBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    /^application\/(vnd\.api\+)?json(\s*;.*)?$/i,
    { parseAs: 'string' },
    (request, body, done) => {
      const type = String(request.headers['content-type'] ?? '');
      const params = type
        .split(';')
        .slice(1)
        .map((p) => p.trim().split('=')[0].toLowerCase())
        .filter(Boolean);
      if (params.some((p) => p !== 'ext' && p !== 'profile' && p !== 'charset')) {
        done(new ApiError(415, 'Media type parameters are not allowed on application/vnd.api+json.'), undefined);
        return;
      }
      const text = String(body);
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      if (nestingDepth(text) > MAX_JSON_DEPTH) {
        done(new ApiError(400, `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
        return;
      }
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new ApiError(400, 'The request body is not valid JSON.'), undefined);
      }
    },
  );
}

/**
 * How deep a body's arrays and objects may nest. A JSON:API document with the deepest list attribute (a form's
 * rows of objects) is 5 deep; a body nested thousands deep made validation overflow the stack (a 500, issue 32).
 */
export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted); one pass. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i += 1; // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (c === 93 || c === 125) depth -= 1;
  }
  return deepest;
}

/** How much of a body over the limit is still read (and dropped) so that its sender gets the 413: see drainBody. */
export const DRAIN_BYTES = 32 * 1024 * 1024;

/**
 * A body over the limit is answered 413 at once, and Fastify closes the connection with the rest of the body
 * unread: a client still sending then meets a closed connection (a reset, or "socket ended") and may never show the
 * 413 it was sent. So the rest is read and dropped, and the connection stays open, up to DRAIN_BYTES past which it
 * is closed after all (a body that large is no mistake).
 */
export function drainBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  reply.removeHeader('connection');
  let seen = 0;
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_BYTES) raw.socket.destroy();
  });
  raw.resume();
}
