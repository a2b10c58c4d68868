/**
 * The lists of a segment's key index (key-index.ts), each one run of bytes that starts with its kind:
 *
 * - `GAPS`: ascending local indexes as varint gaps (7 bits a byte, the high bit saying another
 *   follows; the first gap counted from -1);
 * - `BITMAP`: the first local index and the count of clients (varints), then one bit a client from
 *   the first on: smaller than gaps where most clients are in the list (the byte `A`, the country
 *   `US`), so a search reads 16 KB where gaps would take 100 KB. The count is written so that a
 *   search's count costs nothing: counting the bits of 16 KB was a loop a fresh instance ran
 *   interpreted (about 0.8 ms) and then compiled on a helper thread, for every common word;
 * - `POSITIONS`: every occurrence of a trigram with its byte position (position-lists.ts).
 *
 * Built in two passes over the same occurrences (`buildLists`): the first measures each list, the
 * second writes it in place, so that the 4 million occurrences of 131,072 names are never held.
 */
import { readVarint, varintEnd, varintSize, writeVarint } from './varints.ts';

export const GAPS = 0;
export const BITMAP = 1;
export const POSITIONS = 2;

/** Adds one occurrence of the key numbered `id`: local indexes ascending, positions ascending within a name. */
export type AddOccurrence = (id: number, local: number, position: number) => void;

/** Each key's list of clients (by its number, 0 to `keyCount` - 1; empty where nothing was added), as views of one buffer. */
export function buildLists(keyCount: number, visit: (add: AddOccurrence) => void): Uint8Array[] {
  const lastLocal = new Int32Array(keyCount).fill(-1);
  const first = new Int32Array(keyCount).fill(-1);
  const counts = new Int32Array(keyCount);
  const sizes = new Float64Array(keyCount);
  visit((id, local) => {
    const gap = local - lastLocal[id]!;
    if (gap === 0) return;
    sizes[id] = sizes[id]! + varintSize(gap);
    counts[id]!++;
    if (first[id] === -1) first[id] = local;
    lastLocal[id] = local;
  });
  // The kind of each list, and where it starts in the buffer.
  const kinds = new Uint8Array(keyCount);
  const starts = new Float64Array(keyCount + 1);
  for (let id = 0; id < keyCount; id++) {
    let size = first[id] === -1 ? 0 : 1 + sizes[id]!;
    const bitmap = first[id] === -1 ? Infinity : 1 + varintSize(first[id]!) + varintSize(counts[id]!) + Math.ceil((lastLocal[id]! - first[id]! + 1) / 8);
    if (bitmap < size) [kinds[id], size] = [BITMAP, bitmap];
    starts[id + 1] = starts[id]! + size;
  }
  const bytes = new Uint8Array(starts[keyCount]!);
  const at = Float64Array.from(starts.subarray(0, keyCount), (start, id) => (start === starts[id + 1] ? start : writeKind(bytes, start, kinds[id]!, first[id]!, counts[id]!)));
  lastLocal.fill(-1);
  visit((id, local) => {
    const gap = local - lastLocal[id]!;
    if (kinds[id] === BITMAP) {
      const bit = local - first[id]!;
      bytes[at[id]! + (bit >>> 3)]! |= 1 << (bit & 7);
    } else if (gap !== 0) at[id] = writeVarint(bytes, at[id]!, gap);
    lastLocal[id] = local;
  });
  return Array.from({ length: keyCount }, (_, id) => bytes.subarray(starts[id]!, starts[id + 1]!));
}

/** Writes a list's kind (and a bitmap's first index and count); where its entries start. */
function writeKind(bytes: Uint8Array, at: number, kind: number, first: number, count: number): number {
  bytes[at] = kind;
  return kind === BITMAP ? writeVarint(bytes, writeVarint(bytes, at + 1, first), count) : at + 1;
}

/** A `BITMAP` list as it is kept: its bits (bit k of byte j: local index `first` + 8j + k, a view of the file's bytes) and how many are set. */
export interface Bitmap {
  bits: Uint8Array;
  first: number;
  count: number;
}

/** A `BITMAP` list's bits, as a view of `bytes`; undefined for a list of another kind. */
export function bitmapOf(bytes: Uint8Array, from: number, to: number): Bitmap | undefined {
  if (bytes[from] !== BITMAP) return undefined;
  const first = readVarint(bytes, from + 1);
  const count = readVarint(bytes, varintEnd);
  return { bits: bytes.subarray(varintEnd, to), first, count };
}

/** Whether bit `bit` of a bitmap is set (bit k of byte j is bit 8j + k, as `bitmapOf`'s). */
export function hasBit(bits: Uint8Array, bit: number): boolean {
  return (bits[bit >>> 3]! & (1 << (bit & 7))) !== 0;
}

/**
 * The local indexes of a `GAPS` or `BITMAP` list (bytes `from` to `to` of `bytes`), ascending. A
 * fresh instance runs these loops interpreted, over tens of thousands of entries (`TI`: 59,956): a
 * gap of one byte is read in place, and a bitmap a byte at a time, one turn a set bit.
 */
export function decodeLocals(bytes: Uint8Array, from: number, to: number, file: string): Int32Array {
  const kind = bytes[from];
  if (kind === GAPS) {
    // No entry takes less than a byte.
    const out = new Int32Array(to - from - 1);
    let count = 0;
    let value = -1;
    for (let at = from + 1; at < to; ) {
      const byte = bytes[at]!;
      if (byte < 0x80) {
        out[count++] = value += byte;
        at++;
      } else {
        out[count++] = value += readVarint(bytes, at);
        at = varintEnd;
      }
    }
    return out.slice(0, count);
  }
  const bitmap = bitmapOf(bytes, from, to);
  if (bitmap !== undefined) {
    const { bits, first } = bitmap;
    const out = new Int32Array(bitmap.count);
    let count = 0;
    // A byte at a time, one turn a set bit (its lowest, cleared by `byte &= byte - 1`): in a fresh
    // instance, fewer operations a bit than reading four bytes into a word.
    for (let at = 0, local = first; at < bits.length; at++, local += 8) {
      let byte = bits[at]!;
      while (byte !== 0) {
        out[count++] = local + 31 - Math.clz32(byte & -byte);
        byte &= byte - 1;
      }
    }
    if (count !== out.length) throw new Error(`${file}: a bitmap of ${count} clients that says it holds ${out.length}`);
    return out;
  }
  throw new Error(`${file}: a list of kind ${kind} where a list of clients was expected`);
}
