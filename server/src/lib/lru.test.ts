import { describe, expect, it } from 'vitest';
import { bytesBoundedCache } from './lru.js';

const bySize = (_key: string, value: number) => value;

describe('bytesBoundedCache', () => {
  it('drops the least recently used entries beyond its bytes, a hit counting as a use', () => {
    const lru = bytesBoundedCache<number>(100, bySize);
    lru.set('a', 20);
    lru.set('b', 20);
    expect(lru.get('a')).toBe(20); // a is now the most recent
    lru.set('c', 25);
    lru.set('d', 25);
    expect(lru.calculatedSize).toBe(90);
    lru.set('e', 20); // 110 > 100: b goes, a stays
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(20);
    expect(lru.calculatedSize).toBe(90);
    expect(lru.size).toBe(4);
  });

  it('never keeps more bytes than its budget, however many entries come', () => {
    const lru = bytesBoundedCache<string>(10_000, (key, value) => key.length + value.length);
    for (let i = 0; i < 5000; i += 1) lru.set(`key-${i}`, 'x'.repeat(i % 900));
    expect(lru.calculatedSize).toBeLessThanOrEqual(10_000);
    expect(lru.size).toBeGreaterThan(10);
  });

  it('keeps nothing larger than a quarter of its budget, and drops nothing for it', () => {
    const lru = bytesBoundedCache<number>(100, bySize);
    lru.set('small', 10);
    lru.set('huge', 26);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('small')).toBe(10);
  });

  it('counts a replaced entry once', () => {
    const lru = bytesBoundedCache<number>(100, bySize);
    lru.set('a', 20);
    lru.set('a', 10);
    expect(lru.calculatedSize).toBe(10);
    lru.clear();
    expect(lru.calculatedSize).toBe(0);
    expect(lru.get('a')).toBeUndefined();
  });
});
