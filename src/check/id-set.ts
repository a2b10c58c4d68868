/**
 * A set of record ids as bits, 32 to a word, the words kept in an open-addressing hash table of typed
 * arrays: dense ids (clients are numbered 1, 2, 3...) cost a bit each, sparse ones (registrant ids run
 * to ten digits) a slot of 12 bytes each, and the million links a build follows are bit operations.
 *
 * Typed arrays rather than a Map: their memory lies outside the JavaScript heap, which a render
 * thread caps (at 300,000 records a Map per group, tens of thousands of entries each, filled that
 * cap), and the set crosses between threads as two arrays (`IdWords`), not as a pair per word.
 */
export class IdSet {
  /** Word numbers (an id's word is id / 32, rounded down); EMPTY where a slot is free. */
  private keys: Float64Array;
  /** The bits of each word, in the slot of its number. */
  private bits: Int32Array;
  private used = 0;

  constructor(words: Iterable<[number, number]> | IdWords = []) {
    const given = isIdWords(words) ? words.keys.length : 0;
    this.keys = new Float64Array(capacityFor(given)).fill(EMPTY);
    this.bits = new Int32Array(this.keys.length);
    if (isIdWords(words)) {
      for (let i = 0; i < words.keys.length; i++) this.orWord(words.keys[i]!, words.bits[i]!);
    } else {
      for (const [word, bits] of words) this.orWord(word, bits);
    }
  }

  add(id: number): void {
    this.orWord(wordOf(id), bitOf(id));
  }

  has(id: number): boolean {
    const slot = this.slotOf(wordOf(id));
    return this.keys[slot] !== EMPTY && (this.bits[slot]! & bitOf(id)) !== 0;
  }

  /** Adds every id of `other`. */
  merge(other: IdSet): void {
    for (const [word, bits] of other.words()) this.orWord(word, bits);
  }

  get size(): number {
    let count = 0;
    for (const [, bits] of this.words()) {
      for (let word = bits; word !== 0; count++) word &= word - 1;
    }
    return count;
  }

  /** The ids of this set that `other` lacks, smallest first. */
  *without(other: IdSet): Generator<number> {
    const words = [...this.words()].sort(([a], [b]) => a - b);
    for (const [word, bits] of words) {
      const slot = other.slotOf(word);
      const left = bits & ~(other.keys[slot] === EMPTY ? 0 : other.bits[slot]!);
      for (let bit = 0; bit < 32; bit++) if (left & (1 << bit)) yield word * 32 + bit;
    }
  }

  /** Every word that has a bit set, as `[word number, bits]`, in no particular order. */
  *words(): Generator<[number, number]> {
    for (let slot = 0; slot < this.keys.length; slot++) {
      if (this.keys[slot] !== EMPTY && this.bits[slot] !== 0) yield [this.keys[slot]!, this.bits[slot]!];
    }
  }

  /** The words packed into two arrays of their own, to send to another thread. */
  toWords(): IdWords {
    const keys = new Float64Array(this.used);
    const bits = new Int32Array(this.used);
    let at = 0;
    for (let slot = 0; slot < this.keys.length; slot++) {
      if (this.keys[slot] === EMPTY) continue;
      keys[at] = this.keys[slot]!;
      bits[at++] = this.bits[slot]!;
    }
    return { keys, bits };
  }

  private orWord(word: number, bits: number): void {
    let slot = this.slotOf(word);
    if (this.keys[slot] === EMPTY) {
      if ((this.used + 1) * 2 > this.keys.length) {
        this.grow();
        slot = this.slotOf(word);
      }
      this.keys[slot] = word;
      this.used++;
    }
    this.bits[slot]! |= bits;
  }

  /** The slot that holds `word`, or the free slot where it would go (linear probing). */
  private slotOf(word: number): number {
    const mask = this.keys.length - 1;
    // Word numbers can pass 2^32 (ids up to 2^53): mix the high part into the low before hashing.
    let slot = Math.imul((word >>> 0) ^ Math.imul((word / 4294967296) >>> 0, 0x85ebca6b), 0x9e3779b1) & mask;
    while (this.keys[slot] !== EMPTY && this.keys[slot] !== word) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, bits } = this;
    this.keys = new Float64Array(keys.length * 2).fill(EMPTY);
    this.bits = new Int32Array(this.keys.length);
    this.used = 0;
    for (let slot = 0; slot < keys.length; slot++) if (keys[slot] !== EMPTY) this.orWord(keys[slot]!, bits[slot]!);
  }
}

/** An `IdSet`'s words as two arrays of the same length: word numbers, and their bits. */
export interface IdWords {
  keys: Float64Array;
  bits: Int32Array;
}

const EMPTY = -1;

function isIdWords(words: Iterable<[number, number]> | IdWords): words is IdWords {
  return (words as IdWords).keys instanceof Float64Array;
}

/** A power of two with room for `words` at half load, 16 at least. */
function capacityFor(words: number): number {
  let capacity = 16;
  while (capacity < words * 2) capacity *= 2;
  return capacity;
}

function wordOf(id: number): number {
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a record id: ${id}`);
  return Math.floor(id / 32);
}

function bitOf(id: number): number {
  return 1 << id % 32;
}
