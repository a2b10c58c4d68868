/**
 * The orders of the latest searches, by what they asked: a program following `next` asks for the
 * same clients in the same order once per page, and each page after the first then costs only its
 * own clients. Bounded by the clients held (a full order of the registry is 134,719 of them, half a
 * megabyte), the least recently used going first.
 */
export class ResultCache<T> {
  private readonly entries = new Map<string, { value: T; weight: number }>();
  private weight = 0;

  constructor(private readonly maxWeight = 4_000_000) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Most recently used last: a Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: T, weight: number): void {
    if (this.maxWeight === 0) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.weight -= old.weight;
    }
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.weight <= this.maxWeight || oldest === key) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }
}
