import type { Db } from '../db/database.js';
import { isoTimestamp, newId } from '../lib/time.js';

/**
 * Login throttling kept in the database (login_failures), so every replica sees the same counts.
 *
 * A key (one username, or one client address) is locked when it has `limit` failures within `lockout` seconds of
 * its latest failure, and stays locked until `lockout` seconds after that latest failure. Attempts refused while
 * locked are not recorded (the password is not even checked), which also bounds the rows per key.
 */
export interface ThrottleSettings {
  /** Failures allowed per username; an address gets ADDRESS_FACTOR times as many (offices share an address). */
  maxFailures: number;
  lockoutSeconds: number;
}

export const ADDRESS_FACTOR = 4;
/** Keys are built from user input: cap their length so an attacker cannot write large rows. */
const MAX_KEY_INPUT = 200;

export interface ThrottleKeys { user: string; address: string }

export function throttleKeys(username: string, address: string): ThrottleKeys {
  // Usernames are matched case-insensitively here so "Alice" and "alice" share one counter.
  return { user: `user:${username.toLowerCase().slice(0, MAX_KEY_INPUT)}`, address: `ip:${address.slice(0, MAX_KEY_INPUT)}` };
}

const ms = (seconds: number): number => seconds * 1000;

/** Seconds until the key unlocks, or 0. `times` are the key's failure times in ms, newest first. */
function lockRemaining(times: number[], limit: number, settings: ThrottleSettings, now: number): number {
  const latest = times[0];
  if (latest === undefined) return 0;
  const until = latest + ms(settings.lockoutSeconds);
  if (until <= now) return 0;
  const recent = times.filter((t) => t >= latest - ms(settings.lockoutSeconds)).length;
  return recent >= limit ? Math.ceil((until - now) / 1000) : 0;
}

export interface Attempt {
  /** Seconds to wait before trying again; 0 when the attempt may go ahead. */
  retryAfter: number;
  /** The provisional failure rows this attempt wrote (user key, address key). */
  ids: [string, string];
}

/**
 * Starts a sign-in attempt. The attempt is written as a failure *before* the password is checked and the counts are
 * read afterwards, so a burst of parallel guesses (on one replica or many) sees itself and is mostly refused; a
 * check-then-record order would let every request of the burst through. A refused attempt removes its rows again,
 * so waiting out the lock is enough to get in.
 */
export async function beginAttempt(db: Db, keys: ThrottleKeys, settings: ThrottleSettings, now: Date): Promise<Attempt> {
  const at = isoTimestamp(now);
  const ids: [string, string] = [newId(), newId()];
  await db.insertInto('login_failures').values([
    { id: ids[0], throttle_key: keys.user, failed_at: at },
    { id: ids[1], throttle_key: keys.address, failed_at: at },
  ]).execute();
  // A lock depends on failures at most two lockout periods old.
  const since = isoTimestamp(new Date(now.getTime() - 2 * ms(settings.lockoutSeconds)));
  const rows = await db.selectFrom('login_failures').select(['id', 'throttle_key', 'failed_at'])
    .where('throttle_key', 'in', [keys.user, keys.address]).where('failed_at', '>', since)
    .orderBy('failed_at', 'desc').execute();
  const timesOf = (key: string) => rows.filter((r) => r.throttle_key === key && !ids.includes(r.id as string))
    .map((r) => Date.parse(r.failed_at as string));
  const retryAfter = Math.max(
    lockRemaining(timesOf(keys.user), settings.maxFailures, settings, now.getTime()),
    lockRemaining(timesOf(keys.address), settings.maxFailures * ADDRESS_FACTOR, settings, now.getTime()),
  );
  if (retryAfter > 0) await db.deleteFrom('login_failures').where('id', 'in', ids).execute();
  return { retryAfter, ids };
}

/**
 * A successful sign-in clears the username's failures. The address keeps its earlier failures: otherwise one valid
 * account would let an attacker reset the address limit while guessing other users' passwords.
 */
export async function attemptSucceeded(db: Db, keys: ThrottleKeys, attempt: Attempt): Promise<void> {
  await db.deleteFrom('login_failures')
    .where((eb) => eb.or([eb('throttle_key', '=', keys.user), eb('id', '=', attempt.ids[1])]))
    .execute();
}

/**
 * The password was right but the sign-in needs another step (a second factor): neither a failure nor a success. The
 * attempt's rows go, and the username's earlier failures stay, so asking for the code again and again does not
 * reset the count of wrong codes.
 */
export async function attemptUndecided(db: Db, attempt: Attempt): Promise<void> {
  await db.deleteFrom('login_failures').where('id', 'in', attempt.ids).execute();
}

/** The attempt's rows stay as failures; failures too old to matter are deleted so the table stays small. */
export async function attemptFailed(db: Db, settings: ThrottleSettings, now: Date): Promise<void> {
  const stale = isoTimestamp(new Date(now.getTime() - 2 * ms(settings.lockoutSeconds)));
  await db.deleteFrom('login_failures').where('failed_at', '<=', stale).execute();
}
