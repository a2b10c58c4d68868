/**
 * The orders of the latest searches, by what they asked: a program following `next` asks for the
 * same clients in the same order once per page, and each page after the first then costs only its
 * own clients. Bounded by the bytes held, the least recently used going first: what an entry holds
 * (a full order of the registry is 134,719 clients, half a megabyte), its key (two bytes a character:
 * a search for a 15,000-character name that matches nothing still costs its key) and the entry itself.
 */
const ENTRY_BYTES = 128;

export class ResultCache<T> {
  private readonly entries = new Map<string, { value: T; weight: number }>();
  private weight = 0;

  constructor(private readonly maxBytes = 8 * 2 ** 20) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Most recently used last: a Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value`, which holds `bytes` (its key and entry are counted here). */
  set(key: string, value: T, bytes: number): void {
    if (this.maxBytes === 0) return;
    const weight = bytes + 2 * key.length + ENTRY_BYTES;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.weight -= old.weight;
    }
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.weight <= this.maxBytes || oldest === key) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }
}
