import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored as `scrypt$N$r$p$salt$hash` (salt and hash base64url), so the cost can be raised later
 * without a migration: old hashes keep their own parameters and are still verified.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
/** scrypt needs 128 * N * r bytes; Node's default 32 MiB cap is exactly N=2^15, r=8, so leave headroom. */
const MAX_MEMORY = 256 * 1024 * 1024;
/** Refuse stored parameters that would let a corrupt row exhaust memory or CPU. */
const MAX_N = 2 ** 20;

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

interface Parsed { N: number; r: number; p: number; salt: Buffer; hash: Buffer }

function derive(plain: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(plain.normalize('NFC'), salt, length, { ...options, maxmem: MAX_MEMORY }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(plain, salt, KEY_LENGTH, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const hash = Buffer.from(parts[5], 'base64url');
  const sane = [N, r, p].every(Number.isSafeInteger) && N > 1 && N <= MAX_N && (N & (N - 1)) === 0 && r > 0 && r <= 32 && p > 0 && p <= 16;
  return sane && salt.length > 0 && hash.length >= 16 ? { N, r, p, salt, hash } : null;
}

/** A real hash of a random password, made once: verifying against it costs what a real verification costs. */
let dummy: Promise<string> | undefined;
const dummyHash = (): Promise<string> => (dummy ??= hashPassword(randomBytes(16).toString('hex')));

/**
 * True when `plain` matches `stored`. With no stored hash (unknown user, or one who never set a password) it still
 * runs a full scrypt against a dummy hash and answers false, so response time does not tell whether a user exists.
 */
export async function verifyPassword(plain: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  if (!parsed) {
    await verifyPassword(plain, await dummyHash());
    return false;
  }
  const candidate = await derive(plain, parsed.salt, parsed.hash.length, { N: parsed.N, r: parsed.r, p: parsed.p });
  return timingSafeEqual(candidate, parsed.hash);
}

/** Burns the same time as a verification; for callers that know up front the answer is no. */
export async function dummyVerifyPassword(plain: string): Promise<false> {
  await verifyPassword(plain, null);
  return false;
}

/** True when a stored hash uses weaker parameters than today's, so the caller can rehash after a good sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.N < COST.N || parsed.r < COST.r || parsed.p < COST.p;
}

/** The password policy: null when acceptable, otherwise a message for the user. */
export function passwordPolicyProblem(plain: string): string | null {
  const length = [...plain].length;
  if (length < MIN_PASSWORD_LENGTH) return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  if (length > MAX_PASSWORD_LENGTH) return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`;
  if (plain.trim() === '') return 'The password must not be only spaces.';
  return null;
}
