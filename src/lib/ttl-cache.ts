/**
 * A small in-process cache whose entries expire after `ttlMs` (0 disables it), holding
 * at most `maxEntries` (the oldest goes first). `clear()` drops everything at once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Lookups answered from the cache, and lookups that were not (GET /metrics). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.value;
  }

  /** get(), counting an entry `valid` rejects as a miss (and dropping it). */
  getIf(key: string, valid: (value: V) => boolean, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now || !valid(entry.value)) {
      if (entry) this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
  }

  /** Entries held now (expired ones included until they are looked up or pushed out). */
  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
