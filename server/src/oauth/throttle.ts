import type { Db } from '../db/database.js';
import { isoTimestamp, newId } from '../lib/time.js';

/**
 * Login throttling kept in the database (login_failures), so every replica sees the same counts.
 *
 * Three keys count failures: the username from this address (the pair), the username from anywhere, and the address
 * for any username. A key past its limit makes the next attempt wait, and the wait doubles with every further failure
 * (growing delays, up to `lockout` seconds after the latest failure). The pair's limit is low: one address guessing
 * one account is slowed at once. The username's is higher (ADDRESS_FACTOR times), so a stranger guessing from
 * elsewhere slows only their own address first, and the owner signing in from theirs is not held back; guessing from
 * many addresses still meets the username's limit, and then the user gets an unlock link by e-mail (oauth/unlock.ts)
 * that clears it. Attempts refused while held back are not recorded (the password is not even checked), which also
 * bounds the rows per key. docs/SECURITY.md, "Sign-in throttling".
 */
export interface ThrottleSettings {
  /**
   * Failures allowed per username and address; the username from anywhere, and an address, get ADDRESS_FACTOR times as
   * many.
   */
  maxFailures: number;
  lockoutSeconds: number;
}

export const ADDRESS_FACTOR = 4;
/**
 * Failures count while they are at most this many lockouts older than the latest one (an hour by default): longer
 * than the waits add up to, so the doubling goes on instead of falling back after the longest wait.
 */
export const WINDOW_FACTOR = 4;
/** The first wait past a limit; each further failure doubles it, up to the lockout. */
export const FIRST_DELAY_SECONDS = 30;
/** Keys are built from user input: cap their length so an attacker cannot write large rows. */
const MAX_KEY_INPUT = 200;

export interface ThrottleKeys {
  user: string;
  address: string;
  pair: string;
}

export function throttleKeys(username: string, address: string): ThrottleKeys {
  // Usernames are matched case-insensitively here so "Alice" and "alice" share one counter.
  const user = username.toLowerCase().slice(0, MAX_KEY_INPUT);
  const ip = address.slice(0, MAX_KEY_INPUT);
  return { user: `user:${user}`, address: `ip:${ip}`, pair: `pair:${user}|${ip}` };
}

/** Every pair key of a username starts with this (an unlock clears them all). */
export const pairPrefix = (username: string): string => `pair:${username.toLowerCase().slice(0, MAX_KEY_INPUT)}|`;

const ms = (seconds: number): number => seconds * 1000;

/**
 * Seconds until the key may try again, or 0. `times` are the key's failure times in ms, newest first. Past `limit`
 * failures within WINDOW_FACTOR lockouts of the latest one, the wait is FIRST_DELAY_SECONDS doubled for each failure
 * beyond the limit, capped at the lockout, counted from the latest failure.
 */
export function waitFor(times: number[], limit: number, settings: ThrottleSettings, now: number): number {
  const latest = times[0];
  if (latest === undefined) return 0;
  const recent = times.filter((t) => t >= latest - ms(WINDOW_FACTOR * settings.lockoutSeconds)).length;
  if (recent < limit) return 0;
  const delay = Math.min(settings.lockoutSeconds, FIRST_DELAY_SECONDS * 2 ** Math.min(recent - limit, 30));
  const until = latest + ms(delay);
  return until <= now ? 0 : Math.ceil((until - now) / 1000);
}

export interface Attempt {
  /** Seconds to wait before trying again; 0 when the attempt may go ahead. */
  retryAfter: number;
  /** The username from anywhere is past its limit (its owner may need the unlock link). */
  userHeldBack: boolean;
  /** The provisional failure rows this attempt wrote (user key, address key, pair key). */
  ids: [string, string, string];
}

/**
 * Starts a sign-in attempt. The attempt is written as a failure *before* the password is checked and the counts are
 * read afterwards, so a burst of parallel guesses (on one replica or many) sees itself and is mostly refused; a
 * check-then-record order would let every request of the burst through. A refused attempt removes its rows again,
 * so waiting out the lock is enough to get in.
 */
export async function beginAttempt(
  db: Db,
  keys: ThrottleKeys,
  settings: ThrottleSettings,
  now: Date,
): Promise<Attempt> {
  const at = isoTimestamp(now);
  const ids: [string, string, string] = [newId(), newId(), newId()];
  await db
    .insertInto('login_failures')
    .values([
      { id: ids[0], throttle_key: keys.user, failed_at: at },
      { id: ids[1], throttle_key: keys.address, failed_at: at },
      { id: ids[2], throttle_key: keys.pair, failed_at: at },
    ])
    .execute();
  // A wait depends on failures at most 2 x WINDOW_FACTOR lockouts old.
  const since = isoTimestamp(new Date(now.getTime() - 2 * WINDOW_FACTOR * ms(settings.lockoutSeconds)));
  const rows = await db
    .selectFrom('login_failures')
    .select(['id', 'throttle_key', 'failed_at'])
    .where('throttle_key', 'in', [keys.user, keys.address, keys.pair])
    .where('failed_at', '>', since)
    .orderBy('failed_at', 'desc')
    .execute();
  const timesOf = (key: string) =>
    rows
      .filter((r) => r.throttle_key === key && !ids.includes(r.id as string))
      .map((r) => Date.parse(r.failed_at as string));
  const userWait = waitFor(timesOf(keys.user), settings.maxFailures * ADDRESS_FACTOR, settings, now.getTime());
  const retryAfter = Math.max(
    userWait,
    waitFor(timesOf(keys.pair), settings.maxFailures, settings, now.getTime()),
    waitFor(timesOf(keys.address), settings.maxFailures * ADDRESS_FACTOR, settings, now.getTime()),
  );
  if (retryAfter > 0) await db.deleteFrom('login_failures').where('id', 'in', ids).execute();
  return {
    retryAfter,
    userHeldBack: userWait > 0 || timesOf(keys.user).length + 1 >= settings.maxFailures * ADDRESS_FACTOR,
    ids,
  };
}

/**
 * A successful sign-in clears the username's failures (from anywhere, and from this address). The address keeps its
 * earlier failures: otherwise one valid account would let an attacker reset the address limit while guessing other
 * users' passwords.
 */
export async function attemptSucceeded(db: Db, keys: ThrottleKeys, attempt: Attempt): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where((eb) => eb.or([eb('throttle_key', 'in', [keys.user, keys.pair]), eb('id', '=', attempt.ids[1])]))
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
  const stale = isoTimestamp(new Date(now.getTime() - 2 * WINDOW_FACTOR * ms(settings.lockoutSeconds)));
  await db.deleteFrom('login_failures').where('failed_at', '<=', stale).execute();
}
