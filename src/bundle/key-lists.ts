/**
 * The lists of a segment's key index (key-index.ts), each one run of bytes that starts with its kind:
 *
 * - `GAPS`: ascending local indexes as varint gaps (7 bits a byte, the high bit saying another
 *   follows; the first gap counted from -1), as posting-lists.ts writes them;
 * - `BITMAP`: the first local index (varint), then one bit a client from it on: smaller than gaps
 *   where most clients are in the list (the byte `A`, the country `US`), so a search reads 16 KB where
 *   gaps would take 100 KB;
 * - `POSITIONS`: every occurrence of a trigram, by local index then byte position, each a varint gap
 *   of local index (0: the same name again) and a varint position (after a 0, the gap from the
 *   previous position), so that a search can ask for trigrams at aligned positions.
 *
 * Built in two passes over the same occurrences (`buildLists`): the first measures each list, the
 * second writes it in place, so that the 4 million occurrences of 131,072 names are never held.
 */
export const GAPS = 0;
export const BITMAP = 1;
export const POSITIONS = 2;

/** Adds one occurrence of the key numbered `id`: local indexes ascending, positions ascending within a name. */
export type AddOccurrence = (id: number, local: number, position: number) => void;

/** Each key's list (by its number, 0 to `keyCount` - 1; empty where nothing was added), as views of one buffer. */
export function buildLists(keyCount: number, positional: boolean, visit: (add: AddOccurrence) => void): Uint8Array[] {
  const lastLocal = new Int32Array(keyCount).fill(-1);
  const lastPosition = new Int32Array(keyCount);
  const first = new Int32Array(keyCount).fill(-1);
  const sizes = new Float64Array(keyCount);
  visit((id, local, position) => {
    const gap = local - lastLocal[id]!;
    if (positional) sizes[id] = sizes[id]! + varintSize(gap) + varintSize(gap === 0 ? position - lastPosition[id]! : position);
    else if (gap === 0) return;
    else sizes[id] = sizes[id]! + varintSize(gap);
    if (first[id] === -1) first[id] = local;
    lastLocal[id] = local;
    lastPosition[id] = position;
  });
  // The kind of each list, and where it starts in the buffer.
  const kinds = new Uint8Array(keyCount);
  const starts = new Float64Array(keyCount + 1);
  for (let id = 0; id < keyCount; id++) {
    let size = first[id] === -1 ? 0 : 1 + sizes[id]!;
    kinds[id] = positional ? POSITIONS : GAPS;
    const bitmap = first[id] === -1 ? Infinity : 1 + varintSize(first[id]!) + Math.ceil((lastLocal[id]! - first[id]! + 1) / 8);
    if (!positional && bitmap < size) [kinds[id], size] = [BITMAP, bitmap];
    starts[id + 1] = starts[id]! + size;
  }
  const bytes = new Uint8Array(starts[keyCount]!);
  const at = Float64Array.from(starts.subarray(0, keyCount), (start, id) => (start === starts[id + 1] ? start : writeKind(bytes, start, kinds[id]!, first[id]!)));
  lastLocal.fill(-1);
  visit((id, local, position) => {
    const gap = local - lastLocal[id]!;
    if (kinds[id] === BITMAP) {
      const bit = local - first[id]!;
      bytes[at[id]! + (bit >>> 3)]! |= 1 << (bit & 7);
    } else if (positional) {
      at[id] = writeVarint(bytes, at[id]!, gap);
      at[id] = writeVarint(bytes, at[id]!, gap === 0 ? position - lastPosition[id]! : position);
    } else if (gap !== 0) at[id] = writeVarint(bytes, at[id]!, gap);
    lastLocal[id] = local;
    lastPosition[id] = position;
  });
  return Array.from({ length: keyCount }, (_, id) => bytes.subarray(starts[id]!, starts[id + 1]!));
}

/** Writes a list's kind (and a bitmap's first index); where its entries start. */
function writeKind(bytes: Uint8Array, at: number, kind: number, first: number): number {
  bytes[at] = kind;
  return kind === BITMAP ? writeVarint(bytes, at + 1, first) : at + 1;
}

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    size++;
  }
  return size;
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  bytes[at++] = value;
  return at;
}

