import type { FastifyReply, FastifyRequest } from 'fastify';
import { isStaff, type AppContext, type Viewer } from '../context.js';
import { authenticate } from '../oauth/bearer.js';
import { ApiError, forbidden } from '../lib/errors.js';
import type { Actor } from '../workflows/common.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * What every council endpoint shares: signed in (401), staff (403), then input checked field by field (422 with
 * one error per field: `source.pointer` `/<field>` for body members, `source.parameter` for query parameters),
 * and writes in one transaction with the transaction as the actor's database (so the audit log entries land with
 * the change).
 */
export type Body = Record<string, unknown>;
export interface FieldProblem {
  field: string;
  detail: string;
}

/** 422 with one error per body field, each pointing at its member. */
export function invalid(problems: FieldProblem[]): ApiError {
  return ApiError.many(
    422,
    problems.map((p) => ({ detail: p.detail, source: { pointer: `/${p.field}` } })),
  );
}

/** 422 with one error per query parameter. */
export function invalidParameters(problems: FieldProblem[]): ApiError {
  return ApiError.many(
    422,
    problems.map((p) => ({ detail: p.detail, source: { parameter: p.field } })),
  );
}

/** The JSON object body, or 400; then the fields checked, all problems reported at once. */
export function bodyOf(
  request: FastifyRequest,
  allowed: string[],
  check: (body: Body, problems: FieldProblem[]) => void,
): Body {
  const body = request.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object (Content-Type: application/json).');
  }
  const problems: FieldProblem[] = Object.keys(body)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ field: k, detail: `${k} is not a field of this request (expected: ${allowed.join(', ')}).` }));
  check(body as Body, problems);
  if (problems.length > 0) throw invalid(problems);
  return body as Body;
}

/** The JSON object body (or 400), and a problem for each member that is not in `allowed`, for checks that go on. */
export function openBody(request: FastifyRequest, allowed: string[]): { body: Body; problems: FieldProblem[] } {
  const body = request.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object (Content-Type: application/json).');
  }
  const problems = Object.keys(body)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ field: k, detail: `${k} is not a field of this request (expected: ${allowed.join(', ')}).` }));
  return { body: body as Body, problems };
}

/** Signed in and staff, or 401/403. */
export async function staffViewer(ctx: AppContext, request: FastifyRequest): Promise<Viewer> {
  const viewer = await authenticate(ctx, request);
  if (!isStaff(viewer)) throw forbidden('Only council staff can do this.');
  return viewer;
}

/** Signed in (401), staff (403), then the work in one transaction with the transaction as the actor's database. */
export async function asStaff<T>(
  ctx: AppContext,
  request: FastifyRequest,
  validate: () => Body,
  work: (a: Actor, body: Body) => Promise<T>,
): Promise<T> {
  const viewer = await staffViewer(ctx, request);
  const body = validate();
  const db = portalDb(ctx.db);
  return db.transaction().execute((trx) => work({ ctx: { ...ctx, db: trx }, viewer }, body));
}

export const MAX_ID_LENGTH = 64;

export const pathParam = (request: FastifyRequest, name = 'id'): string =>
  String((request.params as Record<string, string>)[name]);

/**
 * The query string's parameters as single strings. A parameter given twice, or one this endpoint does not know, is
 * a 422 naming it (never silently ignored).
 */
export function queryOf(request: FastifyRequest, allowed: string[]): Record<string, string | undefined> {
  const raw = (request.query ?? {}) as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!allowed.includes(key))
      problems.push({
        field: key,
        detail: `${key} is not a parameter of this request (expected: ${allowed.join(', ') || 'none'}).`,
      });
    else if (typeof value !== 'string') problems.push({ field: key, detail: `${key} must be given once.` });
    else if (value.length > 200) problems.push({ field: key, detail: `${key} is too long.` });
    else if (value !== '') out[key] = value;
  }
  if (problems.length > 0) throw invalidParameters(problems);
  return out;
}

/** A positive page number (1 when absent). */
export function pageParam(value: string | undefined, problems: FieldProblem[], name = 'page'): number {
  if (value === undefined) return 1;
  if (!/^[1-9][0-9]{0,5}$/.test(value)) {
    problems.push({ field: name, detail: `${name} must be a whole number from 1.` });
    return 1;
  }
  return Number(value);
}

/** One of a fixed list of values, or a problem. */
export function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  name: string,
  problems: FieldProblem[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    problems.push({ field: name, detail: `${name} must be one of ${allowed.join(', ')}.` });
    return undefined;
  }
  return value as T;
}

/**
 * CSV (RFC 4180): a header line, CRLF line ends, a field quoted when it holds a comma, a quote, a line break or
 * leading/trailing spaces, quotes doubled. Text that a spreadsheet would run as a formula (=, +, -, @ first) gets a
 * leading apostrophe; numbers (also negative ones) are written as they are.
 */
export function toCsv(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cell = (value: string | number | null | undefined): string => {
    if (value === null || value === undefined) return '';
    let text = String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
    return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

export function sendCsv(reply: FastifyReply, filename: string, csv: string): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(csv);
}

/** A handler given by id or by handler number: its id, or a problem. */
export async function handlerParam(
  ctx: AppContext,
  value: string | undefined,
  problems: FieldProblem[],
  name = 'handler',
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const row = await portalDb(ctx.db)
    .selectFrom('handlers')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', value), eb('handler_number', '=', value)]))
    .executeTakeFirst();
  if (!row) {
    problems.push({ field: name, detail: `There is no handler ${value} (give its id or its handler number).` });
    return undefined;
  }
  return row.id;
}

/** A record's id that must exist in `table`, or a problem. */
export async function existingId(
  ctx: AppContext,
  table: string,
  value: string | undefined,
  name: string,
  problems: FieldProblem[],
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (
    value.length > MAX_ID_LENGTH ||
    !(await ctx.db.selectFrom(table).select('id').where('id', '=', value).executeTakeFirst())
  ) {
    problems.push({ field: name, detail: `${name} names no record.` });
    return undefined;
  }
  return value;
}

export const todayIn = (ctx: AppContext): string => ctx.clock.now().toISOString().slice(0, 10);
