/**
 * What an instance keeps, weighed by bytes, the least recently used let go past the budget: the
 * decoded files of a bundle (query-bundle.ts, each weighed by its file's bytes: a decoded file is views
 * of its bytes, sections.ts) and the orders of the latest searches (answer/result-cache.ts, which adds
 * its key and entry to the weight). Every kind of thing kept is bounded by its budget whatever the
 * requests (issue 39: one isolate at most 64 MiB), and what the requests of the moment use stays.
 *
 * It holds values, never promises: a read in flight belongs to the request that started it (workerd
 * cancels what a finished request left running, and a request waiting on it would hang), so each
 * answer reads what it misses itself (query-bundle.ts keeps its own reads in flight).
 */
export class WeighedCache<T = unknown> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private held = 0;

  constructor(readonly budget: number) {}

  /** The bytes of what is kept now. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  get<V extends T>(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Most recently used last: a Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as V;
  }

  /** Keeps `value`, which weighs `bytes`, letting the oldest go until the budget holds (the newest always kept). */
  set(key: string, value: T, bytes: number): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.held -= old.bytes;
    }
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.budget || oldest === key) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }
}
