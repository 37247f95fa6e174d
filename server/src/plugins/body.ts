import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

/**
 * JSON:API bodies arrive as application/vnd.api+json (plain application/json is accepted too, as Drupal does).
 * Media type parameters other than ext/profile are refused with 415, as JSON:API 1.0 requires.
 */
export function registerJsonApiBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser(/^application\/(vnd\.api\+)?json(\s*;.*)?$/i, { parseAs: 'string' }, (request, body, done) => {
    const type = String(request.headers['content-type'] ?? '');
    const params = type.split(';').slice(1).map((p) => p.trim().split('=')[0].toLowerCase()).filter(Boolean);
    if (params.some((p) => p !== 'ext' && p !== 'profile' && p !== 'charset')) {
      done(new ApiError(415, 'Media type parameters are not allowed on application/vnd.api+json.'), undefined);
      return;
    }
    const text = String(body);
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, 'The request body is not valid JSON.'), undefined);
    }
  });
}
