import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  fileLinkSigner,
  LINK_EXPIRY_STEP_SECONDS,
  linkExpiry,
  linkPhase,
  readerLinkExpiry,
  signedFilePath,
  verifyFileSignature,
} from './signing.js';

const secret = 'a-secret-of-this-test';
const reader = '0b6f4c1e-7d3a-4f55-9a0e-5a1c2d3e4f60';
const expiresOf = (path: string) => Number(new URL(path, 'http://x').searchParams.get('expires'));
const signatureOf = (path: string) => new URL(path, 'http://x').searchParams.get('signature')!;
const at = (second: number) => new Date(Date.UTC(2026, 10, 24, 6, 0, 0) + second * 1000);

describe('signed file links', () => {
  it("expire at least the TTL from now, on a whole minute of the reader's own, less than a minute later than that", () => {
    const phase = linkPhase(reader);
    for (const ms of [0, 1, 59_999, 90_000, (phase - 1) * 1000, phase * 1000, phase * 1000 + 1]) {
      const now = new Date(Date.UTC(2026, 10, 24, 6, 0, 0) + ms);
      const expires = linkExpiry(now, 600, reader);
      const earliest = Math.floor(now.getTime() / 1000) + 600;
      expect((expires - phase) % LINK_EXPIRY_STEP_SECONDS).toBe(0);
      expect(expires).toBeGreaterThanOrEqual(earliest);
      expect(expires - earliest).toBeLessThan(LINK_EXPIRY_STEP_SECONDS);
    }
  });

  it("are the same text for the same reader and file within the reader's minute, and another for the next one", () => {
    const phase = linkPhase(reader);
    const path = (second: number) =>
      signedFilePath(secret, '42', 'form 1.pdf', linkExpiry(at(second), 600, reader), 'fam-1');
    // With a TTL of whole minutes, the reader's minute runs from second `phase + 1` of one wall-clock minute to second
    // `phase` of the next: a link made at second `phase` expires exactly the TTL later.
    expect(path(phase + 1)).toBe(path(phase + 60));
    expect(path(phase + 1)).toBe(
      '/files/42/form%201.pdf?expires=' +
        expiresOf(path(phase + 1)) +
        '&session=fam-1&signature=' +
        signatureOf(path(phase + 1)),
    );
    expect(expiresOf(path(phase + 61))).toBe(expiresOf(path(phase + 1)) + 60);
    expect(signatureOf(path(phase + 61))).not.toBe(signatureOf(path(phase + 1)));
  });

  it("roll over at a reader's own second, the same on every replica, spread over the minute across readers", () => {
    expect(linkPhase(reader)).toBe(linkPhase(String(reader)));
    const readers = Array.from({ length: 6_000 }, () => randomUUID());
    const perSecond = new Array<number>(LINK_EXPIRY_STEP_SECONDS).fill(0);
    for (const id of readers) perSecond[linkPhase(id)] += 1;
    // 100 a second on average: no second holds fewer than half or more than one and a half times that (a hash that
    // left a second empty, or put many readers on one, would fail).
    expect(Math.min(...perSecond)).toBeGreaterThan(50);
    expect(Math.max(...perSecond)).toBeLessThan(150);
    // Numbered ids too, which differ in a character or two.
    const numbered = new Set(Array.from({ length: 120 }, (_, i) => linkPhase(String(i + 1))));
    expect(numbered.size).toBeGreaterThan(40);
  });

  it('verify for their own file, secret, expiry and session only, and answer the session', () => {
    const now = Math.floor(Date.UTC(2026, 10, 24, 6, 0, 0) / 1000);
    const expires = now + 600;
    const first = signedFilePath(secret, '42', 'a.pdf', expires, 'fam-1');
    expect(signedFilePath(secret, '42', 'a.pdf', expires, 'fam-1')).toBe(first);
    const sig = signatureOf(first);
    expect(verifyFileSignature(secret, '42', String(expires), 'fam-1', sig, now)).toBe('fam-1');
    expect(verifyFileSignature(secret, '42', String(expires), 'fam-2', sig, now)).toBeNull();
    expect(verifyFileSignature(secret, '42', String(expires), undefined, sig, now)).toBeNull();
    expect(verifyFileSignature(secret, '43', String(expires), 'fam-1', sig, now)).toBeNull();
    expect(verifyFileSignature('another-secret', '42', String(expires), 'fam-1', sig, now)).toBeNull();
    expect(verifyFileSignature(secret, '42', String(expires + 60), 'fam-1', sig, now)).toBeNull();
    expect(verifyFileSignature(secret, '42', String(expires), 'fam-1', sig, expires + 1)).toBeNull();
    expect(signatureOf(signedFilePath('another-secret', '42', 'a.pdf', expires, 'fam-1'))).not.toBe(sig);
  });

  it("a reader's links now: expire by the configured TTL, alike for every file, and verify", () => {
    const now = at(20);
    const expires = readerLinkExpiry(
      { config: { fileLinkTtl: 300 } } as Parameters<typeof readerLinkExpiry>[0],
      reader,
      now,
    );
    expect(expires).toBe(linkExpiry(now, 300, reader));
    const sign = fileLinkSigner({ fileLinkSecret: secret }, expires, 'fam-1');
    const path = sign('42', 'a.pdf');
    expect(path).toBe(signedFilePath(secret, '42', 'a.pdf', expires, 'fam-1'));
    expect(expiresOf(sign('43', 'b.pdf'))).toBe(expires);
    expect(
      verifyFileSignature(
        secret,
        '42',
        String(expiresOf(path)),
        'fam-1',
        signatureOf(path),
        Math.floor(now.getTime() / 1000) + 300,
      ),
    ).toBe('fam-1');
  });
});
