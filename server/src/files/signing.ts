import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';

/**
 * File links are signed so that a plain <a href> downloads a file for a few minutes without a bearer token. The
 * secret comes from FILE_LINK_SECRET, or is made once and kept in the database so every replica signs alike.
 */
export async function loadFileLinkSecret(db: Db, configured?: string): Promise<string> {
  if (configured) return configured;
  const existing = await db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', 'file_link_secret')
    .executeTakeFirst();
  if (existing) return existing.value as string;
  const value = randomBytes(32).toString('base64url');
  // Two replicas starting at once: the second insert loses and both read the winner.
  await db
    .insertInto('settings')
    .values({ name: 'file_link_secret', value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', 'file_link_secret')
    .executeTakeFirstOrThrow();
  return row.value as string;
}

/** Links expire on a whole minute of their reader's own (see linkExpiry). */
export const LINK_EXPIRY_STEP_SECONDS = 60;

/**
 * The second of the minute at which a reader's links roll over, from the reader's user id: the same on every replica,
 * and spread over the minute across readers.
 */
export function linkPhase(readerId: string): number {
  // FNV-1a, then MurmurHash3's finalizer: ids that differ in one character land on unrelated seconds (a plain
  // multiply-and-add put 600 numbered ids 1 to 23 to a second).
  let hash = 0x811c9dc5;
  for (let i = 0; i < readerId.length; i += 1) hash = Math.imul(hash ^ readerId.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % LINK_EXPIRY_STEP_SECONDS;
}

/**
 * When a link made at `now` for a reader expires: `ttlSeconds` later, rounded up to the next whole minute of the
 * reader's own (minutes that end at the reader's second, linkPhase). So a document read again within the minute carries
 * the very same links and can be sent again as it was kept (jsonapi/document-cache.ts). The minute is the reader's own
 * so that kept documents do not all go stale at the same second: on the wall clock's minute, every reader's pages were
 * built again at once, in every worker (200 readers' invoice pages, a p99 of 66 ms on the invoices page;
 * decision 0007). A link lives between `ttlSeconds` and a minute more.
 */
export function linkExpiry(now: Date, ttlSeconds: number, readerId: string): number {
  const phase = linkPhase(readerId);
  const earliest = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return Math.ceil((earliest - phase) / LINK_EXPIRY_STEP_SECONDS) * LINK_EXPIRY_STEP_SECONDS + phase;
}

/** When the links a reader is handed now expire, by the configured FILE_LINK_TTL. */
export function readerLinkExpiry(ctx: Pick<AppContext, 'config'>, readerId: string, now: Date): number {
  return linkExpiry(now, ctx.config.fileLinkTtl, readerId);
}

function signature(secret: string, fileId: string, expires: number, session: string): string {
  return createHmac('sha256', secret).update(`${fileId}:${expires}:${session}`).digest('base64url');
}

/**
 * A signed path to a file, bound to the sign-in (the session, a token family) that was handed it: when that session
 * ends (signing out, ended from the sessions list, a password change or reset, blocking), the link stops working
 * even before it expires (files/routes.ts). The signature is computed each time: documents that carry links are
 * kept whole by the document cache, so a link is signed when its document is built, about once a minute per reader
 * session and page.
 */
export function signedFilePath(
  secret: string,
  fileId: string,
  filename: string,
  expires: number,
  session: string,
): string {
  return `/files/${fileId}/${encodeURIComponent(filename)}?expires=${expires}&session=${encodeURIComponent(session)}&signature=${signature(secret, fileId, expires, session)}`;
}

/** A file's signed path, as the links a reader is handed now carry it. */
export type FileLinkSigner = (fileId: string, filename: string) => string;

/** Signs a session's links to files with one expiry, so that every link in one answer expires alike. */
export function fileLinkSigner(
  ctx: Pick<AppContext, 'fileLinkSecret'>,
  expires: number,
  session: string,
): FileLinkSigner {
  return (fileId, filename) => signedFilePath(ctx.fileLinkSecret, fileId, filename, expires, session);
}

/**
 * The session a link was signed for, when the signature is ours and the link has not expired; null otherwise. The
 * caller still checks that the session has not ended.
 */
export function verifyFileSignature(
  secret: string,
  fileId: string,
  expires: string | undefined,
  session: string | undefined,
  given: string | undefined,
  nowSeconds: number,
): string | null {
  if (!expires || !given || !session || session.length > 64 || !/^\d+$/.test(expires)) return null;
  const exp = Number(expires);
  if (exp < nowSeconds) return null;
  const expected = Buffer.from(signature(secret, fileId, exp, session));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? session : null;
}
