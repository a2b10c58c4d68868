/**
 * The decoded files of one bundle that answers keep, weighed by their files' bytes (a decoded file is
 * views of its bytes: sections.ts), the least recently used let go past the budget. One budget for
 * every kind of file, so that what an isolate keeps is bounded whatever the requests (issue 39: one
 * isolate at most 64 MiB), and what the requests of the moment use stays.
 *
 * It holds values, never promises: a read in flight belongs to the request that started it (workerd
 * cancels what a finished request left running, and a request waiting on it would hang), so each
 * answer reads what it misses itself (query-bundle.ts keeps its own reads in flight).
 */
export class FileCache {
  private readonly entries = new Map<string, { value: unknown; bytes: number }>();
  private held = 0;

  constructor(readonly budget: number) {}

  /** The bytes of the files kept now. */
  get bytes(): number {
    return this.held;
  }

  get<T>(name: string): T | undefined {
    const entry = this.entries.get(name);
    if (entry === undefined) return undefined;
    // Most recently used last: a Map keeps insertion order.
    this.entries.delete(name);
    this.entries.set(name, entry);
    return entry.value as T;
  }

  /** Keeps a decoded file that weighs `bytes`, letting the oldest go until the budget holds (the newest always kept). */
  set(name: string, value: unknown, bytes: number): void {
    const old = this.entries.get(name);
    if (old !== undefined) {
      this.entries.delete(name);
      this.held -= old.bytes;
    }
    this.entries.set(name, { value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.budget || oldest === name) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }
}
