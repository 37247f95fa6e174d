import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordRuleBroken } from '@pecan/contract';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';

/**
 * New passwords are stored as Argon2id PHC strings, `$argon2id$v=19$m=19456,t=2,p=1$salt$hash` (OWASP's first
 * recommendation; docs/decisions/0004-argon2id-passwords.md). Hashes made before that are `scrypt$N$r$p$salt$hash`
 * (salt and hash base64url): they are still verified, and `needsRehash` flags them so a good sign-in stores an
 * Argon2id hash instead. Every hash carries its own parameters, so the cost can be raised later without a migration.
 * The password is NFC-normalised before hashing or checking, for both formats.
 */
/** Argon2id: m in KiB (19 MiB), t passes, p lanes. */
const ARGON2_COST = { m: 19456, t: 2, p: 1 };
/** `Algorithm.Argon2id`: the package's enum is a `const enum`, which isolated modules cannot read from its types. */
const ARGON2ID = 2 as Algorithm;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

/** Refuse stored parameters that would let a corrupt row exhaust memory or CPU: 256 MiB for either algorithm. */
const MAX_MEMORY = 256 * 1024 * 1024;
const MAX_ARGON2_T = 20;
const MAX_ARGON2_P = 16;
/** scrypt needs 128 * N * r bytes; Node's default 32 MiB cap is exactly N=2^15, r=8, so it is raised to MAX_MEMORY. */
const MAX_N = 2 ** 20;

// The rule itself lives in the contract, shared with the web app's forms.
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH };

interface Argon2Parsed {
  kind: 'argon2id';
  m: number;
  t: number;
  p: number;
  saltBytes: number;
  hashBytes: number;
}
interface ScryptParsed {
  kind: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}
type Parsed = Argon2Parsed | ScryptParsed;

export async function hashPassword(plain: string): Promise<string> {
  return argon2Hash(plain.normalize('NFC'), {
    algorithm: ARGON2ID,
    memoryCost: ARGON2_COST.m,
    timeCost: ARGON2_COST.t,
    parallelism: ARGON2_COST.p,
    outputLen: KEY_LENGTH,
    salt: randomBytes(SALT_BYTES),
  });
}

/** Argon2id, version 0x13 only, the parameters in PHC order and nothing else (no keyid or data). Base64 unpadded. */
const ARGON2ID_PHC =
  /^\$argon2id\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,86})\$([A-Za-z0-9+/]{22,86})$/;
const base64Bytes = (text: string): number => Math.floor((text.length * 3) / 4);

function parseArgon2id(stored: string): Argon2Parsed | null {
  const match = ARGON2ID_PHC.exec(stored);
  if (!match) return null;
  const [m, t, p] = match.slice(1, 4).map(Number);
  const saltBytes = base64Bytes(match[4]);
  const hashBytes = base64Bytes(match[5]);
  // Argon2 itself needs m >= 8p; salts of 8 bytes or more and outputs of 16 or more are what we accept.
  const sane = p >= 1 && p <= MAX_ARGON2_P && t >= 1 && t <= MAX_ARGON2_T && m >= 8 * p && m * 1024 <= MAX_MEMORY;
  return sane && saltBytes >= 8 && hashBytes >= 16 ? { kind: 'argon2id', m, t, p, saltBytes, hashBytes } : null;
}

function parseScrypt(stored: string): ScryptParsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const hash = Buffer.from(parts[5], 'base64url');
  const sane =
    [N, r, p].every(Number.isSafeInteger) &&
    N > 1 &&
    N <= MAX_N &&
    (N & (N - 1)) === 0 &&
    r > 0 &&
    r <= 32 &&
    p > 0 &&
    p <= 16 &&
    128 * N * r <= MAX_MEMORY;
  return sane && salt.length > 0 && hash.length >= 16 ? { kind: 'scrypt', N, r, p, salt, hash } : null;
}

function parse(stored: string): Parsed | null {
  return stored.startsWith('$argon2id$') ? parseArgon2id(stored) : parseScrypt(stored);
}

function deriveScrypt(plain: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(plain.normalize('NFC'), salt, length, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** A real Argon2id hash of a random password, made once: verifying against it costs what a real verification costs. */
let dummy: Promise<string> | undefined;
const dummyHash = (): Promise<string> => (dummy ??= hashPassword(randomBytes(16).toString('hex')));

async function check(plain: string, stored: string, parsed: Parsed): Promise<boolean> {
  try {
    if (parsed.kind === 'argon2id') return await argon2Verify(stored, plain.normalize('NFC'));
    const candidate = await deriveScrypt(plain, parsed.salt, parsed.hash.length, {
      N: parsed.N,
      r: parsed.r,
      p: parsed.p,
    });
    return timingSafeEqual(candidate, parsed.hash);
  } catch {
    return false; // a row that passed the checks above but that the algorithm still refuses: no match, not an error
  }
}

/**
 * True when `plain` matches `stored`. With no usable stored hash (unknown user, one who never set a password, or a
 * corrupt row) it still runs a full Argon2id check against a dummy hash and answers false, so response time does not
 * tell whether a user exists. Never throws for a bad stored hash.
 */
export async function verifyPassword(plain: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  if (!stored || !parsed) {
    const fake = await dummyHash();
    await check(plain, fake, parseArgon2id(fake)!);
    return false;
  }
  return check(plain, stored, parsed);
}

/** Burns the same time as a verification; for callers that know up front the answer is no. */
export async function dummyVerifyPassword(plain: string): Promise<false> {
  await verifyPassword(plain, null);
  return false;
}

/**
 * True when a stored hash should be replaced after a good sign-in: every scrypt hash, an Argon2id hash weaker than
 * today's parameters (memory, passes, salt or output length), and anything unreadable.
 */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed || parsed.kind === 'scrypt') return true;
  return (
    parsed.m < ARGON2_COST.m ||
    parsed.t < ARGON2_COST.t ||
    parsed.saltBytes < SALT_BYTES ||
    parsed.hashBytes < KEY_LENGTH
  );
}

/** The password policy: null when acceptable, otherwise a message for the user. */
export function passwordPolicyProblem(plain: string): string | null {
  switch (passwordRuleBroken(plain)) {
    case 'tooShort':
      return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
    case 'tooLong':
      return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`;
    case 'blank':
      return 'The password must not be only spaces.';
    default:
      return null;
  }
}
