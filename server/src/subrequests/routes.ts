import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { authenticate } from '../oauth/bearer.js';
import { ApiError } from '../lib/errors.js';
import { DependencyError, dependencyOrder, findTokens, valueAt, type ReplacementToken } from './replacements.js';

/** At most this many subrequests in one blueprint. */
export const MAX_SUBREQUESTS = 10;
const MAX_REQUEST_ID = 100;
const MAX_URI = 4096;
const ALLOWED_KEYS = new Set(['requestId', 'uri', 'action', 'headers', 'waitFor']);

/** One subrequest of a blueprint, as Drupal's Subrequests module names it (reads only: action "view"). */
export interface Subrequest {
  requestId: string;
  uri: string;
  action: 'view';
  headers: Record<string, string>;
  /** The items whose answers this one needs before it runs (their values go in through `tokens`). */
  waitFor: string[];
  tokens: ReplacementToken[];
}

/**
 * One entry of the answer, Subrequests' JSON format: the response's status and type as header lists, the body as text.
 */
export interface SubresponseEntry {
  headers: { status: [string]; 'content-type': [string]; 'Content-Id': [string] };
  body: string;
}

const bad = (detail: string, pointer?: string) =>
  new ApiError(400, detail, pointer === undefined ? {} : { source: { pointer } });

/**
 * A path under /jsonapi/ with no `.` or `..` segment (once decoded), so a subrequest cannot step out of the JSON:API.
 */
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
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    throw bad(`Subrequest ${index} is not an object.`, at(''));
  const o = item as Record<string, unknown>;
  if ('body' in o) throw bad(`Subrequest ${index}: "body" is not supported; subrequests are reads only.`, at('/body'));
  const unknown = Object.keys(o).find((k) => !ALLOWED_KEYS.has(k));
  if (unknown !== undefined) throw bad(`Subrequest ${index}: unknown member "${unknown}".`, at(`/${unknown}`));
  const { requestId, uri, action, headers = {}, waitFor = [] } = o;
  if (typeof requestId !== 'string' || requestId === '' || requestId.length > MAX_REQUEST_ID) {
    throw bad(
      `Subrequest ${index}: "requestId" must be a string of 1 to ${MAX_REQUEST_ID} characters.`,
      at('/requestId'),
    );
  }
  if (action !== 'view') throw bad(`Subrequest ${index}: only action "view" (a read) is accepted.`, at('/action'));
  if (typeof uri !== 'string' || uri.length > MAX_URI || !isJsonApiUri(uri)) {
    throw bad(`Subrequest ${index}: "uri" must be a path under /jsonapi/ (at most ${MAX_URI} characters).`, at('/uri'));
  }
  if (
    typeof headers !== 'object' ||
    headers === null ||
    Array.isArray(headers) ||
    Object.values(headers).some((v) => typeof v !== 'string')
  ) {
    throw bad(`Subrequest ${index}: "headers" must be an object of strings.`, at('/headers'));
  }
  if (!Array.isArray(waitFor) || waitFor.some((id) => typeof id !== 'string')) {
    throw bad(`Subrequest ${index}: "waitFor" must be an array of requestIds.`, at('/waitFor'));
  }
  return {
    requestId,
    uri,
    action,
    headers: headers as Record<string, string>,
    waitFor: waitFor as string[],
    tokens: tokensOf(uri, waitFor as string[], index),
  };
}

/** The uri's replacement tokens, each reading an item this one waits for. */
function tokensOf(uri: string, waitFor: string[], index: number): ReplacementToken[] {
  let tokens: ReplacementToken[];
  try {
    tokens = findTokens(uri);
  } catch (e) {
    throw bad(`Subrequest ${index}: ${(e as Error).message}.`, `/${index}/uri`);
  }
  const unlisted = tokens.find((t) => !waitFor.includes(t.requestId));
  if (unlisted)
    throw bad(
      `Subrequest ${index}: the token ${unlisted.text} reads "${unlisted.requestId}", which is not in its "waitFor".`,
      `/${index}/uri`,
    );
  return tokens;
}

/**
 * Checks a whole blueprint before anything runs (one bad item refuses the batch) and returns its items in an order
 * where each comes after those it waits for.
 */
export function parseBlueprint(body: unknown): Subrequest[] {
  if (!Array.isArray(body)) throw bad('The body must be a JSON array of subrequests (a blueprint).', '');
  if (body.length === 0) throw bad('The blueprint is empty.', '');
  if (body.length > MAX_SUBREQUESTS)
    throw bad(`A blueprint has at most ${MAX_SUBREQUESTS} subrequests; this one has ${body.length}.`, '');
  const items = body.map(parseItem);
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.requestId))
      throw bad(`Subrequest ${index}: requestId "${item.requestId}" is used twice.`, `/${index}/requestId`);
    seen.add(item.requestId);
  });
  try {
    return dependencyOrder(items);
  } catch (e) {
    if (!(e instanceof DependencyError)) throw e;
    const index = items.findIndex((item) => item.requestId === e.requestId);
    throw bad(`Subrequest ${index}: ${e.message}.`, `/${index}/waitFor`);
  }
}

