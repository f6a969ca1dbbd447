/** The bounds of an `Lru`: entries, and bytes as `sizeOf` counts them. */
export interface LruBounds<K, V> {
  maxEntries?: number;
  maxBytes?: number;
  /** An entry's bytes, approximately (0 when unset). */
  sizeOf?: (value: V, key: K) => number;
  /** Told of every entry the bounds push out. */
  onEvict?: (key: K, value: V) => void;
}

/**
 * A map of bounded size for what requests fill: at most `maxEntries` entries and `maxBytes` bytes,
 * the least recently used entry out first. `get` and `set` make an entry the most recent; `peek`
 * and iteration do not.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; size: number }>();
  private total = 0;

  constructor(private readonly bounds: LruBounds<K, V>) {}

  get size(): number {
    return this.entries.size;
  }

  /** The bytes held, as `sizeOf` counts them. */
  get bytes(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Keeps the value as the most recent entry (its size counted anew, e.g. after it grew) and pushes
   * out the least recent ones beyond the bounds. A value larger than `maxBytes` alone is not kept.
   */
  set(key: K, value: V): void {
    const size = this.bounds.sizeOf?.(value, key) ?? 0;
    this.delete(key);
    if (size > (this.bounds.maxBytes ?? Infinity)) return;
    this.entries.set(key, { value, size });
    this.total += size;
    const { maxEntries = Infinity, maxBytes = Infinity } = this.bounds;
    while (this.entries.size > maxEntries || this.total > maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.total -= entry.size;
      this.bounds.onEvict?.(oldest, entry.value);
    }
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.size;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** Least recent first. */
  *[Symbol.iterator](): IterableIterator<[K, V]> {
    for (const [key, { value }] of this.entries) yield [key, value];
  }
}
