/**
 * A Map that keeps at most `max` entries, dropping the least recently used (a Map iterates in insertion order, so a
 * hit is moved to the end). For caches of things built from constant texts: prepared statements, compiled SQL.
 */
export class LruMap<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, value);
  }

  clear(): void {
    this.map.clear();
  }
}
