import { hasBit, type Bitmap } from '../bundle/key-lists.ts';
import { sortedIndexOf, upperBound } from '../bundle/sorted-arrays.ts';

/**
 * The clients a request selects (client numbers, ascending), as the orders ask for them: how many,
 * the one at a place, whether one is selected. Kept as the key index's lists were read: a list of one
 * criterion that the segment holds as a bitmap (`TI`: 58,330 of 131,072 clients, 16 KB) stays that
 * bitmap, counted but never decoded whole, where a page needs 25 of its clients and an ordering asks
 * about a few hundred (a fresh instance spent 2 to 4 ms decoding it, in a loop run interpreted).
 */
export interface Selection {
  readonly count: number;
  /** The client at `place` (0 to count - 1) in ascending order. */
  at(place: number): number;
  has(client: number): boolean;
  /** Every client selected, in ascending order. */
  each(visit: (client: number) => void): void;
  /** The bytes it holds, for the result cache's weight. */
  readonly bytes: number;
}

/**
 * Clients listed in an array. Whether one is selected is found by halving the array while few have
 * been asked about (a page of a large selection asks a few hundred), then from a bitmap of one bit a
 * client once asking costs as much as making it (a cold isolate spent 3 to 5 ms making a bitmap of
 * 22,426 clients).
 */
export function listedSelection(clients: Int32Array, total: number): Selection {
  let bits: Uint8Array | undefined;
  let asked = 0;
  return {
    count: clients.length,
    at: (place) => clients[place]!,
    has(client) {
      if (bits === undefined && ++asked > clients.length / 16) {
        bits = new Uint8Array(Math.ceil(total / 8));
        for (let i = 0; i < clients.length; i++) bits[clients[i]! >>> 3]! |= 1 << (clients[i]! & 7);
      }
      if (bits !== undefined) return hasBit(bits, client);
      return sortedIndexOf(clients, client) >= 0;
    },
    each(visit) {
      for (let i = 0; i < clients.length; i++) visit(clients[i]!);
    },
    get bytes() {
      return clients.byteLength + (bits?.byteLength ?? 0);
    },
  };
}

/** Bytes of a bitmap counted together: a place is found from these counts, then in at most this many bytes. */
const COUNTED_BYTES = 64;

/** The set bits of each byte value. */
const BITS_SET = new Uint8Array(256);
for (let byte = 1; byte < 256; byte++) BITS_SET[byte] = (byte & 1) + BITS_SET[byte >>> 1]!;

/**
 * The clients of a bitmap as the key index holds it (bundle/key-lists.ts: its bits, first client and
 * count). Its count is the list's own; the clients before each run of COUNTED_BYTES bytes are counted
 * only as far as a place asked for needs: a first page in id order counts a few runs, where counting
 * the whole bitmap (16 KB, a byte a turn) was a loop a fresh instance ran interpreted for every search.
 */
export function bitmapSelection({ bits, first, count }: Bitmap): Selection {
  const runs = Math.ceil(bits.length / COUNTED_BYTES);
  // before[r]: the clients in the runs before run r, for r up to `counted`; past it, the whole count
  // (more than any place), so that the array stays ascending for the search of a place's run.
  const before = new Int32Array(runs + 1).fill(count);
  before[0] = 0;
  let counted = 0;
  return {
    count,
    at(place) {
      if (place < 0 || place >= count) throw new RangeError(`Expected a place from 0 to ${count - 1}, not ${place}`);
      while (counted < runs && before[counted]! <= place) {
        let sum = before[counted]!;
        for (let at = counted * COUNTED_BYTES, end = Math.min(at + COUNTED_BYTES, bits.length); at < end; at++) sum += BITS_SET[bits[at]!]!;
        before[++counted] = sum;
      }
      const run = upperBound(before, place) - 1;
      let left = place - before[run]!;
      for (let at = run * COUNTED_BYTES; ; at++) {
        for (let byte = bits[at]!; byte !== 0; byte &= byte - 1) {
          if (left-- === 0) return first + 8 * at + 31 - Math.clz32(byte & -byte);
        }
      }
    },
    has(client) {
      const bit = client - first;
      return bit >= 0 && bit < 8 * bits.length && hasBit(bits, bit);
    },
    each(visit) {
      for (let at = 0; at < bits.length; at++) {
        for (let byte = bits[at]!; byte !== 0; byte &= byte - 1) visit(first + 8 * at + 31 - Math.clz32(byte & -byte));
      }
    },
    bytes: bits.byteLength + before.byteLength,
  };
}

/** Selections of consecutive ranges of clients (the segments), in ascending order, as one: part k's clients are `starts[k]` + its own. */
export function joinedSelection(parts: readonly Selection[], starts: readonly number[]): Selection {
  if (parts.length === 1 && starts[0] === 0) return parts[0]!;
  const before = [0];
  for (const part of parts) before.push(before.at(-1)! + part.count);
  return {
    count: before.at(-1)!,
    at(place) {
      const k = upperBound(before, place) - 1;
      return starts[k]! + parts[k]!.at(place - before[k]!);
    },
    has(client) {
      const k = upperBound(starts, client) - 1;
      return k >= 0 && parts[k]!.has(client - starts[k]!);
    },
    each(visit) {
      parts.forEach((part, k) => part.each((client) => visit(starts[k]! + client)));
    },
    get bytes() {
      return parts.reduce((sum, part) => sum + part.bytes, 0);
    },
  };
}
