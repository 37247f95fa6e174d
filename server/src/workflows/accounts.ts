import { ApiError, conflict } from '../lib/errors.js';
import { hashPassword, passwordPolicyProblem } from '../users/passwords.js';
import { resetFactor } from '../oauth/mfa.js';
import { revokeUserSessions } from '../oauth/bearer.js';
import type { PortalDb } from '../db/portal-tables.js';
import { isUniqueViolation, mailProblem, normalEmail, userIdByName, usernameProblem } from '../users/identity.js';
import { assertStaff, audit, dbBool, dbOf, insertNode, loadRow, nowIso, type Actor } from './common.js';

/** Handler companies and user accounts, as staff (and the operators' command line) keep them. */
export interface NewHandler {
  number: string;
  name: string;
  directory?: boolean;
  address?: string;
  phone?: string;
  email?: string;
  website?: string;
}

export async function createHandler(a: Actor, h: NewHandler): Promise<string> {
  assertStaff(a.viewer, 'create handlers');
  if (!/^[A-Za-z0-9-]{1,20}$/.test(h.number))
    throw new ApiError(422, 'A handler number is 1 to 20 letters, digits or dashes.');
  if (!h.name.trim()) throw new ApiError(422, 'A handler needs a name.');
  const taken = await dbOf(a)
    .selectFrom('handlers')
    .select('id')
    .where('handler_number', '=', h.number)
    .executeTakeFirst();
  if (taken) throw conflict(`Handler number ${h.number} is taken.`);
  return insertNode(a, 'handlers', {
    title: h.name.trim(),
    handler_number: h.number,
    handler_status: 'active',
    show_in_handler_directory: dbBool(a, h.directory ?? false),
    address: h.address ?? null,
    phone: h.phone ?? null,
    email: h.email ?? null,
    website: h.website ?? null,
  });
}

export interface NewUser {
  username: string;
  /** Absent or null: the user has none yet and chooses one through a password-reset link. */
  password?: string | null;
  firstName: string;
  lastName?: string;
  mail?: string | null;
  role: 'handler' | 'staff';
  handlerNumber?: string | null;
  directory?: boolean;
  jobTitle?: string | null;
  phone?: string | null;
  /** `pending`: a sign-up waiting for the council (the only kind anyone but staff may create). */
  status?: 'active' | 'pending' | 'blocked';
}

export interface UserProblem {
  field: 'username' | 'email' | 'password' | 'handler_number' | 'first_name' | 'role';
  detail: string;
  /** Well-formed but another account has it (sign-up hides this for the username: requests.ts). */
  taken?: boolean;
}

const MAX_FIRST_NAME = 200;

/** Every rule a new user must meet, all problems at once (users/identity.ts holds the identity rules). */
export async function newUserProblems(db: PortalDb, u: NewUser): Promise<UserProblem[]> {
  const problems: UserProblem[] = [];
  const named = await usernameProblem(db, u.username);
  if (named) problems.push(named);
  if (u.mail !== undefined && u.mail !== null) {
    const mailed = await mailProblem(db, u.mail);
    if (mailed) problems.push(mailed);
  }
  if (u.password !== undefined && u.password !== null) {
    const weak = passwordPolicyProblem(u.password);
    if (weak) problems.push({ field: 'password', detail: weak });
  }
  if (!u.firstName.trim() || u.firstName.length > MAX_FIRST_NAME)
    problems.push({ field: 'first_name', detail: `A first name is 1 to ${MAX_FIRST_NAME} characters.` });
  if (u.role !== 'handler' && u.role !== 'staff')
    problems.push({ field: 'role', detail: 'role must be handler or staff.' });
  if (u.role === 'handler') {
    if (!u.handlerNumber)
      problems.push({ field: 'handler_number', detail: 'A handler user belongs to a handler: give its number.' });
    else if (!(await handlerIdOf(db, u.handlerNumber)))
      problems.push({ field: 'handler_number', detail: `There is no handler number ${u.handlerNumber}.` });
  }
  if (u.role === 'staff' && u.handlerNumber)
    problems.push({ field: 'handler_number', detail: 'Council staff belong to no handler: give no handler number.' });
  return problems;
}

