/**
 * A set of record ids as bits, 32 to a word, words kept by number in a Map: dense ids (clients are
 * numbered 1, 2, 3...) cost a bit each, sparse ones (registrant ids run to ten digits) a word each,
 * and the million links a build follows are bit operations. Its words cross between threads as pairs.
 */
export class IdSet {
  readonly words: Map<number, number>;

  constructor(words: Iterable<[number, number]> = []) {
    this.words = new Map(words);
  }

  add(id: number): void {
    const key = wordOf(id);
    this.words.set(key, (this.words.get(key) ?? 0) | bitOf(id));
  }

  has(id: number): boolean {
    return ((this.words.get(wordOf(id)) ?? 0) & bitOf(id)) !== 0;
  }

  /** Adds every id of `other`. */
  merge(other: IdSet): void {
    for (const [key, word] of other.words) this.words.set(key, (this.words.get(key) ?? 0) | word);
  }

  get size(): number {
    let count = 0;
    for (let word of this.words.values()) {
      for (; word !== 0; count++) word &= word - 1;
    }
    return count;
  }

  /** The ids of this set that `other` lacks, smallest first. */
  *without(other: IdSet): Generator<number> {
    for (const key of [...this.words.keys()].sort((a, b) => a - b)) {
      const left = this.words.get(key)! & ~(other.words.get(key) ?? 0);
      for (let bit = 0; bit < 32; bit++) if (left & (1 << bit)) yield key * 32 + bit;
    }
  }
}

function wordOf(id: number): number {
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a record id: ${id}`);
  return Math.floor(id / 32);
}

function bitOf(id: number): number {
  return 1 << id % 32;
}