/** The local indexes of a `GAPS` or `BITMAP` list (bytes `from` to `to` of `bytes`), ascending. */
export function decodeLocals(bytes: Uint8Array, from: number, to: number, file: string): Int32Array {
  const kind = bytes[from];
  if (kind === GAPS) {
    // No entry takes less than a byte.
    const out = new Int32Array(to - from - 1);
    let count = 0;
    let value = -1;
    for (let at = from + 1; at < to; ) {
      let gap = 0;
      for (let scale = 1; ; scale *= 0x80) {
        const byte = bytes[at++]!;
        gap += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
      }
      out[count++] = value += gap;
    }
    return out.slice(0, count);
  }
  if (kind === BITMAP) {
    let at = from + 1;
    let first = 0;
    for (let scale = 1; ; scale *= 0x80) {
      const byte = bytes[at++]!;
      first += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
    }
    const out = new Int32Array((to - at) * 8);
    let count = 0;
    for (let local = first; at < to; at++, local += 8) {
      for (let byte = bytes[at]!, bit = 0; byte !== 0; byte >>>= 1, bit++) if (byte & 1) out[count++] = local + bit;
    }
    return out.slice(0, count);
  }
  throw new Error(`${file}: a list of kind ${kind} where a list of clients was expected`);
}

/** A trigram's occurrences: each one's local index and byte position, ascending by both. */
export interface Occurrences {
  locals: Int32Array;
  positions: Int32Array;
}

/** The occurrences of a `POSITIONS` list (bytes `from` to `to` of `bytes`). */
export function decodeOccurrences(bytes: Uint8Array, from: number, to: number, file: string): Occurrences {
  const found = matchesAt(bytes, from, to, 0, undefined, file);
  return { locals: found.locals.subarray(0, found.count), positions: found.starts.subarray(0, found.count) };
}

/** Where a pattern may begin in which client: ascending by client, then start; `count` of them. */
export interface Matches {
  locals: Int32Array;
  starts: Int32Array;
  count: number;
}

/**
 * The matches of a trigram found at `offset` of a pattern (each occurrence shifted back by the offset)
 * from the `POSITIONS` list (bytes `from` to `to` of `bytes`); given the matches of other trigrams
 * (`within`), those of them it confirms, kept in place. Decoded and compared in one pass, which ends
 * where the matches do: the whole list is never written out.
 */
export function matchesAt(bytes: Uint8Array, from: number, to: number, offset: number, within: Matches | undefined, file: string): Matches {
  if (bytes[from] !== POSITIONS) throw new Error(`${file}: a list of kind ${bytes[from]} where a list of positions was expected`);
  // Two bytes at least an occurrence.
  const found = within ?? { locals: new Int32Array((to - from - 1) >>> 1), starts: new Int32Array((to - from - 1) >>> 1), count: 0 };
  const count = found.count;
  let i = 0;
  let kept = 0;
  let local = -1;
  let position = 0;
  for (let at = from + 1; at < to; ) {
    let gap = bytes[at++]!;
    if (gap >= 0x80) {
      gap &= 0x7f;
      for (let shift = 7; ; shift += 7) {
        const byte = bytes[at++]!;
        gap |= (byte & 0x7f) << shift;
        if (byte < 0x80) break;
      }
    }
    let value = bytes[at++]!;
    if (value >= 0x80) {
      value &= 0x7f;
      for (let shift = 7; ; shift += 7) {
        const byte = bytes[at++]!;
        value |= (byte & 0x7f) << shift;
        if (byte < 0x80) break;
      }
    }
    local += gap;
    position = gap === 0 ? position + value : value;
    const start = position - offset;
    if (start < 0) continue;
    if (within === undefined) {
      found.locals[kept] = local;
      found.starts[kept++] = start;
      continue;
    }
    // Past the matches before this occurrence; keep the one it confirms.
    while (i < count && (found.locals[i]! < local || (found.locals[i] === local && found.starts[i]! < start))) i++;
    if (i === count) break;
    if (found.locals[i] === local && found.starts[i] === start) {
      found.locals[kept] = local;
      found.starts[kept++] = start;
      i++;
    }
  }
  found.count = kept;
  return found;
}
