import { describe, expect, it } from 'vitest';
import { fileLinkPath, LINK_EXPIRY_STEP_SECONDS, linkExpiry, signedFilePath, verifyFileSignature } from './signing.js';

const secret = 'a-secret-of-this-test';
const expiresOf = (path: string) => Number(new URL(path, 'http://x').searchParams.get('expires'));
const signatureOf = (path: string) => new URL(path, 'http://x').searchParams.get('signature')!;

describe('signed file links', () => {
  it('expire at least the TTL from now, on a whole minute, less than a minute later than that', () => {
    for (const ms of [Date.UTC(2026, 10, 24, 6, 0, 0), Date.UTC(2026, 10, 24, 6, 0, 0, 1), Date.UTC(2026, 10, 24, 6, 0, 59, 999), Date.UTC(2026, 10, 24, 6, 1, 30)]) {
      const now = new Date(ms);
      const expires = linkExpiry(now, 600);
      const earliest = Math.floor(ms / 1000) + 600;
      expect(expires % LINK_EXPIRY_STEP_SECONDS).toBe(0);
      expect(expires).toBeGreaterThanOrEqual(earliest);
      expect(expires - earliest).toBeLessThan(LINK_EXPIRY_STEP_SECONDS);
    }
  });

  it('are the same text for the same file within a minute, and another for the next minute', () => {
    const at = (s: number) => signedFilePath(secret, '42', 'form 1.pdf', linkExpiry(new Date(Date.UTC(2026, 10, 24, 6, 0, s)), 600));
    expect(at(1)).toBe(at(59));
    expect(at(1)).toBe('/files/42/form%201.pdf?expires=' + expiresOf(at(1)) + '&signature=' + signatureOf(at(1)));
    expect(expiresOf(at(61))).toBe(expiresOf(at(1)) + 60);
    expect(signatureOf(at(61))).not.toBe(signatureOf(at(1)));
  });

  it('verify for their own file, secret and expiry only, whether the signature was computed or kept', () => {
    const now = Math.floor(Date.UTC(2026, 10, 24, 6, 0, 0) / 1000);
    const expires = now + 600;
    const first = signedFilePath(secret, '42', 'a.pdf', expires);
    const kept = signedFilePath(secret, '42', 'a.pdf', expires);
    expect(kept).toBe(first);
    const sig = signatureOf(first);
    expect(verifyFileSignature(secret, '42', String(expires), sig, now)).toBe(true);
    expect(verifyFileSignature(secret, '43', String(expires), sig, now)).toBe(false);
    expect(verifyFileSignature('another-secret', '42', String(expires), sig, now)).toBe(false);
    expect(verifyFileSignature(secret, '42', String(expires + 60), sig, now)).toBe(false);
    expect(verifyFileSignature(secret, '42', String(expires), sig, expires + 1)).toBe(false);
    // Another secret signing the same file and expiry gets its own signature, not the one kept for the first.
    expect(signatureOf(signedFilePath('another-secret', '42', 'a.pdf', expires))).not.toBe(sig);
  });

  it("a document's link for a file now: expires by the configured TTL on a whole minute, and verifies", () => {
    const now = new Date(Date.UTC(2026, 10, 24, 6, 0, 20));
    const ctx = { fileLinkSecret: secret, clock: { now: () => now }, config: { fileLinkTtl: 300 } } as Parameters<typeof fileLinkPath>[0];
    const path = fileLinkPath(ctx, '42', 'a.pdf');
    expect(expiresOf(path)).toBe(linkExpiry(now, 300));
    expect(path).toBe(signedFilePath(secret, '42', 'a.pdf', linkExpiry(now, 300)));
    expect(verifyFileSignature(secret, '42', String(expiresOf(path)), signatureOf(path), Math.floor(now.getTime() / 1000) + 300)).toBe(true);
  });
});
