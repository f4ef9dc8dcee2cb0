/**
 * A map that shares its entries with the map it was derived from: `derive()` costs
 * nothing, changes stay in the new layer, and reads fall through to older layers. Each
 * revision's page index is derived from its base's this way, so an edit never copies the
 * index of a 10,000-page space. After a few layers the chain is flattened once (amortized
 * O(1) per edit) so reads stay short.
 */
export class LayeredMap<V> {
  private readonly own = new Map<string, V>();
  private readonly removed = new Set<string>();
  private below: LayeredMap<V> | undefined;
  private depth: number;

  private static readonly MAX_DEPTH = 8;

  constructor(entries?: Iterable<[string, V]>, below?: LayeredMap<V>) {
    this.below = below;
    this.depth = below ? below.depth + 1 : 0;
    if (entries) for (const [k, v] of entries) this.own.set(k, v);
    if (this.depth > LayeredMap.MAX_DEPTH) this.flatten();
  }

  /** A new layer on top of this one. */
  derive(): LayeredMap<V> {
    return new LayeredMap<V>(undefined, this);
  }

  get(key: string): V | undefined {
    for (let layer: LayeredMap<V> | undefined = this; layer; layer = layer.below) {
      const value = layer.own.get(key);
      if (value !== undefined) return value;
      if (layer.removed.has(key)) return undefined;
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): void {
    this.own.set(key, value);
    this.removed.delete(key);
  }

  delete(key: string): void {
    this.own.delete(key);
    if (this.below) this.removed.add(key);
  }

  /** Every live entry (walks every layer: for tests and rare whole-revision work). */
  entries(): Map<string, V> {
    const all = this.below ? this.below.entries() : new Map<string, V>();
    for (const key of this.removed) all.delete(key);
    for (const [k, v] of this.own) all.set(k, v);
    return all;
  }

  keys(): IterableIterator<string> {
    return this.entries().keys();
  }

  /** Copies what the layers below hold into this one and drops them. */
  private flatten(): void {
    const all = this.entries();
    this.own.clear();
    this.removed.clear();
    for (const [k, v] of all) this.own.set(k, v);
    this.below = undefined;
    this.depth = 0;
  }
}
