/**
 * The trigram index of a segment's names: for each trigram of bytes met, the names that hold it, as
 * ascending local indexes. Stored as each list's gaps in variable-length bytes (7 bits a byte, the
 * high bit saying another follows), about half the size of 16-bit indexes, so that a search's first
 * answer reads and touches half the memory; a search decodes only the lists of its own trigrams.
 */
export interface PostingLists {
  keys: Uint32Array;
  /** Where each key's list starts in `bytes`; one more entry, the end. */
  starts: Uint32Array;
  bytes: Uint8Array;
}

/** An entry of the index: a trigram's key and a name's local index, as one number that sorts by key, then name. */
export function postingEntry(key: number, local: number): number {
  return key * 0x10000 + local;
}

/**
 * The posting lists of the entries (`postingEntry`), given in any order and any number of times: in
 * one typed array, sorted natively, where a map of arrays would make millions of small objects for a
 * render thread's collector (issue 13: the threads' heaps are small).
 */
export function encodePostingLists(entries: Float64Array): PostingLists {
  entries.sort();
  const keys: number[] = [];
  const starts: number[] = [];
  let bytes = new Uint8Array(Math.max(16, entries.length));
  let length = 0;
  let previousEntry = -1;
  let previousLocal = -1;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry === previousEntry) continue;
    previousEntry = entry;
    const key = Math.floor(entry / 0x10000);
    const local = entry - key * 0x10000;
    if (key !== keys[keys.length - 1]) {
      keys.push(key);
      starts.push(length);
      previousLocal = -1;
    }
    if (length + 3 > bytes.length) {
      const grown = new Uint8Array(bytes.length * 2);
      grown.set(bytes);
      bytes = grown;
    }
    for (let gap = local - previousLocal; ; gap >>>= 7) {
      if (gap < 0x80) {
        bytes[length++] = gap;
        break;
      }
      bytes[length++] = (gap & 0x7f) | 0x80;
    }
    previousLocal = local;
  }
  starts.push(length);
  return { keys: Uint32Array.from(keys), starts: Uint32Array.from(starts), bytes: bytes.slice(0, length) };
}

/** How many bytes the list of the key at `index` takes: no list holds more entries than bytes. */
export function postingListBytes(lists: PostingLists, index: number): number {
  return lists.starts[index + 1]! - lists.starts[index]!;
}

/** The list of the key at `index` among `keys`, written into `out` (at least `postingListBytes` long); how many entries. */
export function decodePostingListInto(lists: PostingLists, index: number, out: Uint16Array): number {
  const { bytes } = lists;
  const end = lists.starts[index + 1]!;
  let count = 0;
  let value = -1;
  for (let at = lists.starts[index]!; at < end; ) {
    let gap = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++]!;
      gap |= (byte & 0x7f) << shift;
      if (byte < 0x80) break;
    }
    out[count++] = value += gap;
  }
  return count;
}

/**
 * Keeps, of the first `aLength` entries of `a`, those among the first `bLength` of `b` (both
 * ascending), in place at the front of `a`: each is written at or before where it was read. How many.
 */
export function intersectInPlace(a: Uint16Array, aLength: number, b: Uint16Array, bLength: number): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < aLength && j < bLength) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      a[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}
