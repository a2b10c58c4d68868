import { IdSet } from './id-set.ts';

/**
 * The client results of one link shape (one format) that a render thread parsed and followed
 * without a problem, by client id, with the length of their text. The render threads share them:
 * a client's body is the same bytes on every page and in its record file (the same store row
 * through the same renderer), so once any thread verified it, no thread parses it again, and its
 * record file is not parsed either when its text is that long and names the same link.
 *
 * The shared part is an `Int32Array` over a `SharedArrayBuffer`, one slot per client id up to the
 * store's largest (ids are dense: 4 bytes a client). An id past it, or a shape no build made (no
 * shared array), is kept in this thread only, without its length.
 */
export class VerifiedResults {
  private readonly local = new IdSet();

  constructor(private readonly shared?: Int32Array) {}

  /** The length of the verified result of `id`; `LENGTH_NOT_KEPT` when verified here without it; 0 when not verified. */
  lengthOf(id: number): number {
    // A plain read, not `Atomics.load` (a call per result, millions per build): an Int32Array's
    // element is read whole even while another thread stores it (tear-free, ECMA-262 §25.4), so it
    // is 0 or the length some thread stored, and nothing else is read on the strength of it.
    if (this.shared !== undefined && id < this.shared.length) return this.shared[id]!;
    return this.local.has(id) ? LENGTH_NOT_KEPT : 0;
  }

  add(id: number, length: number): void {
    if (this.shared !== undefined && id < this.shared.length) Atomics.store(this.shared, id, length);
    else this.local.add(id);
  }
}

/** What `lengthOf` says of a result verified by this thread alone: no record file's text matches it. */
export const LENGTH_NOT_KEPT = -1;

/**
 * The arrays the render threads share, one per format, in the order of the build's formats (each
 * goes with the `url` suffix of its format); none when the ids are too sparse for a slot per id to
 * be cheap, as registrant ids would be (then each thread keeps its own).
 */
export interface SharedVerifiedResults {
  suffixes: string[];
  buffers: SharedArrayBuffer[];
}

/** Shared only with at most this many slots per client, 16,384 more (64 KiB): dense ids, as every registry's are, cost 4 bytes a client. */
const SLOTS_PER_CLIENT = 16;

export function sharedVerifiedResults(suffixes: readonly string[], clients: number, largestId: number): SharedVerifiedResults | undefined {
  const slots = largestId + 1;
  if (!Number.isSafeInteger(slots) || slots > SLOTS_PER_CLIENT * clients + 16_384) return undefined;
  return { suffixes: [...suffixes], buffers: suffixes.map(() => new SharedArrayBuffer(4 * slots)) };
}
