import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';

// Count scrypt calls to prove the unknown-user path does the same work as a real check.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});

const { dummyVerifyPassword, hashPassword, needsRehash, passwordPolicyProblem, verifyPassword } = await import('./passwords.js');

describe('passwords', () => {
  it('hashes into a self-describing scrypt string with a random salt', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(needsRehash(a)).toBe(false);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterz', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('verifies hashes made with other parameters, and flags weaker ones for rehashing', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const hash = crypto.scryptSync('old password!', salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = `scrypt$1024$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
    expect(await verifyPassword('old password!', stored)).toBe(true);
    expect(needsRehash(stored)).toBe(true);
  });

  it('answers false for malformed or absent hashes, after doing a full scrypt', async () => {
    const scrypt = vi.mocked(crypto.scrypt);
    await verifyPassword('warm up', null); // the first call also makes the dummy hash
    for (const stored of [null, undefined, '', 'md5$abc', 'scrypt$99999999$8$1$AAAA$BBBB']) {
      scrypt.mockClear();
      expect(await verifyPassword('anything at all', stored)).toBe(false);
      expect(scrypt).toHaveBeenCalledTimes(1);
      expect(scrypt.mock.calls[0][3]).toMatchObject({ N: 32768, r: 8, p: 1 });
    }
    scrypt.mockClear();
    expect(await dummyVerifyPassword('anything at all')).toBe(false);
    expect(scrypt).toHaveBeenCalledTimes(1);
  });

  it('enforces a minimum length of 10 characters', () => {
    expect(passwordPolicyProblem('short')).toMatch(/at least 10/);
    expect(passwordPolicyProblem('123456789')).toMatch(/at least 10/);
    expect(passwordPolicyProblem('1234567890')).toBeNull();
    expect(passwordPolicyProblem('          ')).toMatch(/spaces/);
    expect(passwordPolicyProblem('x'.repeat(2000))).toMatch(/at most/);
  });
});
