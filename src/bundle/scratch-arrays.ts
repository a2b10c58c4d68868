/**
 * Working arrays that one answer leaves for the next: a name search's matches, a counting sort's
 * buckets. Made fresh, each would be up to half a megabyte outside the JavaScript
 * heap, for every search: the bench found those allocations, the pages they touch and the
 * collections they set off in most of the slowest answers (issue 31, p99).
 *
 * A slot is written and read by synchronous code only (no `await` between), and whatever must outlive
 * that code is copied out of it, so one array a slot is enough for a whole isolate. A caller names
 * its own slot: two arrays in use at once are two slots.
 */
export type ScratchSlot = 'names' | 'buckets';

const buffers = new Map<ScratchSlot, ArrayBuffer>();

function buffer(slot: ScratchSlot, bytes: number): ArrayBuffer {
  let held = buffers.get(slot);
  if (held === undefined || held.byteLength < bytes) {
    // Grown by doubling at least, so that a slot settles after a few answers.
    held = new ArrayBuffer(Math.max(bytes, 2 * (held?.byteLength ?? 0), 4096));
    buffers.set(slot, held);
  }
  return held;
}

/** `length` entries of the slot's array, as they were left: write before reading. */
export function scratchInt32(slot: ScratchSlot, length: number): Int32Array {
  return new Int32Array(buffer(slot, length * 4), 0, length);
}

/** `length` entries of the slot's array, each 0. */
export function zeroedUint32(slot: ScratchSlot, length: number): Uint32Array {
  return new Uint32Array(buffer(slot, length * 4), 0, length).fill(0);
}
