import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';

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
 * The signatures of the links handed out for the latest expiry, by file. A cache of values any replica computes
 * alike, not state: a second replica signs the same link with the same result. Links of one minute share an expiry, so
 * when it moves on the whole map is dropped (a map by file id: a key made of secret, file and expiry, in a least
 * recently used map, cost half of the HMAC it saved). Bounded, for a minute in which very many files are listed.
 */
const MAX_KEPT_SIGNATURES = 50_000;
let kept: { secret: string; expires: number; byFile: Map<string, string> } | null = null;

function keptSignature(secret: string, fileId: string, expires: number): string {
  if (!kept || kept.expires !== expires || kept.secret !== secret) kept = { secret, expires, byFile: new Map() };
  let signed = kept.byFile.get(fileId);
  if (signed === undefined) {
    signed = signature(secret, fileId, expires);
    if (kept.byFile.size >= MAX_KEPT_SIGNATURES) kept.byFile.clear();
    kept.byFile.set(fileId, signed);
  }
  return signed;
}

export function signedFilePath(secret: string, fileId: string, filename: string, expires: number): string {
  return `/files/${fileId}/${encodeURIComponent(filename)}?expires=${expires}&signature=${keptSignature(secret, fileId, expires)}`;
}

/** The signed path a document hands out for a file now: valid for FILE_LINK_TTL, to the next whole minute. */
export function fileLinkPath(ctx: Pick<AppContext, 'clock' | 'config' | 'fileLinkSecret'>, fileId: string, filename: string): string {
  return signedFilePath(ctx.fileLinkSecret, fileId, filename, linkExpiry(ctx.clock.now(), ctx.config.fileLinkTtl));
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