/** Headers a subrequest may not set: who is asking and how the message is framed are the batch's, not the item's. */
const RESERVED = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'accept-encoding',
]);

/**
 * The headers of one subrequest: its own (minus reserved ones), then the caller's Authorization, the JSON:API media
 * type, and the batch's host and proxy headers, so links in the body are the ones a direct call would get.
 */
function subrequestHeaders(request: FastifyRequest, item: Subrequest): Record<string, string> {
  const own = Object.fromEntries(
    Object.entries(item.headers).filter(
      ([name]) => !RESERVED.has(name.toLowerCase()) && !name.toLowerCase().startsWith('x-forwarded-'),
    ),
  );
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

const entry = (item: Subrequest, status: number, contentType: string, body: string): SubresponseEntry => ({
  headers: { status: [String(status)], 'content-type': [contentType], 'Content-Id': [`<${item.requestId}>`] },
  body,
});

/** The answer of an item that could not run because what it waits for did not give its value. */
function failedDependency(item: Subrequest, detail: string): SubresponseEntry {
  const error = new ApiError(424, `Subrequest "${item.requestId}" did not run: ${detail}`);
  return entry(
    item,
    424,
    'application/vnd.api+json',
    JSON.stringify({ jsonapi: { version: '1.0' }, errors: error.errors }),
  );
}

/** The item's uri with each token replaced by its value (URL-encoded), or the reason it cannot be. */
function resolveUri(item: Subrequest, answers: Map<string, SubresponseEntry>): { uri: string } | { failure: string } {
  let uri = item.uri;
  const bodies = new Map<string, unknown>();
  for (const token of item.tokens) {
    const source = answers.get(token.requestId)!;
    const status = Number(source.headers.status[0]);
    if (status < 200 || status > 299)
      return { failure: `"${token.requestId}", which it waits for, answered ${status}.` };
    if (!bodies.has(token.requestId)) bodies.set(token.requestId, parseJson(source.body));
    const value = valueAt(bodies.get(token.requestId), token.path);
    if (value === undefined)
      return { failure: `${token.text} finds no string or number in the answer of "${token.requestId}".` };
    uri = uri.split(token.text).join(encodeURIComponent(String(value)));
  }
  return isJsonApiUri(uri) ? { uri } : { failure: 'its uri with the values put in is not a path under /jsonapi/.' };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function runOne(
  app: FastifyInstance,
  request: FastifyRequest,
  item: Subrequest,
  answers: Map<string, SubresponseEntry>,
): Promise<SubresponseEntry> {
  const resolved = resolveUri(item, answers);
  if ('failure' in resolved) return failedDependency(item, resolved.failure);
  const response = await app.inject({ method: 'GET', url: resolved.uri, headers: subrequestHeaders(request, item) });
  return entry(
    item,
    response.statusCode,
    String(response.headers['content-type'] ?? 'application/vnd.api+json'),
    response.body,
  );
}

/** Runs every item as soon as the items it waits for have answered; independent items run side by side. */
async function runBlueprint(
  app: FastifyInstance,
  request: FastifyRequest,
  ordered: Subrequest[],
): Promise<Map<string, SubresponseEntry>> {
  const answers = new Map<string, SubresponseEntry>();
  const running = new Map<string, Promise<void>>();
  for (const item of ordered) {
    const ready = Promise.all(item.waitFor.map((id) => running.get(id)));
    running.set(
      item.requestId,
      ready.then(async () => {
        answers.set(item.requestId, await runOne(app, request, item, answers));
      }),
    );
  }
  await Promise.all(running.values());
  return answers;
}

/**
 * POST /subrequests?_format=json: several JSON:API reads in one request, in the shape of Drupal's Subrequests module
 * (reads only). Each read runs through the whole app with the caller's own token, so every access rule applies
 * exactly as if it were called alone; a failing read is reported in its own entry and the batch still answers 207.
 * An item may wait for others and put a value of their answers in its uri (replacements.ts).
 */
export async function registerSubrequestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{ Querystring: { _format?: string } }>('/subrequests', async (request, reply) => {
    await authenticate(ctx, request, true);
    const format = request.query._format;
    if (format !== undefined && format !== 'json')
      throw new ApiError(400, 'Only _format=json is supported.', { source: { parameter: '_format' } });
    const items = parseBlueprint(request.body);
    const answers = await runBlueprint(app, request, items);
    const answer = Object.fromEntries(items.map((item) => [item.requestId, answers.get(item.requestId)]));
    return reply.code(207).type('application/json').header('cache-control', 'no-store').send(answer);
  });
}
