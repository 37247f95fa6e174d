import { createHash, randomInt } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { Db } from '../db/database.js';
import { isoTimestamp } from '../lib/time.js';
import { hashToken, newToken } from './tokens.js';

/**
 * The staff second factor: TOTP (RFC 6238: HMAC-SHA1, six digits, 30-second steps) and ten single-use recovery codes.
 *
 * - A code is accepted for the current step and one step either side (clock drift, RFC 6238 §5.2), and only for a
 *   step later than the last one accepted: a code seen over someone's shoulder, or sent twice, is refused. The
 *   last step is moved with a conditional update, so of two requests with the same code only one wins.
 * - Time comes from the caller (the server's injected clock), never from Date.now().
 * - The secret lives in user_totp, which no API resource reads; it is shown once, at enrolment, and never logged.
 * - Recovery codes are 60 random bits each, stored as SHA-256 hashes (random, so no slow hash is needed).
 */
export const TOTP_PERIOD = 30;
export const TOTP_WINDOW = 1;
export const ISSUER = 'Pecan Handler Portal';
export const RECOVERY_CODE_COUNT = 10;
/** How long a staff user has to scan the key and type the first code. */
export const ENROLLMENT_TTL_SECONDS = 15 * 60;

const totpOf = (secret: string, label: string) =>
  new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });

/** The time step a moment falls in. */
export const stepAt = (now: Date): number => Math.floor(now.getTime() / 1000 / TOTP_PERIOD);

/** A six-digit code, spaces allowed ("123 456"); anything else is not a code. */
const normalCode = (code: string): string | null => {
  const digits = code.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
};

/** The step a code belongs to (within the window around now), or null when it matches none. */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const token = normalCode(code);
  if (!token) return null;
  const delta = totpOf(secret, 'check').validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : stepAt(now) + delta;
}

/** The code of a secret at a moment (the demo data, tests and the browser tests' helper use it). */
export const totpCode = (secret: string, now: Date): string =>
  totpOf(secret, 'code').generate({ timestamp: now.getTime() });

export const hasFactor = async (db: Db, userId: string): Promise<boolean> =>
  (await db.selectFrom('user_totp').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;

/** Checks a TOTP code of an enrolled user and consumes its step. False for a wrong, stale or replayed code. */
export async function acceptTotp(db: Db, userId: string, code: string, now: Date): Promise<boolean> {
  const factor = await db
    .selectFrom('user_totp')
    .select(['secret', 'last_step'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!factor) return false;
  const step = matchingStep(factor.secret as string, code, now);
  if (step === null || step <= Number(factor.last_step)) return false;
  const moved = await db
    .updateTable('user_totp')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** Recovery codes look like `k7m2-q9xp-4tbn`: 12 characters of an alphabet without look-alikes (0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const newRecoveryCode = (): string => {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
};
/** Case, spaces and dashes do not matter when a code is typed back. */
const hashRecoveryCode = (code: string): string =>
  createHash('sha256')
    .update(code.toLowerCase().replace(/[\s-]+/g, ''))
    .digest('hex');

/** Replaces a user's recovery codes with ten new ones and returns them (the only time they are seen in clear). */
export async function newRecoveryCodes(db: Db, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('mfa_recovery_codes')
    .values(
      codes.map((code) => ({
        code_hash: hashRecoveryCode(code),
        user_id: userId,
        created: isoTimestamp(now),
        used_at: null,
      })),
    )
    .execute();
  return codes;
}

/** Uses up one recovery code of the user; false when it is not theirs or already used. */
export async function useRecoveryCode(db: Db, userId: string, code: string, now: Date): Promise<boolean> {
  if (code.length > 64) return false;
  const used = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: isoTimestamp(now) })
    .where('code_hash', '=', hashRecoveryCode(code))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Enrols a user with a known secret (the demo data's staff user), consuming no step. */
export async function enrolWithSecret(db: Db, userId: string, secret: string, now: Date): Promise<void> {
  await db
    .insertInto('user_totp')
    .values({ user_id: userId, secret, enrolled_at: isoTimestamp(now), last_step: 0 })
    .execute();
}

/**
 * Starts an enrolment for a staff user who signed in with the right password but has no factor: a new secret, held
 * under a short-lived token until the first code confirms it. Earlier unfinished enrolments of the user end.
 */
export async function startEnrollment(db: Db, userId: string, now: Date): Promise<string> {
  const token = newToken();
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await db.deleteFrom('mfa_enrollments').where('user_id', '=', userId).execute();
  await db
    .insertInto('mfa_enrollments')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      secret,
      created: isoTimestamp(now),
      expires_at: isoTimestamp(new Date(now.getTime() + ENROLLMENT_TTL_SECONDS * 1000)),
      used_at: null,
    })
    .execute();
  return token;
}

interface PendingEnrollment {
  userId: string;
  name: string;
  secret: string;
}

async function pendingEnrollment(db: Db, token: string, now: Date): Promise<PendingEnrollment | null> {
  const row = await db
    .selectFrom('mfa_enrollments as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.user_id', 'e.secret', 'u.name'])
    .where('e.token_hash', '=', hashToken(token))
    .where('e.used_at', 'is', null)
    .where('e.expires_at', '>', isoTimestamp(now))
    .executeTakeFirst();
  return row ? { userId: row.user_id as string, name: row.name as string, secret: row.secret as string } : null;
}

/** The key to put in an authenticator app, while the enrolment is open: as text and as an otpauth:// URI (QR code). */
export async function enrollmentKey(
  db: Db,
  token: string,
  now: Date,
): Promise<{ secret: string; otpauth_uri: string; issuer: string; account: string } | null> {
  const pending = await pendingEnrollment(db, token, now);
  if (!pending) return null;
  return {
    secret: pending.secret,
    otpauth_uri: totpOf(pending.secret, pending.name).toString(),
    issuer: ISSUER,
    account: pending.name,
  };
}

export type EnrollmentOutcome = { ok: true; recoveryCodes: string[] } | { ok: false; reason: 'expired' | 'wrong_code' };

/** Finishes an enrolment with the first code: the factor is stored, its step consumed, ten recovery codes made. */
export async function completeEnrollment(
  db: Db,
  userId: string,
  token: string,
  code: string,
  now: Date,
): Promise<EnrollmentOutcome> {
  const pending = await pendingEnrollment(db, token, now);
  if (!pending || pending.userId !== userId) return { ok: false, reason: 'expired' };
  const step = matchingStep(pending.secret, code, now);
  if (step === null) return { ok: false, reason: 'wrong_code' };
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('mfa_enrollments')
      .set({ used_at: isoTimestamp(now) })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, reason: 'expired' } as const;
    await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    await trx
      .insertInto('user_totp')
      .values({ user_id: userId, secret: pending.secret, enrolled_at: isoTimestamp(now), last_step: step })
      .execute();
    return { ok: true, recoveryCodes: await newRecoveryCodes(trx, userId, now) } as const;
  });
}

/** Removes a user's factor and recovery codes: their next sign-in starts a new enrolment. */
export async function resetFactor(db: Db, userId: string): Promise<boolean> {
  const removed = await db.deleteFrom('user_totp').where('user_id', '=', userId).executeTakeFirst();
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('mfa_enrollments').where('user_id', '=', userId).execute();
  return Number(removed.numDeletedRows) === 1;
}
