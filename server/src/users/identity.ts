import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/database.js';

/**
 * The rules of a user's identity, the same for every way a user comes to be or changes its address (docs/SECURITY.md,
 * "Identity"): usernames and e-mail addresses are unique whatever their case (the database's unique indexes on
 * lower(name) and lower(mail) hold it under races, migration 008), and are looked up the same way.
 */
export const USERNAME = /^[A-Za-z0-9._@-]{2,60}$/;
export const USERNAME_RULE = 'A username is 2 to 60 letters, digits, dots, dashes, underscores or @.';
export const MAX_EMAIL_LENGTH = 254;
const EMAIL = z.email();

export interface IdentityProblem {
  field: 'username' | 'email';
  detail: string;
  /** The value is well-formed but another account has it. */
  taken?: boolean;
}

const lowerName = sql<string>`lower(name)`;
const lowerMail = sql<string>`lower(mail)`;

/** The e-mail address as stored: trimmed (its case is kept for display; comparisons fold it). */
export const normalEmail = (mail: string): string => mail.trim();

export function emailProblem(mail: string): string | null {
  if (mail.length > MAX_EMAIL_LENGTH) return `The e-mail address must be at most ${MAX_EMAIL_LENGTH} characters long.`;
  if (!EMAIL.safeParse(mail).success) return 'Enter a valid e-mail address, such as name@example.com.';
  return null;
}

export async function userIdByName(db: Db, username: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(lowerName, '=', username.toLowerCase())
    .executeTakeFirst();
  return row?.id as string | undefined;
}

export async function userIdByMail(db: Db, mail: string, exceptUserId?: string): Promise<string | undefined> {
  let q = db.selectFrom('users').select('id').where(lowerMail, '=', normalEmail(mail).toLowerCase());
  if (exceptUserId) q = q.where('id', '<>', exceptUserId);
  const row = await q.executeTakeFirst();
  return row?.id as string | undefined;
}

/** Username format and case-insensitive uniqueness. */
export async function usernameProblem(db: Db, username: string): Promise<IdentityProblem | null> {
  if (!USERNAME.test(username)) return { field: 'username', detail: USERNAME_RULE };
  if (await userIdByName(db, username))
    return { field: 'username', detail: `The username ${username} is taken: choose another one.`, taken: true };
  return null;
}

/** Address format and case-insensitive uniqueness (another user than `exceptUserId` having it). */
export async function mailProblem(db: Db, mail: string, exceptUserId?: string): Promise<IdentityProblem | null> {
  const format = emailProblem(normalEmail(mail));
  if (format) return { field: 'email', detail: format };
  if (await userIdByMail(db, mail, exceptUserId))
    return { field: 'email', detail: 'Another account already uses this e-mail address.', taken: true };
  return null;
}

/** True for the unique-constraint violation of either database (a race lost to another insert or update). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(String(e?.message))
  );
}

/**
 * Exactly one active user whose verified address this is, or why not. Password reset and single sign-on find the
 * account this way; an unverified address (a sign-up not yet confirmed, a change not yet confirmed: the old address
 * stays until then) never matches.
 */
export async function activeUserByVerifiedMail(db: Db, mail: string) {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'name', 'mail', 'status', 'role', 'first_name', 'mail_verified_at'])
    .where(lowerMail, '=', normalEmail(mail).toLowerCase())
    .execute();
  const active = rows.filter((r) => r.status === 'active');
  const verified = active.filter((r) => r.mail_verified_at !== null && r.mail_verified_at !== undefined);
  return {
    user: verified.length === 1 ? verified[0] : undefined,
    pending: rows.some((r) => r.status === 'pending'),
    unverified: active.length > 0 && verified.length === 0,
  };
}
