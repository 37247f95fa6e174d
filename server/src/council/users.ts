import {
  newUserBody,
  userEditBody,
  userListQuery,
  type CouncilUser,
  type UserRole,
  type UserStatus,
} from '@pecan/contract';
import type { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { isoTimestamp } from '../lib/time.js';
import type { AppContext } from '../context.js';
import type { Row } from '../jsonapi/resource.js';
import { issuePasswordResetLink } from '../accounts/password-reset.js';
import { trySendMail, type MailMessage } from '../mail/mailer.js';
import { revokeUserSessions } from '../oauth/bearer.js';
import { conflict, notFound } from '../lib/errors.js';
import { isUniqueViolation, mailProblem } from '../users/identity.js';
import { createUser, newUserProblems, type NewUser } from '../workflows/accounts.js';
import { dbBool, updateRow, type Actor } from '../workflows/common.js';
import {
  asStaff,
  handlerParam,
  invalid,
  invalidParameters,
  MAX_ID_LENGTH,
  openBody,
  pathParam,
  queryOf,
  type Checked,
  type FieldProblem,
} from './http.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * Council staff keep the user accounts: list and search, create, edit, assign to a handler, block (which ends
 * every session at once) and send a password-reset link (the same e-mail as the public forgot-password flow).
 */
const PAGE_SIZE = 100;

function usersQuery(ctx: AppContext) {
  return portalDb(ctx.db).selectFrom('users as u').leftJoin('handlers as h', 'h.id', 'u.handler_id');
}

const userColumns = [
  'u.id',
  'u.name',
  'u.first_name',
  'u.last_name',
  'u.mail',
  'u.job_title',
  'u.phone',
  'u.role',
  'u.status',
  'u.handler_id',
  'h.handler_number',
  'h.title as handler_name',
  'u.handler_admin',
  'u.created',
  'u.changed',
] as const;

function toUser(r: Row): CouncilUser {
  return {
    id: String(r.id),
    username: String(r.name),
    first_name: String(r.first_name ?? ''),
    last_name: String(r.last_name ?? ''),
    email: (r.mail as string | null) ?? null,
    job_title: (r.job_title as string | null) ?? null,
    phone: (r.phone as string | null) ?? null,
    // Only the account workflows write role and status, and only these values (workflows/accounts.ts).
    role: r.role as UserRole,
    status: r.status as UserStatus,
    handler_id: (r.handler_id as string | null) ?? null,
    handler_number: (r.handler_number as string | null) ?? null,
    handler_name: (r.handler_name as string | null) ?? null,
    handler_admin: r.handler_admin === true || r.handler_admin === 1,
    created: String(r.created),
    changed: String(r.changed),
  };
}

async function loadUser(ctx: AppContext, id: string): Promise<CouncilUser> {
  if (id.length > MAX_ID_LENGTH) throw notFound('There is no user with this id.');
  const row = await usersQuery(ctx)
    .select([...userColumns])
    .where('u.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('There is no user with this id.');
  return toUser(row);
}

/** The address's identity rules (users/identity.ts): one problem, or none. */
async function emailProblems(a: Actor, email: string | null | undefined, userId: string): Promise<FieldProblem[]> {
  if (typeof email !== 'string') return [];
  const problem = await mailProblem(a.ctx.db, email, userId);
  return problem ? [problem] : [];
}

/** A handler's id by its number (null for none, '' too), or a problem. */
async function handlerByNumber(
  a: Actor,
  value: string | null | undefined,
  problems: FieldProblem[],
): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  const h = await a.ctx.db.selectFrom('handlers').select('id').where('handler_number', '=', value).executeTakeFirst();
  if (!h) {
    problems.push({ field: 'handler_number', detail: `There is no handler number ${value}.` });
    return undefined;
  }
  return h.id as string;
}

function fail(problems: FieldProblem[]): void {
  if (problems.length > 0) throw invalid(problems);
}

/**
 * The body as its schema read it (types and lengths, newUserBody); the rules of a new user are createUser's
 * (workflows/accounts.ts), run here too so that one answer lists every problem.
 */
