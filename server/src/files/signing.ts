import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { LruMap } from '../lib/lru.js';

/**
 * File links are signed so that a plain <a href> downloads a file for a few minutes without a bearer token. The
 * secret comes from FILE_LINK_SECRET, or is made once and kept in the database so every replica signs alike.
 */
export async function loadFileLinkSecret(db: Db, configured?: string): Promise<string> {
  if (configured) return configured;
  const existing = await db.selectFrom('settings').select('value').where('name', '=', 'file_link_secret').executeTakeFirst();
  if (existing) return existing.value as string;
  const value = randomBytes(32).toString('base64url');
  // Two replicas starting at once: the second insert loses and both read the winner.
  await db.insertInto('settings').values({ name: 'file_link_secret', value }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('settings').select('value').where('name', '=', 'file_link_secret').executeTakeFirstOrThrow();
  return row.value as string;
}

/** Links expire on a whole minute (see linkExpiry). */
export const LINK_EXPIRY_STEP_SECONDS = 60;

/**
 * When a link made at `now` expires: `ttlSeconds` later, rounded up to the next whole minute. So a list read again
 * within the minute carries the very same links, and their signatures are looked up, not computed again: an HMAC per
 * file was 7 % of the invoices page's CPU (two PDFs per invoice; docs/PERFORMANCE.md). A link lives between
 * `ttlSeconds` and a minute more.
 */
export function linkExpiry(now: Date, ttlSeconds: number): number {
  const earliest = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return Math.ceil(earliest / LINK_EXPIRY_STEP_SECONDS) * LINK_EXPIRY_STEP_SECONDS;
}

function signature(secret: string, fileId: string, expires: number): string {
  return createHmac('sha256', secret).update(`${fileId}:${expires}`).digest('base64url');
}

/**
 * Signatures of the links handed out, by secret, file and expiry. A cache of values any replica computes alike, not
 * state: a second replica signs the same link with the same result. Old expiries are never asked for again and fall
 * out as new ones come in.
 */
const issued = new LruMap<string>(20_000);

export function signedFilePath(secret: string, fileId: string, filename: string, expires: number): string {
  const key = `${secret}:${fileId}:${expires}`;
  let signed = issued.get(key);
  if (signed === undefined) {
    signed = signature(secret, fileId, expires);
    issued.set(key, signed);
  }
  return `/files/${fileId}/${encodeURIComponent(filename)}?expires=${expires}&signature=${signed}`;
}

/** True when the signature is ours and the link has not expired. Computed afresh, so that links someone makes up do not fill the cache. */
export function verifyFileSignature(secret: string, fileId: string, expires: string | undefined, given: string | undefined, nowSeconds: number): boolean {
  if (!expires || !given || !/^\d+$/.test(expires)) return false;
  const exp = Number(expires);
  if (exp < nowSeconds) return false;
  const expected = Buffer.from(signature(secret, fileId, exp));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
