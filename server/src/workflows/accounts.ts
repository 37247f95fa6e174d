import { ApiError, conflict } from '../plugins/errors.js';
import { hashPassword, passwordPolicyProblem } from '../users/passwords.js';
import { resetFactor } from '../oauth/mfa.js';
import { revokeUserSessions } from '../plugins/auth.js';
import { assertStaff, audit, dbBool, dbOf, insertNode, loadRow, type Actor } from './common.js';

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
  if (!/^[A-Za-z0-9-]{1,20}$/.test(h.number)) throw new ApiError(422, 'A handler number is 1 to 20 letters, digits or dashes.');
  if (!h.name.trim()) throw new ApiError(422, 'A handler needs a name.');
  const taken = await dbOf(a).selectFrom('handlers').select('id').where('handler_number', '=', h.number).executeTakeFirst();
  if (taken) throw conflict(`Handler number ${h.number} is taken.`);
  return insertNode(a, 'handlers', {
    title: h.name.trim(), handler_number: h.number, handler_status: 'active',
    show_in_handler_directory: dbBool(a, h.directory ?? false),
    address: h.address ?? null, phone: h.phone ?? null, email: h.email ?? null, website: h.website ?? null,
  });
}

export interface NewUser {
  username: string;
  password: string;
  firstName: string;
  lastName?: string;
  mail?: string;
  role: 'handler' | 'staff';
  handlerNumber?: string | null;
  directory?: boolean;
  jobTitle?: string;
  phone?: string;
  status?: 'active' | 'pending' | 'blocked';
}

export async function createUser(a: Actor, u: NewUser): Promise<string> {
  assertStaff(a.viewer, 'create users');
  if (!/^[A-Za-z0-9._@-]{2,60}$/.test(u.username)) throw new ApiError(422, 'A username is 2 to 60 letters, digits, dots, dashes or @.');
  const weak = passwordPolicyProblem(u.password);
  if (weak) throw new ApiError(422, weak);
  const db = dbOf(a);
  if (await db.selectFrom('users').select('id').where('name', '=', u.username).executeTakeFirst()) throw conflict(`The username ${u.username} is taken.`);
  let handlerId: string | null = null;
  if (u.role === 'handler') {
    if (!u.handlerNumber) throw new ApiError(422, 'A handler user belongs to a handler: give its number.');
    const h = await db.selectFrom('handlers').select('id').where('handler_number', '=', u.handlerNumber).executeTakeFirst();
    if (!h) throw new ApiError(422, `There is no handler number ${u.handlerNumber}.`);
    handlerId = h.id as string;
  }
  return insertNode(a, 'users', {
    name: u.username, mail: u.mail ?? null, pass_hash: await hashPassword(u.password), role: u.role, status: u.status ?? 'active',
    first_name: u.firstName, last_name: u.lastName ?? '', job_title: u.jobTitle ?? null, phone: u.phone ?? null,
    show_in_directory: dbBool(a, u.directory ?? false), handler_id: handlerId,
  });
}

/** A new password ends every session of the user. */
export async function setPassword(a: Actor, username: string, password: string): Promise<void> {
  assertStaff(a.viewer, 'set passwords');
  const weak = passwordPolicyProblem(password);
  if (weak) throw new ApiError(422, weak);
  const user = await dbOf(a).selectFrom('users').select('id').where('name', '=', username).executeTakeFirst();
  if (!user) throw new ApiError(404, `There is no user ${username}.`);
  await dbOf(a).updateTable('users').set({ pass_hash: await hashPassword(password) }).where('id', '=', user.id as string).execute();
  await audit(a, { type: 'users', id: String(user.id), action: 'password_change', before: null, after: null });
  await revokeUserSessions(dbOf(a), user.id as string, a.ctx.clock.now());
}

/**
 * Removes a user's second factor (a lost phone): the authenticator key and the recovery codes go, and every session
 * ends, since whoever has the phone may be signed in. A staff user sets up a new authenticator at the next sign-in.
 */
export async function resetSecondFactor(a: Actor, username: string): Promise<void> {
  assertStaff(a.viewer, 'reset second factors');
  const user = await dbOf(a).selectFrom('users').select('id').where('name', '=', username).executeTakeFirst();
  if (!user) throw new ApiError(404, `There is no user ${username}.`);
  const had = await resetFactor(dbOf(a), user.id as string);
  await audit(a, { type: 'users', id: String(user.id), action: 'mfa_reset', before: { enrolled: had }, after: { enrolled: false } });
  await revokeUserSessions(dbOf(a), user.id as string, a.ctx.clock.now());
}

export async function listUsers(a: Actor): Promise<Array<Record<string, unknown>>> {
  assertStaff(a.viewer, 'list users');
  return dbOf(a).selectFrom('users as u').leftJoin('handlers as h', 'h.id', 'u.handler_id')
    .select(['u.name', 'u.first_name', 'u.last_name', 'u.role', 'u.status', 'h.handler_number']).orderBy('u.name').execute();
}

export { loadRow };
