import * as argon2 from '@node-rs/argon2';
import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';

// Count the algorithms' calls to prove the unknown-user path does the same work as a real check.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...actual, hash: vi.fn(actual.hash), verify: vi.fn(actual.verify) };
});

const { dummyVerifyPassword, hashPassword, needsRehash, passwordPolicyProblem, verifyPassword } =
  await import('./passwords.js');

/** A scrypt hash as the portal stored them before Argon2id (same format, a smaller N to keep the test quick). */
function scryptHash(plain: string): string {
  const salt = Buffer.from('0123456789abcdef');
  const hash = crypto.scryptSync(plain.normalize('NFC'), salt, 32, { N: 1024, r: 8, p: 1 });
  return `scrypt$1024$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** An Argon2id hash with chosen parameters, made by the library directly. */
const argon2idHash = (plain: string, m: number, t: number) =>
  argon2.hash(plain, { algorithm: 2 as argon2.Algorithm, memoryCost: m, timeCost: t, parallelism: 1 });

describe('passwords', () => {
  it('hashes into an Argon2id PHC string with OWASP parameters and a random salt', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    // 16-byte salt (22 base64 characters) and 32-byte hash (43), unpadded standard base64 as PHC has it.
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(needsRehash(a)).toBe(false);
    expect(argon2.parseOptions(a)).toMatchObject({
      algorithm: 2,
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
      outputLen: 32,
      saltLen: 16,
    });
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterz', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('verifies an old scrypt hash, refuses a wrong password against it, and flags it for rehashing', async () => {
    const stored = scryptHash('old password!');
    expect(await verifyPassword('old password!', stored)).toBe(true);
    expect(await verifyPassword('old password?', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('verifies a fixed, known scrypt hash (the stored format of earlier releases)', async () => {
    // Made for "demo-pecans-2026" with N=2^15, r=8, p=1, and checked against the former passwords.ts.
    const stored = 'scrypt$32768$8$1$iZA27HxpObcjaeHz4INFpQ$PW3hZ03ccAlchjLya6GcMPQugflX7hd58pCukas25GA';
    expect(await verifyPassword('demo-pecans-2026', stored)).toBe(true);
    expect(await verifyPassword('demo-pecans-2027', stored)).toBe(false);
  });

  it('verifies Argon2id hashes made with other parameters, and flags only weaker ones', async () => {
    const weakMemory = await argon2idHash('some password', 4096, 3);
    const weakPasses = await argon2idHash('some password', 19456, 1);
    const stronger = await argon2idHash('some password', 32768, 3);
    for (const stored of [weakMemory, weakPasses, stronger])
      expect(await verifyPassword('some password', stored)).toBe(true);
    expect(needsRehash(weakMemory)).toBe(true);
    expect(needsRehash(weakPasses)).toBe(true);
    expect(needsRehash(stronger)).toBe(false);
  });

  it('treats NFC and NFD spellings of a password as the same, for both formats', async () => {
    const nfc = 'Crème brûlée pecans'.normalize('NFC');
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    const stored = await hashPassword(nfd);
    expect(await verifyPassword(nfc, stored)).toBe(true);
    expect(await verifyPassword(nfd, stored)).toBe(true);
    const old = scryptHash(nfc);
    expect(await verifyPassword(nfd, old)).toBe(true);
  });

  it('answers false without throwing for malformed, corrupt or absurd hashes, after a full Argon2id check', async () => {
    const verify = vi.mocked(argon2.verify);
    const scrypt = vi.mocked(crypto.scrypt);
    await verifyPassword('warm up', null); // the first call also makes the dummy hash
    const good = await hashPassword('anything at all');
    const [, , , params, salt, digest] = good.split('$');
    const corrupt = [
      null,
      undefined,
      '',
      'md5$abc',
      'scrypt$99999999$8$1$AAAA$BBBB',
      'scrypt$1048576$8$1$MDEyMzQ1Njc4OWFiY2RlZg$ffSxZQvzq5mqfKgVH_Mwb5u7wSa-vS24gPXf6bThU8k', // 1 GiB of scrypt
      `$argon2id$v=19$m=2097152,t=2,p=1$${salt}$${digest}`, // 2 GiB
      `$argon2id$v=19$m=19456,t=21,p=1$${salt}$${digest}`,
      `$argon2id$v=19$m=19456,t=2,p=17$${salt}$${digest}`,
      `$argon2id$v=19$m=19456,t=0,p=1$${salt}$${digest}`,
      `$argon2id$v=19$m=4,t=2,p=1$${salt}$${digest}`, // below Argon2's minimum of 8p KiB
      `$argon2id$v=19$m=99999999999,t=2,p=1$${salt}$${digest}`,
      `$argon2id$v=16$${params}$${salt}$${digest}`,
      `$argon2i$v=19$${params}$${salt}$${digest}`,
      `$argon2id$v=19$${params},keyid=abc$${salt}$${digest}`,
      `$argon2id$v=19$${params}$${salt}`,
      `$argon2id$v=19$${params}$AAAA$${digest}`, // a 3-byte salt
      `$argon2id$v=19$${params}$${salt}$${digest.slice(0, 10)}`,
      `$argon2id$v=19$${params}$${salt}$${digest}=`,
      `${good} `,
    ];
    for (const stored of corrupt) {
      verify.mockClear();
      scrypt.mockClear();
      await expect(verifyPassword('anything at all', stored), String(stored)).resolves.toBe(false);
      expect(verify, String(stored)).toHaveBeenCalledTimes(1);
      expect(String(verify.mock.calls[0][0])).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(scrypt).not.toHaveBeenCalled();
      if (stored) expect(needsRehash(stored)).toBe(true);
    }
    verify.mockClear();
    expect(await dummyVerifyPassword('anything at all')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('answers false without throwing when a well-formed Argon2id row still cannot be checked', async () => {
    const good = await hashPassword('anything at all');
    const parts = good.split('$');
    // 13 base64 characters cannot be decoded; the format check lets it through, the algorithm refuses it.
    const bad = [...parts.slice(0, 4), 'AAAAAAAAAAAAA', parts[5]].join('$');
    await expect(verifyPassword('anything at all', bad)).resolves.toBe(false);
  });

  it('enforces a minimum length of 10 characters', () => {
    expect(passwordPolicyProblem('short')).toMatch(/at least 10/);
    expect(passwordPolicyProblem('123456789')).toMatch(/at least 10/);
    expect(passwordPolicyProblem('1234567890')).toBeNull();
    expect(passwordPolicyProblem('          ')).toMatch(/spaces/);
    expect(passwordPolicyProblem('x'.repeat(2000))).toMatch(/at most/);
  });
});
