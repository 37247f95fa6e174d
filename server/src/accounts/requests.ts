import { refusalBody, requestProblems } from '@pecan/contract';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { AppContext, Viewer } from '../context.js';
import { recordAudit } from '../audit/log.js';
import type { Db } from '../db/database.js';
import { isoTimestamp } from '../lib/time.js';
import { trySendMail } from '../mail/mailer.js';
import {
  accountApprovedMail,
  accountExistsMail,
  accountRefusedMail,
  accountRequestedMail,
  confirmSignUpMail,
  usernameTakenMail,
} from '../mail/templates.js';
import { ApiError, conflict, notFound } from '../lib/errors.js';
import { hashPassword } from '../users/passwords.js';
import { createUser, newUserProblems } from '../workflows/accounts.js';
import { issueAccountToken } from './account-tokens.js';
import { EMAIL_LINK_TTL_SECONDS, emailConfirmLink } from './email-change.js';
import { baseUrl, emailField, invalid, requiredText, tooMany, type Body, type FieldProblem } from './fields.js';
import { rateKey, takeRateSlot } from './rate-limit.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * Account requests (sign-up): anyone may ask for a handler account; it waits as a `pending` user until council staff
 * approve it (`active`) or refuse it (`refused`). Pending and refused users cannot sign in (the token endpoint and
 * every bearer check accept only active users).
 */

const MAX_NAME_LENGTH = 200;
const HOUR = 3600;

export interface AccountRequestInput {
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
  handlerNumber: string;
  handlerName: string;
  /** The username is well-formed but taken: the answer hides it and the mail tells (requestAccount). */
  usernameTaken: boolean;
  /** The address already has an account: the answer hides it and the mail tells its owner. */
  emailTaken: boolean;
}

/** "Mary Ann Smith" is first name "Mary Ann", last name "Smith"; a single word is a first name. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  const lastName = parts.length > 1 ? (parts.pop() as string) : '';
  return { firstName: parts.join(' '), lastName };
}

export async function userWithMail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'mail', 'status', 'first_name', 'last_name'])
    .where(sql<string>`lower(mail)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/**
 * Checks every field (all problems at once, one 422 error per field): the form's own (text, the handler must be an
 * active one) and the rules of every new user (workflows/accounts.ts newUserProblems), except that a taken username
 * or address is not told in the answer.
 */
async function validateRequest(ctx: AppContext, body: Body): Promise<AccountRequestInput> {
  const problems: FieldProblem[] = [];
  const name = requiredText(body, 'name', 'Your name', problems, MAX_NAME_LENGTH);
  const email = emailField(body, problems);
  const username = requiredText(body, 'username', 'A username', problems, 60);
  // The password is not trimmed: spaces are part of it.
  const password = body.password;
  if (password === undefined || password === null || password === '')
    problems.push({ field: 'password', detail: 'A password is required.' });
  else if (typeof password !== 'string') problems.push({ field: 'password', detail: 'The password must be text.' });
  const handlerNumber = requiredText(body, 'handler_number', 'The handler number', problems, 20);
  let handler: { id: string; title: string } | undefined;
  if (handlerNumber !== null) {
    handler = await portalDb(ctx.db)
      .selectFrom('handlers')
      .select(['id', 'title'])
      .where('handler_number', '=', handlerNumber)
      .where('handler_status', '=', 'active')
      .executeTakeFirst();
    if (!handler)
      problems.push({
        field: 'handler_number',
        detail: `There is no active handler with the number ${handlerNumber}: check it with your company or the council.`,
      });
  }
  const split = splitName(name ?? 'x');
  const rules = await newUserProblems(portalDb(ctx.db), {
    username: username ?? 'x',
    mail: email,
    password: typeof password === 'string' ? password : null,
    firstName: split.firstName,
    role: 'handler',
    handlerNumber: handler ? handlerNumber : null,
    status: 'pending',
  });
  const told = new Set(problems.map((p) => p.field));
  for (const p of rules) {
    const field = p.field === 'first_name' ? 'name' : p.field;
    if (!p.taken && !told.has(field) && (field !== 'username' || username !== null) && field !== 'handler_number')
      problems.push({ field, detail: p.detail });
  }
  if (problems.length > 0) throw invalid(problems);
  return {
    name: name as string,
    ...split,
    email: email as string,
    username: username as string,
    password: password as string,
    handlerNumber: handlerNumber as string,
    handlerName: handler!.title,
    usernameTaken: rules.some((p) => p.field === 'username' && p.taken),
    emailTaken: rules.some((p) => p.field === 'email' && p.taken),
  };
}

/** Who a sign-up acts as in the audit log and the user workflow: nobody signed in yet. */
const APPLICANT: Viewer = { userId: 'sign-up', name: 'sign-up', role: 'handler', handlerId: null };

export interface RequestContext {
  ip: string;
  log: FastifyBaseLogger;
}

/**
 * POST /api/account-requests. Answers the same whether or not the username or the e-mail address is taken: then no
 * account is made, and the mail tells (the address's owner gets a note pointing at the password reset; a taken
 * username is told to the address given). Otherwise the address gets a link that confirms it (email-change.ts).
 */
