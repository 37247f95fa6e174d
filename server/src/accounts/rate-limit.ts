import type { Db } from '../db/database.js';
import { isoTimestamp, newId } from '../lib/time.js';

/**
 * Fixed-window-per-event rate limits kept in the database (rate_limit_events), so every replica sees the same
 * counts: a key (a client address, an e-mail address) may do at most `limit` things per `windowSeconds`.
 *
 * The event is written first and the count read afterwards, so a parallel burst sees itself and cannot all slip
 * through a check-then-write gap; a refused event is removed again, so waiting out the window is enough.
 */
export interface RateRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** Keys are built from user input: cap their length so nobody can write large rows. */
const MAX_KEY_LENGTH = 200;
export const rateKey = (kind: string, value: string): string =>
  `${kind}:${value.toLowerCase()}`.slice(0, MAX_KEY_LENGTH);

/** Records the event and answers 0 when it is allowed, otherwise the seconds until it would be. */
export async function takeRateSlot(db: Db, rule: RateRule, now: Date): Promise<number> {
  const id = newId();
  const windowStart = isoTimestamp(new Date(now.getTime() - rule.windowSeconds * 1000));
  // Old events of this key no longer matter; deleting them keeps the table proportional to recent traffic.
  await db
    .deleteFrom('rate_limit_events')
    .where('throttle_key', '=', rule.key)
    .where('occurred_at', '<=', windowStart)
    .execute();
  await db
    .insertInto('rate_limit_events')
    .values({ id, throttle_key: rule.key, occurred_at: isoTimestamp(now) })
    .execute();
  const rows = await db
    .selectFrom('rate_limit_events')
    .select(['id', 'occurred_at'])
    .where('throttle_key', '=', rule.key)
    .where('occurred_at', '>', windowStart)
    .orderBy('occurred_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const others = rows.filter((r) => r.id !== id);
  if (others.length < rule.limit) return 0;
  await db.deleteFrom('rate_limit_events').where('id', '=', id).execute();
  // Allowed again once enough of the window's events have aged out.
  const oldestThatMustExpire = others[others.length - rule.limit];
  const retry = Date.parse(oldestThatMustExpire.occurred_at as string) + rule.windowSeconds * 1000 - now.getTime();
  return Math.max(1, Math.ceil(retry / 1000));
}
