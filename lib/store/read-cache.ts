// A container's short-lived copy of reads that change rarely: each entry is kept for its time
// and no longer, the map is bounded (least recently used out first), concurrent misses share
// one read, and nothing is kept that was not found or failed. What each use may serve stale is
// said where it is used (lib/pipeline/read-cache.ts, lib/rate-limits/limits.ts).

interface Entry<T> {
  value: Promise<T>;
  expires: number;
}

/** A bounded map of reads kept `ttlMs`; undefined values (not found) are not kept. */
export class ReadCache<T> {
  private readonly entries = new Map<string, Entry<T | undefined>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The value of `key`, read with `load` unless a live entry is there that `fresh` accepts. */
  async get(key: string, load: () => Promise<T | undefined>, fresh: (value: T) => boolean = () => true): Promise<T | undefined> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expires > now) {
      const value = await entry.value;
      if (value !== undefined && fresh(value)) {
        // Most recently used last, so the first entry is the one to drop.
        this.entries.delete(key);
        this.entries.set(key, entry);
        return value;
      }
    }
    return this.load(key, load, now);
  }

  private load(key: string, load: () => Promise<T | undefined>, now: number): Promise<T | undefined> {
    const value = load();
    const entry = { value, expires: now + this.ttlMs };
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    value.then((found) => found === undefined && forget(), forget);
    return value;
  }
}
