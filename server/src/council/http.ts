import { MAX_ID_LENGTH, requestProblems, type FieldProblem } from '@pecan/contract';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { isStaff, type AppContext, type Viewer } from '../context.js';
import { authenticateSession, type Session } from '../oauth/bearer.js';
import { ApiError, forbidden } from '../lib/errors.js';
import type { Actor } from '../workflows/common.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * What every council endpoint shares: signed in (401), staff (403), both checked once for the whole
 * `/api/council` prefix by `requireStaff`; then input checked against its schema in the contract
 * (`contract/src/api/council-requests.ts`: 422 with one error per field, `source.pointer` `/<field>` for body
 * members, `source.parameter` for query parameters), and writes in one transaction with the transaction as the
 * actor's database (so the audit log entries land with the change).
 */
export { MAX_ID_LENGTH, type FieldProblem };

const staffSessions = new WeakMap<FastifyRequest, Session>();

/** The hook of the council prefix: a person signed in (401) who is council staff (403), kept for the route. */
export const requireStaff =
  (ctx: AppContext): onRequestAsyncHookHandler =>
  async (request) => {
    const session = await authenticateSession(ctx, request);
    if (!isStaff(session.viewer)) throw forbidden('Only council staff can do this.');
    staffSessions.set(request, session);
  };

/** The staff member's session that `requireStaff` checked. */
export function staffSession(request: FastifyRequest): Session {
  const session = staffSessions.get(request);
  // Only a route outside the council prefix could get here: a wiring mistake, not the caller's.
  if (!session) throw new Error(`${request.url} is not behind the council's staff hook.`);
  return session;
}

export const staffViewer = (request: FastifyRequest): Viewer => staffSession(request).viewer;

/** The work in one transaction, with the transaction as the staff member's database. */
export async function asStaff<T>(ctx: AppContext, request: FastifyRequest, work: (a: Actor) => Promise<T>): Promise<T> {
  const viewer = staffViewer(request);
  return portalDb(ctx.db)
    .transaction()
    .execute((trx) => work({ ctx: { ...ctx, db: trx }, viewer }));
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

/** What a schema made of the members it took, and the problems of the others (for checks that go on). */
export interface Checked<T> {
  value: Partial<T>;
  problems: FieldProblem[];
}

/**
 * The input checked against its schema. When some members are refused, the others are still read (each member's
 * rule stands alone), so that checks that need the database can go on and one answer lists every problem.
 */
function check<S extends z.ZodObject>(
  schema: S,
  input: Record<string, unknown>,
  what: 'field' | 'parameter',
): Checked<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { value: result.data, problems: [] };
  const problems = requestProblems(schema, result, what);
  const refused = new Set(problems.map((p) => p.field));
  const rest = Object.fromEntries(Object.entries(input).filter(([member]) => !refused.has(member)));
  const again = schema.partial().safeParse(rest);
  return { value: again.success ? (again.data as Partial<z.output<S>>) : {}, problems };
}

/** The JSON object body, or 400. */
function jsonObject(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object (Content-Type: application/json).');
  }
  return body as Record<string, unknown>;
}

/** The JSON object body (or 400) as its schema gives it, or 422 with all its problems at once. */
export function bodyOf<S extends z.ZodObject>(request: FastifyRequest, schema: S): z.output<S> {
  const { value, problems } = check(schema, jsonObject(request), 'field');
  if (problems.length > 0) throw invalid(problems);
  return value as z.output<S>;
}

/** The JSON object body (or 400) checked against its schema, with its problems, for checks that go on. */
export const openBody = <S extends z.ZodObject>(request: FastifyRequest, schema: S): Checked<z.output<S>> =>
  check(schema, jsonObject(request), 'field');

export const pathParam = (request: FastifyRequest, name = 'id'): string =>
  String((request.params as Record<string, string>)[name]);

const MAX_PARAMETER_LENGTH = 200;

/**
 * The query string's parameters checked against their schema, with the problems of those it refused, for checks
 * that go on. A parameter given twice, too long, or one this endpoint does not know is a 422 naming it at once
 * (never silently ignored); an empty one counts as absent.
 */
export function queryOf<S extends z.ZodObject>(request: FastifyRequest, schema: S): Checked<z.output<S>> {
  const raw = (request.query ?? {}) as Record<string, unknown>;
  const known = Object.keys(schema.shape);
  const problems: FieldProblem[] = [];
  const given: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!known.includes(key))
      problems.push({
        field: key,
        detail: `${key} is not a parameter of this request (expected: ${known.join(', ') || 'none'}).`,
      });
    else if (typeof value !== 'string') problems.push({ field: key, detail: `${key} must be given once.` });
    else if (value.length > MAX_PARAMETER_LENGTH) problems.push({ field: key, detail: `${key} is too long.` });
    else if (value !== '') given[key] = value;
  }
  if (problems.length > 0) throw invalidParameters(problems);
  return check(schema, given, 'parameter');
}

/** The query checked against its schema, or 422: for a query whose parameters need no other check. */
export function checkedQuery<S extends z.ZodObject>(request: FastifyRequest, schema: S): z.output<S> {
  const { value, problems } = queryOf(request, schema);
  if (problems.length > 0) throw invalidParameters(problems);
  return value as z.output<S>;
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

/** A handler given by id or by handler number, with what staff routes say of it; undefined when there is none. */
export function handlerByIdOrNumber(ctx: AppContext, value: string) {
  return portalDb(ctx.db)
    .selectFrom('handlers')
    .select(['id', 'handler_number', 'title', 'handler_status'])
    .where((eb) => eb.or([eb('id', '=', value), eb('handler_number', '=', value)]))
    .executeTakeFirst();
}

export function noSuchHandler(value: string, field = 'handler'): FieldProblem {
  return { field, detail: `There is no handler ${value} (give its id or its handler number).` };
}

/** A handler given by id or by handler number: its id, or a problem. */
export async function handlerParam(
  ctx: AppContext,
  value: string | undefined,
  problems: FieldProblem[],
  name = 'handler',
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const row = await handlerByIdOrNumber(ctx, value);
  if (!row) problems.push(noSuchHandler(value, name));
  return row?.id;
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
