import { describe, expect, it } from 'vitest';
import type { Viewer } from '../context.js';
import { DocumentCache } from './document-cache.js';

const alice: Viewer = { userId: 'u-alice', name: 'alice', role: 'handler', handlerId: 'h-101' };
const staff: Viewer = { userId: 'u-staff', name: 'staff', role: 'staff', handlerId: null };

describe('DocumentCache', () => {
  it('gives a body back only for the version and link expiry it was kept with', () => {
    const cache = new DocumentCache(1024 * 1024);
    const key = DocumentCache.key(alice, 'http://localhost/jsonapi/node/season');
    cache.set(key, { dataVersion: 7, linksExpire: 600, body: Buffer.from('{"data":[]}') });
    expect(cache.get(key, 7, 600)?.body.toString()).toBe('{"data":[]}');
    expect(cache.get(key, 8, 600)).toBeUndefined();
    expect(cache.get(key, 7, 660)).toBeUndefined();
  });

  it('keys by reader and whole address', () => {
    const url = 'http://localhost/jsonapi/node/invoice';
    expect(DocumentCache.key(alice, url)).not.toBe(DocumentCache.key(staff, url));
    expect(DocumentCache.key(alice, url)).not.toBe(DocumentCache.key({ ...alice, handlerId: 'h-102' }, url));
    expect(DocumentCache.key(alice, url)).not.toBe(DocumentCache.key(alice, `${url}?page%5Blimit%5D=1`));
    expect(DocumentCache.key(alice, url)).not.toBe(DocumentCache.key(alice, url.replace('http:', 'https:')));
  });

  it('does not put a document built at an older version over a newer one (a slow read finishing late)', () => {
    const cache = new DocumentCache(1024 * 1024);
    cache.set('k', { dataVersion: 9, linksExpire: 600, body: Buffer.from('new') });
    cache.set('k', { dataVersion: 8, linksExpire: 600, body: Buffer.from('old') });
    expect(cache.get('k', 9, 600)?.body.toString()).toBe('new');
  });

  it('stays within its bytes, dropping the least recently read, and keeps no document over a quarter of them', () => {
    const cache = new DocumentCache(10_000);
    for (let i = 0; i < 10; i += 1)
      cache.set(`k${i}`, { dataVersion: 1, linksExpire: 0, body: Buffer.from('x'.repeat(1_000)) });
    expect(cache.size).toBeLessThan(10);
    expect(cache.get('k9', 1, 0)).toBeDefined();
    expect(cache.get('k0', 1, 0)).toBeUndefined();
    cache.set('big', { dataVersion: 1, linksExpire: 0, body: Buffer.from('x'.repeat(3_000)) });
    expect(cache.get('big', 1, 0)).toBeUndefined();
  });

  it('counts a document by its bytes, not its characters', () => {
    const cache = new DocumentCache(10_000);
    cache.set('ascii', { dataVersion: 1, linksExpire: 0, body: Buffer.from('x'.repeat(1_500)) });
    cache.set('accented', { dataVersion: 1, linksExpire: 0, body: Buffer.from('é'.repeat(1_500)) }); // 3,000 bytes
    expect(cache.get('ascii', 1, 0)).toBeDefined();
    expect(cache.get('accented', 1, 0)).toBeUndefined();
  });

  it('keeps compressed forms with the document they were made from, counted in its size', () => {
    const cache = new DocumentCache(20_000);
    cache.set('k', { dataVersion: 1, linksExpire: 0, body: Buffer.from('x'.repeat(1_000)) });
    const doc = cache.get('k', 1, 0)!;
    const br = DocumentCache.encodingKey({ 'accept-encoding': 'gzip, deflate, br' });
    cache.keepEncoded('k', doc, br, { encoding: 'br', bytes: Buffer.alloc(2_000) });
    expect(cache.get('k', 1, 0)?.encoded?.get(br)?.encoding).toBe('br');
    expect(cache.get('k', 1, 0)?.encoded?.get(DocumentCache.encodingKey({}))).toBeUndefined();
    // A form of a document no longer kept is dropped.
    cache.set('k', { dataVersion: 2, linksExpire: 0, body: Buffer.from('y') });
    cache.keepEncoded('k', doc, br, { encoding: 'br', bytes: Buffer.alloc(10) });
    expect(cache.get('k', 2, 0)?.encoded).toBeUndefined();
    // Forms too large for the cache push the document out rather than over the bound.
    const small = cache.get('k', 2, 0)!;
    cache.keepEncoded('k', small, br, { encoding: 'br', bytes: Buffer.alloc(9_000) });
    expect(cache.get('k', 2, 0)).toBeUndefined();
  });
});
