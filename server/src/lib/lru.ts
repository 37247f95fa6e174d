/**
 * A Map that keeps at most `maxBytes` of entries, as `sizeOf` counts them, dropping the least recently used (a Map
 * iterates in insertion order, so a hit is moved to the end). Bounded in bytes, not in entries: a cache bounded by
 * count let requests that each built a 140 KB statement keep 4,096 of them (issue 32). An entry larger than a quarter
 * of the budget is not kept at all, so one cannot empty the cache of everything else. For caches of things built
 * from constant texts: prepared statements, compiled SQL.
 */
export class LruMap<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (key: string, value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` under `key` (or not, when it alone would take over a quarter of the budget). */
  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(key, value);
    if (bytes > this.maxBytes / 4) return;
    while (this.used + bytes > this.maxBytes) this.delete(this.map.keys().next().value!);
    this.map.set(key, { value, bytes });
    this.used += bytes;
  }

  delete(key: string): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.used -= entry.bytes;
  }

  clear(): void {
    this.map.clear();
    this.used = 0;
  }

  /** Bytes kept, as `sizeOf` counts them. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.map.size;
  }
}

/** Bytes a string takes in V8 at most (two a character), for `sizeOf`. */
export const stringBytes = (text: string) => text.length * 2;
