import { WeighedCache } from '../bundle/weighed-cache.ts';

/**
 * The orders of the latest searches, by what they asked: a program following `next` asks for the
 * same clients in the same order once per page, and each page after the first then costs only its
 * own clients. The bundle's own cache of what it keeps (bundle/weighed-cache.ts), each entry weighed
 * by what it holds (a full order of the registry is 134,719 clients, half a megabyte), its key (two
 * bytes a character: a search for a 15,000-character name that matches nothing still costs its key)
 * and the entry itself (`ENTRY_BYTES`: the map's slot, the order's object and closures).
 *
 * Results that match nothing have a share of their own (`EMPTY_SHARE`): such a result saves little
 * (the search that found nothing stopped at its first absent key or empty intersection, from
 * fragments kept), so a stream of unique searches matching nothing must not push out the orders that
 * save a scan, nor grow the instance by more than their share; a program asking again for a name
 * that is not there (a retry, a poll) is still answered from it.
 */
const ENTRY_BYTES = 512;
/** The share of the budget that results matching nothing may take (1 MiB of 8). */
const EMPTY_SHARE = 1 / 8;

export class ResultCache<T> {
  private readonly matching: WeighedCache<T>;
  private readonly empty: WeighedCache<T>;

  constructor(readonly budget = 8 * 2 ** 20) {
    const emptyBudget = Math.floor(budget * EMPTY_SHARE);
    this.empty = new WeighedCache(emptyBudget);
    this.matching = new WeighedCache(budget - emptyBudget);
  }

  /** What the entries weigh now, matching and empty. */
  get bytes(): number {
    return this.matching.bytes + this.empty.bytes;
  }

  get(key: string): T | undefined {
    return this.matching.get(key) ?? this.empty.get(key);
  }

  /** Keeps `value`, which holds `bytes` (its key and entry are counted here); `empty` when it matched nothing. */
  set(key: string, value: T, bytes: number, empty = false): void {
    if (this.budget === 0) return;
    (empty ? this.empty : this.matching).set(key, value, bytes + 2 * key.length + ENTRY_BYTES);
  }
}