const handlerIdOf = async (db: PortalDb, number: string): Promise<string | undefined> =>
  (await db.selectFrom('handlers').select('id').where('handler_number', '=', number).executeTakeFirst())?.id;

/**
 * The one way a user account is made, whoever asks: the council console, the operators' CLI, an approved sign-up
 * (made here as `pending`) and the demo loader. Staff make any account; anyone else only a pending handler sign-up.
 * A staff-made address counts as verified (staff vouch for it); a sign-up's is verified by the link mailed to it.
 * Refuses with 422, one error per field, at `pointer(field)`.
 */
export async function createUser(
  a: Actor,
  u: NewUser,
  pointer: (field: string) => string = (f) => `/data/attributes/${f}`,
): Promise<string> {
  const signUp = u.status === 'pending' && u.role === 'handler';
  if (!signUp) assertStaff(a.viewer, 'create users');
  const db = dbOf(a);
  const problems = await newUserProblems(db, u);
  if (problems.length > 0)
    throw ApiError.many(
      422,
      problems.map((p) => ({ detail: p.detail, source: { pointer: pointer(p.field) } })),
    );
  const mail = u.mail ? normalEmail(u.mail) : null;
  try {
    return await insertNode(a, 'users', {
      name: u.username,
      mail,
      pass_hash: u.password ? await hashPassword(u.password) : null,
      role: u.role,
      status: u.status ?? 'active',
      first_name: u.firstName.trim(),
      last_name: u.lastName?.trim() ?? '',
      job_title: u.jobTitle ?? null,
      phone: u.phone ?? null,
      show_in_directory: dbBool(a, u.directory ?? false),
      handler_id: u.handlerNumber && u.role === 'handler' ? await handlerIdOf(db, u.handlerNumber) : null,
      mail_verified_at: mail && !signUp ? nowIso(a) : null,
    });
  } catch (error) {
    // Another request took the name or address between the check and the insert (the unique indexes, migration 008).
    if (isUniqueViolation(error))
      throw conflict('Another account took this username or e-mail address just now: choose another one.');
    throw error;
  }
}

async function userByName(a: Actor, username: string): Promise<{ id: string }> {
  const id = await userIdByName(dbOf(a), username);
  if (!id) throw new ApiError(404, `There is no user ${username}.`);
  return { id };
}

/** A new password ends every session of the user. */
export async function setPassword(a: Actor, username: string, password: string): Promise<void> {
  assertStaff(a.viewer, 'set passwords');
  const weak = passwordPolicyProblem(password);
  if (weak) throw new ApiError(422, weak);
  const user = await userByName(a, username);
  await dbOf(a)
    .updateTable('users')
    .set({ pass_hash: await hashPassword(password) })
    .where('id', '=', user.id)
    .execute();
  await audit(a, { type: 'users', id: String(user.id), action: 'password_change', before: null, after: null });
  await revokeUserSessions(dbOf(a), user.id, a.ctx.clock.now());
}

/**
 * Removes a user's second factor (a lost phone): the authenticator key and the recovery codes go, and every session
 * ends, since whoever has the phone may be signed in. A staff user sets up a new authenticator at the next sign-in.
 */
export async function resetSecondFactor(a: Actor, username: string): Promise<void> {
  assertStaff(a.viewer, 'reset second factors');
  const user = await userByName(a, username);
  const had = await resetFactor(dbOf(a), user.id);
  await audit(a, {
    type: 'users',
    id: String(user.id),
    action: 'mfa_reset',
    before: { enrolled: had },
    after: { enrolled: false },
  });
  await revokeUserSessions(dbOf(a), user.id, a.ctx.clock.now());
}

export async function listUsers(a: Actor): Promise<Array<Record<string, unknown>>> {
  assertStaff(a.viewer, 'list users');
  return dbOf(a)
    .selectFrom('users as u')
    .leftJoin('handlers as h', 'h.id', 'u.handler_id')
    .select(['u.name', 'u.first_name', 'u.last_name', 'u.role', 'u.status', 'h.handler_number'])
    .orderBy('u.name')
    .execute();
}

export { loadRow };
