import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { isoTimestamp, systemClock, type Clock } from '../lib/time.js';
import { invalidClient } from './errors.js';

/** The web app's client: public (a browser cannot keep a secret), so it authenticates with its id alone. */
export const WEB_CLIENT_ID = 'portal-web';

export interface OAuthClient {
  id: string;
  label: string;
  confidential: boolean;
}

/**
 * Client secrets are generated here (32 random bytes), so a single SHA-256 is enough to store them: there is no
 * low-entropy secret for a slow hash to protect. The prefix keeps the stored form self-describing.
 */
const hashSecret = (secret: string): string => `sha256$${createHash('sha256').update(secret).digest('base64url')}`;

/** Creates the clients the portal needs if they are missing. Safe to call at every start-up and from every replica. */
export async function ensureOAuthClients(db: Db, clock: Clock = systemClock): Promise<void> {
  await db
    .insertInto('oauth_clients')
    .values({
      id: WEB_CLIENT_ID,
      label: 'Handler Portal web app',
      secret_hash: null,
      created: isoTimestamp(clock.now()),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Registers a confidential client (e.g. an integration) and returns its secret, which is shown once and never stored.
 */
export async function createConfidentialClient(
  db: Db,
  id: string,
  label: string,
  clock: Clock = systemClock,
): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await db
    .insertInto('oauth_clients')
    .values({ id, label, secret_hash: hashSecret(secret), created: isoTimestamp(clock.now()) })
    .execute();
  return secret;
}

function secretMatches(given: string, stored: string): boolean {
  const a = Buffer.from(hashSecret(given));
  const b = Buffer.from(stored);
  // Both are digests of fixed length, so the length check reveals nothing about the secret.
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a client's credentials; throws invalid_client otherwise. A public client needs no secret, and one sent
 * anyway is ignored (older front ends send a secret with every call).
 */
export async function authenticateClient(db: Db, clientId: string, secret: string | undefined): Promise<OAuthClient> {
  const row = await db
    .selectFrom('oauth_clients')
    .select(['id', 'label', 'secret_hash'])
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (!row) throw invalidClient();
  if (row.secret_hash === null) return { id: row.id, label: row.label, confidential: false };
  if (!secret || !secretMatches(secret, row.secret_hash)) throw invalidClient();
  return { id: row.id, label: row.label, confidential: true };
}
