import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { authenticate } from '../plugins/auth.js';
import { ApiError } from '../plugins/errors.js';

/** At most this many subrequests in one blueprint. */
export const MAX_SUBREQUESTS = 10;
const MAX_REQUEST_ID = 100;
const MAX_URI = 4096;
const ALLOWED_KEYS = new Set(['requestId', 'uri', 'action', 'headers']);

/** One subrequest of a blueprint, as Drupal's Subrequests module names it (reads only: action "view"). */
export interface Subrequest {
  requestId: string;
  uri: string;
  action: 'view';
  headers: Record<string, string>;
}

/** One entry of the answer, Subrequests' JSON format: the response's status and type as header lists, the body as text. */
export interface SubresponseEntry {
  headers: { status: [string]; 'content-type': [string]; 'Content-Id': [string] };
  body: string;
}

const bad = (detail: string, pointer?: string) => new ApiError(400, detail, pointer === undefined ? {} : { source: { pointer } });

/** A path under /jsonapi/ with no `.` or `..` segment (once decoded), so a subrequest cannot step out of the JSON:API. */
function isJsonApiUri(uri: string): boolean {
  if (!uri.startsWith('/jsonapi/') || uri.includes('#') || uri.includes('\\')) return false;
  const path = uri.split('?', 1)[0];
  try {
    return path.split('/').every((segment) => {
      const decoded = decodeURIComponent(segment);
      return decoded !== '.' && decoded !== '..' && !decoded.includes('/');
    });
  } catch {
    return false;
  }
}

function parseItem(item: unknown, index: number): Subrequest {
  const at = (member: string) => `/${index}${member}`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw bad(`Subrequest ${index} is not an object.`, at(''));
  const o = item as Record<string, unknown>;
  if ('waitFor' in o) throw bad(`Subrequest ${index}: "waitFor" is not supported; every subrequest runs on its own.`, at('/waitFor'));
  if ('body' in o) throw bad(`Subrequest ${index}: "body" is not supported; subrequests are reads only.`, at('/body'));
  const unknown = Object.keys(o).find((k) => !ALLOWED_KEYS.has(k));
  if (unknown !== undefined) throw bad(`Subrequest ${index}: unknown member "${unknown}".`, at(`/${unknown}`));
  const { requestId, uri, action, headers = {} } = o;
  if (typeof requestId !== 'string' || requestId === '' || requestId.length > MAX_REQUEST_ID) {
    throw bad(`Subrequest ${index}: "requestId" must be a string of 1 to ${MAX_REQUEST_ID} characters.`, at('/requestId'));
  }
  if (action !== 'view') throw bad(`Subrequest ${index}: only action "view" (a read) is accepted.`, at('/action'));
  if (typeof uri !== 'string' || uri.length > MAX_URI || !isJsonApiUri(uri)) {
    throw bad(`Subrequest ${index}: "uri" must be a path under /jsonapi/ (at most ${MAX_URI} characters).`, at('/uri'));
  }
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
    throw bad(`Subrequest ${index}: "headers" must be an object of strings.`, at('/headers'));
  }
  return { requestId, uri, action, headers: headers as Record<string, string> };
}

/** Checks a whole blueprint before anything runs: one bad item refuses the batch. */
export function parseBlueprint(body: unknown): Subrequest[] {
  if (!Array.isArray(body)) throw bad('The body must be a JSON array of subrequests (a blueprint).', '');
  if (body.length === 0) throw bad('The blueprint is empty.', '');
  if (body.length > MAX_SUBREQUESTS) throw bad(`A blueprint has at most ${MAX_SUBREQUESTS} subrequests; this one has ${body.length}.`, '');
  const items = body.map(parseItem);
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.requestId)) throw bad(`Subrequest ${index}: requestId "${item.requestId}" is used twice.`, `/${index}/requestId`);
    seen.add(item.requestId);
  });
  return items;
}

/** Headers a subrequest may not set: who is asking and how the message is framed are the batch's, not the item's. */
const RESERVED = new Set(['authorization', 'cookie', 'host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'accept-encoding']);

/**
 * The headers of one subrequest: its own (minus reserved ones), then the caller's Authorization, the JSON:API media
 * type, and the batch's host and proxy headers, so links in the body are the ones a direct call would get.
 */
function subrequestHeaders(request: FastifyRequest, item: Subrequest): Record<string, string> {
  const own = Object.fromEntries(Object.entries(item.headers).filter(([name]) => !RESERVED.has(name.toLowerCase()) && !name.toLowerCase().startsWith('x-forwarded-')));
  const forwarded = Object.fromEntries(
    ['host', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-for']
      .map((name) => [name, request.headers[name]] as const)
      .filter((pair): pair is readonly [string, string] => typeof pair[1] === 'string'),
  );
  return {
    ...own,
    ...forwarded,
    accept: 'application/vnd.api+json',
    authorization: request.headers.authorization ?? '',
    'x-request-id': `${request.id}/${item.requestId}`.slice(0, 64),
  };
}

async function runOne(app: FastifyInstance, request: FastifyRequest, item: Subrequest): Promise<SubresponseEntry> {
  const response = await app.inject({ method: 'GET', url: item.uri, headers: subrequestHeaders(request, item) });
  return {
    headers: {
      status: [String(response.statusCode)],
      'content-type': [String(response.headers['content-type'] ?? 'application/vnd.api+json')],
      'Content-Id': [`<${item.requestId}>`],
    },
    body: response.body,
  };
}

/**
 * POST /subrequests?_format=json: several JSON:API reads in one request, in the shape of Drupal's Subrequests module
 * (reads only). Each read runs through the whole app with the caller's own token, so every access rule applies
 * exactly as if it were called alone; a failing read is reported in its own entry and the batch still answers 207.
 */
export async function registerSubrequestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{ Querystring: { _format?: string } }>('/subrequests', async (request, reply) => {
    await authenticate(ctx, request);
    const format = request.query._format;
    if (format !== undefined && format !== 'json') throw new ApiError(400, 'Only _format=json is supported.', { source: { parameter: '_format' } });
    const items = parseBlueprint(request.body);
    const entries = await Promise.all(items.map((item) => runOne(app, request, item)));
    const answer = Object.fromEntries(items.map((item, i) => [item.requestId, entries[i]]));
    return reply.code(207).type('application/json').header('cache-control', 'no-store').send(answer);
  });
}
