/**
 * Whole numbers of the key index's lists in 7 bits a byte, lowest first, the high bit saying another
 * byte follows. Most are below 128: one byte.
 */
export function varintSize(value: number): number {
  let size = 1;
  for (; value >= 0x80; value = Math.floor(value / 0x80)) size++;
  return size;
}

/** Writes `value` at `at`; where the next byte goes. */
export function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  for (; value >= 0x80; value = Math.floor(value / 0x80)) bytes[at++] = (value % 0x80) | 0x80;
  bytes[at++] = value;
  return at;
}

/** Where the last `readVarint` ended: a reader's cursor, so that a read makes no object. */
export let varintEnd = 0;

/**
 * The number at `at` (of at most 31 bits, as local indexes, positions and lengths are); it ends at
 * `varintEnd`. The loops over thousands of entries (key-lists.ts' `decodeLocals`, position-lists.ts'
 * spans of occurrences) read a value of one byte in place and call this only for a longer one: a fresh
 * instance runs them interpreted, where the call would cost more than the byte's read.
 */
export function readVarint(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++]!;
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  varintEnd = at;
  return value;
}