export async function requestAccount(ctx: AppContext, req: RequestContext, body: Body): Promise<void> {
  const now = ctx.clock.now();
  const wait = await takeRateSlot(
    ctx.db,
    { key: rateKey('signup-ip', req.ip), limit: ctx.config.accountRequestsPerHour, windowSeconds: HOUR },
    now,
  );
  if (wait > 0) throw tooMany('Too many account requests from your network.', wait);

  const input = await validateRequest(ctx, body);
  // Hashed whether or not an account is made, so the answer takes as long either way.
  await hashPassword(input.password);

  const pending = await portalDb(ctx.db)
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  if (Number(pending.n) >= ctx.config.accountRequestsMaxPending) {
    throw tooMany('Too many account requests are waiting for the council; please contact the council directly.', HOUR);
  }

  const links = baseUrl(ctx.config.publicUrl);
  if (input.emailTaken) {
    const existing = await userWithMail(ctx.db, input.email);
    void trySendMail(
      ctx,
      accountExistsMail({
        to: (existing?.mail as string) ?? input.email,
        forgotPasswordUrl: `${links}/forgotpassword`,
      }),
      req.log,
    );
    return;
  }
  if (input.usernameTaken) {
    void trySendMail(
      ctx,
      usernameTakenMail({
        to: input.email,
        name: input.firstName,
        username: input.username,
        signUpUrl: `${links}/signup`,
      }),
      req.log,
    );
    return;
  }
  let token: string;
  try {
    const db = portalDb(ctx.db);
    token = await db.transaction().execute(async (trx) => {
      const id = await createUser(
        { ctx: { ...ctx, db: trx }, viewer: APPLICANT },
        {
          username: input.username,
          password: input.password,
          firstName: input.firstName,
          lastName: input.lastName,
          mail: input.email,
          role: 'handler',
          handlerNumber: input.handlerNumber,
          status: 'pending',
        },
      );
      return issueAccountToken(ctx, trx, {
        userId: id,
        purpose: 'email',
        mail: input.email,
        ttlSeconds: EMAIL_LINK_TTL_SECONDS,
      });
    });
  } catch (error) {
    // Two requests raced for the same username or address: the loser gets the answer it would have had a moment later.
    if (error instanceof ApiError && error.status === 409) return;
    throw error;
  }
  void trySendMail(
    ctx,
    confirmSignUpMail({
      to: input.email,
      name: input.firstName,
      username: input.username,
      link: emailConfirmLink(ctx, token),
      validHours: EMAIL_LINK_TTL_SECONDS / 3600,
    }),
    req.log,
  );
  if (ctx.config.councilMail) {
    void trySendMail(
      ctx,
      accountRequestedMail({
        to: ctx.config.councilMail,
        name: input.name,
        username: input.username,
        email: input.email,
        handler: `${input.handlerNumber} ${input.handlerName}`,
        reviewUrl: `${links}/dashboard/council/account-requests`,
      }),
      req.log,
    );
  }
}

export interface PendingAccount {
  id: string;
  username: string;
  name: string;
  first_name: string;
  last_name: string;
  email: string | null;
  handler_id: string | null;
  handler_number: string | null;
  handler_name: string | null;
  requested: string;
}

/** GET /api/council/account-requests: pending accounts, oldest first. */
export async function listPendingAccounts(ctx: AppContext): Promise<PendingAccount[]> {
  const rows = await portalDb(ctx.db)
    .selectFrom('users as u')
    .leftJoin('handlers as h', 'h.id', 'u.handler_id')
    .select([
      'u.id',
      'u.name',
      'u.first_name',
      'u.last_name',
      'u.mail',
      'u.created',
      'h.id as handler_id',
      'h.handler_number',
      'h.title as handler_name',
    ])
    .where('u.status', '=', 'pending')
    .orderBy('u.created', 'asc')
    .orderBy('u.name', 'asc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    username: r.name,
    name: [r.first_name, r.last_name].filter(Boolean).join(' '),
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.mail ?? null,
    handler_id: r.handler_id ?? null,
    handler_number: r.handler_number ?? null,
    handler_name: r.handler_name ?? null,
    requested: r.created,
  }));
}

export type Decision = { approve: true } | { approve: false; reason: string | null };

export interface DecisionResult {
  id: string;
  username: string;
  status: 'active' | 'refused';
  mail_sent: boolean;
}

/** The refusal's optional reason (contract's refusalBody): trimmed text, or null. */
export function refusalReason(body: Body): string | null {
  const result = refusalBody.safeParse(body);
  if (!result.success) throw invalid(requestProblems(refusalBody, result));
  return result.data.reason;
}

/**
 * Approves or refuses a pending account in one transaction (the status moves only from `pending`, so two staff
 * deciding at once cannot both win); the person is told by e-mail once it has committed.
 */
export async function decideAccount(
  ctx: AppContext,
  req: RequestContext,
  id: string,
  decision: Decision,
  viewer: Viewer | null = null,
): Promise<DecisionResult> {
  const status = decision.approve ? 'active' : 'refused';
  const db = portalDb(ctx.db);
  const user = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('users')
      .select(['id', 'name', 'mail', 'status', 'first_name', 'last_name'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('There is no account request with this id.');
    if (row.status !== 'pending')
      throw conflict(`This account request was already decided (the account is ${row.status}).`);
    const changed = isoTimestamp(ctx.clock.now());
    const updated = await trx
      .updateTable('users')
      .set({ status, changed })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1)
      throw conflict('This account request was decided by someone else just now.');
    await recordAudit(trx, ctx.clock, viewer, {
      type: 'users',
      id,
      action: decision.approve ? 'approve' : 'refuse',
      before: row,
      after: { ...row, status, changed },
    });
    return row;
  });
  let mailSent = false;
  if (user.mail) {
    const message = decision.approve
      ? accountApprovedMail({
          to: user.mail,
          name: user.first_name,
          username: user.name,
          signInUrl: `${baseUrl(ctx.config.publicUrl)}/signin`,
        })
      : accountRefusedMail({ to: user.mail, name: user.first_name, reason: decision.reason });
    mailSent = await trySendMail(ctx, message, req.log);
  }
  return { id: user.id, username: user.name, status, mail_sent: mailSent };
}

export const badId = (id: string): ApiError | null =>
  id.length > 64 ? notFound('There is no account request with this id.') : null;
