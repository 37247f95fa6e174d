import { describe, expect, it } from 'vitest';
import { LruMap } from './lru.js';

describe('LruMap', () => {
  it('drops the least recently used entry beyond its size, a hit counting as a use', () => {
    const lru = new LruMap<number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
  });

  it('keeps null as a value (a remembered "nothing to keep")', () => {
    const lru = new LruMap<number | null>(1);
    lru.set('x', null);
    expect(lru.get('x')).toBeNull();
    expect(lru.get('y')).toBeUndefined();
  });
});
