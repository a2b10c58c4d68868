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

export function encodePostingLists(lists: ReadonlyMap<number, readonly number[]>): PostingLists {
  const keys = Uint32Array.from(lists.keys()).sort();
  const starts = new Uint32Array(keys.length + 1);
  const bytes: number[] = [];
  keys.forEach((key, i) => {
    starts[i] = bytes.length;
    let previous = -1;
    for (const local of lists.get(key)!) {
      for (let gap = local - previous; ; gap >>>= 7) {
        if (gap < 0x80) {
          bytes.push(gap);
          break;
        }
        bytes.push((gap & 0x7f) | 0x80);
      }
      previous = local;
    }
  });
  starts[keys.length] = bytes.length;
  return { keys, starts, bytes: Uint8Array.from(bytes) };
}

/** The list of the key at `index` among `keys`. */
export function decodePostingList(lists: PostingLists, index: number): Uint16Array {
  const { bytes } = lists;
  const end = lists.starts[index + 1]!;
  // No list holds more entries than bytes.
  const out = new Uint16Array(end - lists.starts[index]!);
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
  return out.subarray(0, count);
}

/** The entries of both ascending lists. */
export function intersect(a: Uint16Array, b: Uint16Array): Uint16Array {
  const out = new Uint16Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}
