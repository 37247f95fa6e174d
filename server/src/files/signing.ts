import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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

function signature(secret: string, fileId: string, expires: number): string {
  return createHmac('sha256', secret).update(`${fileId}:${expires}`).digest('base64url');
}

export function signedFilePath(secret: string, fileId: string, filename: string, expires: number): string {
  return `/files/${fileId}/${encodeURIComponent(filename)}?expires=${expires}&signature=${signature(secret, fileId, expires)}`;
}

/** True when the signature is ours and the link has not expired. */
export function verifyFileSignature(secret: string, fileId: string, expires: string | undefined, given: string | undefined, nowSeconds: number): boolean {
  if (!expires || !given || !/^\d+$/.test(expires)) return false;
  const exp = Number(expires);
  if (exp < nowSeconds) return false;
  const expected = Buffer.from(signature(secret, fileId, exp));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
