import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache (the lru-cache package) that keeps at most `maxBytes` of entries, as `sizeOf` counts
 * them. Bounded in bytes, not in entries: a cache bounded by count let requests that each built a 140 KB statement
 * keep 4,096 of them (issue 32). An entry larger than a quarter of the budget is not kept at all, so one cannot empty
 * the cache of everything else. Every cache of the server is one of these.
 */
export function bytesBoundedCache<V extends NonNullable<unknown>>(
  maxBytes: number,
  sizeOf: (key: string, value: V) => number,
): LRUCache<string, V> {
  return new LRUCache<string, V>({
    maxSize: maxBytes,
    // lru-cache wants a positive whole number.
    sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(key, value))),
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
  });
}

/** Bytes a string takes in V8 at most (two a character), for `sizeOf`. */
export const stringBytes = (text: string) => text.length * 2;