async function createUserFromBody(
  a: Actor,
  { value: body, problems }: Checked<z.output<typeof newUserBody>>,
): Promise<{ id: string; mail: MailMessage | null }> {
  const input: NewUser = {
    username: body.username ?? '',
    firstName: body.first_name ?? '',
    lastName: body.last_name ?? '',
    mail: body.email ?? null,
    role: body.role as NewUser['role'],
    handlerNumber: body.handler_number || null,
    password: body.password ?? null,
    jobTitle: body.job_title ?? null,
    phone: body.phone ?? null,
  };
  const seen = new Set(problems.map((p) => p.field));
  for (const p of await newUserProblems(portalDb(a.ctx.db), input)) if (!seen.has(p.field)) problems.push(p);
  fail(problems);
  const id = await createUser(a, input, (field) => `/${field}`);
  // Without a password the new user chooses one through a reset link, sent once this transaction has committed.
  const mail = input.password
    ? null
    : await issuePasswordResetLink(
        a.ctx,
        a.ctx.db,
        { id, mail: input.mail as string, first_name: input.firstName },
        a.viewer,
      );
  return { id, mail };
}

async function editUser(
  a: Actor,
  id: string,
  { value: body, problems }: Checked<z.output<typeof userEditBody>>,
): Promise<void> {
  if (id.length > MAX_ID_LENGTH) throw notFound('There is no user with this id.');
  const row = await portalDb(a.ctx.db).selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('There is no user with this id.');
  const values: Row = {};
  if (body.first_name !== undefined) values.first_name = body.first_name;
  if (body.last_name !== undefined) values.last_name = body.last_name ?? '';
  if (body.job_title !== undefined) values.job_title = body.job_title;
  if (body.phone !== undefined) values.phone = body.phone;
  const emailProblem = await emailProblems(a, body.email, id);
  problems.push(...emailProblem);
  if (body.email !== undefined && emailProblem.length === 0 && body.email !== row.mail) {
    values.mail = body.email;
    // Staff vouch for an address they set, as for a new user's (workflows/accounts.ts createUser).
    values.mail_verified_at = body.email === null ? null : isoTimestamp(a.ctx.clock.now());
  }
  if (body.role !== undefined) values.role = body.role;
  const handlerId = await handlerByNumber(a, body.handler_number, problems);
  if (handlerId !== undefined) values.handler_id = handlerId;
  const status = body.status;
  if (status !== undefined) {
    if (status === 'blocked' && id === a.viewer.userId)
      problems.push({ field: 'status', detail: 'You cannot block your own account.' });
    else values.status = status;
  }
  if ((row.status === 'pending' || row.status === 'refused') && status !== undefined) {
    problems.push({
      field: 'status',
      detail: `This account is ${String(row.status)}: decide it under /api/council/account-requests.`,
    });
  }
  if (body.handler_admin !== undefined) values.handler_admin = dbBool(a, body.handler_admin);
  const role = (values.role ?? row.role) as string;
  const handler = values.handler_id !== undefined ? values.handler_id : row.handler_id;
  // The API-client administrator flag belongs to a handler user; staff, or a user moved to another handler, lose it.
  if (role === 'staff' && values.handler_admin !== undefined && body.handler_admin === true) {
    problems.push({
      field: 'handler_admin',
      detail: "Council staff manage every handler's API clients already: handler_admin is for handler users.",
    });
  } else if (
    role === 'staff' ||
    (values.handler_id !== undefined && values.handler_id !== row.handler_id && body.handler_admin === undefined)
  ) {
    if (row.handler_admin === true || row.handler_admin === 1) values.handler_admin = dbBool(a, false);
  }
  if (!problems.some((p) => p.field === 'role' || p.field === 'handler_number')) {
    if (role === 'handler' && !handler)
      problems.push({
        field: 'handler_number',
        detail: 'A handler user belongs to a handler: give its handler_number.',
      });
    if (role === 'staff' && handler) {
      if (body.handler_number === undefined)
        values.handler_id = null; // made staff: leaves its handler
      else
        problems.push({
          field: 'handler_number',
          detail: 'Council staff belong to no handler: leave handler_number out or null.',
        });
    }
  }
  if (role === 'handler' && row.id === a.viewer.userId && values.role !== undefined) {
    problems.push({ field: 'role', detail: 'You cannot take away your own staff role.' });
  }
  fail(problems);
  if (Object.keys(values).length === 0) return;
  try {
    await updateRow(a, 'users', row, values);
  } catch (error) {
    // Another account took the address between the check and the update (the unique index, migration 008).
    if (isUniqueViolation(error)) throw conflict('Another account took this e-mail address just now.');
    throw error;
  }
  // Blocked, moved to another handler or given another role: every session ends at once.
  const sessionsEnd =
    (values.status === 'blocked' && row.status !== 'blocked') ||
    (values.handler_id !== undefined && values.handler_id !== row.handler_id) ||
    (values.role !== undefined && values.role !== row.role);
  if (sessionsEnd) await revokeUserSessions(a.ctx.db, id, a.ctx.clock.now());
}

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/users', async (request) => {
    const { value: q, problems } = queryOf(request, userListQuery);
    const { status, role } = q;
    const page = q.page ?? 1;
    const handlerId = q.handler === 'none' ? null : await handlerParam(ctx, q.handler, problems);
    if (problems.length > 0) throw invalidParameters(problems);
    let query = usersQuery(ctx);
    if (q.q) {
      const like = `%${q.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or(
          ['u.name', 'u.first_name', 'u.last_name', 'u.mail', 'h.title', 'h.handler_number'].map((c) =>
            eb(sql`lower(coalesce(${sql.ref(c)}, ''))`, 'like', sql`${like} escape '\\'`),
          ),
        ),
      );
    }
    if (q.handler === 'none') query = query.where('u.handler_id', 'is', null);
    else if (handlerId) query = query.where('u.handler_id', '=', handlerId);
    if (status) query = query.where('u.status', '=', status);
    if (role) query = query.where('u.role', '=', role);
    const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await query
      .select([...userColumns])
      .orderBy('u.name')
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE)
      .execute();
    return { data: rows.map((r) => toUser(r as Row)), meta: { total, page, per_page: PAGE_SIZE } };
  });

  app.get('/users/:id', async (request) => {
    return { data: await loadUser(ctx, pathParam(request)) };
  });

  app.post('/users', async (request, reply) => {
    const body = openBody(request, newUserBody);
    const result = await asStaff(ctx, request, (a) => createUserFromBody(a, body));
    const mailSent = result.mail ? await trySendMail(ctx, result.mail, request.log) : false;
    return reply.code(201).send({ data: await loadUser(ctx, result.id), meta: { password_reset_sent: mailSent } });
  });

  app.patch('/users/:id', async (request) => {
    const id = pathParam(request);
    const body = openBody(request, userEditBody);
    await asStaff(ctx, request, (a) => editUser(a, id, body));
    return { data: await loadUser(ctx, id) };
  });

  app.post('/users/:id/password-reset', async (request, reply) => {
    const id = pathParam(request);
    const message = await asStaff(ctx, request, async (a) => {
      const user = await loadUser(a.ctx, id);
      const problems: FieldProblem[] = [];
      if (user.status !== 'active')
        problems.push({
          field: 'status',
          detail: `This account is ${user.status}: only an active account can get a password-reset link.`,
        });
      if (!user.email) problems.push({ field: 'email', detail: 'This account has no e-mail address: add one first.' });
      fail(problems);
      return issuePasswordResetLink(a.ctx, a.ctx.db, { id, mail: user.email, first_name: user.first_name }, a.viewer);
    });
    // After commit: the link exists before the mail that carries it goes out.
    const sent = await trySendMail(ctx, message, request.log);
    return reply.code(202).send({ id, email: message.to, mail_sent: sent });
  });
}
