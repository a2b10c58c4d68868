import { POSITIONS, type AddOccurrence } from './key-lists.ts';
import { readVarint, varintEnd, varintSize, writeVarint } from './varints.ts';

/**
 * The positional lists of a key index (key-lists.ts, kind `POSITIONS`): every occurrence of a
 * trigram, by local index then byte position, so that a search can ask for trigrams at aligned
 * positions.
 *
 *   POSITIONS | skip table's bytes | skip table | occurrences
 *
 * An occurrence is a varint gap of local index (0: the same name again) and a varint position (after
 * a 0, the gap from the previous position). Every `BLOCK` occurrences, the skip table says the local
 * index of the last occurrence before the next block (as a gap from the previous skip's) and the bytes
 * of the block before: a search left with few matches jumps to the blocks that can hold them instead
 * of decoding the whole list (a whole name: from 110,000 occurrences to a few thousand). A jump lands
 * after a client before the next match's, so the positions of that client's last occurrences, which
 * would need the position before the block, are never compared: the skip does not hold it.
 */
const BLOCK = 64;
const NO_SKIP = 0x7fffffff;

/** Each key's positional list (by its number), as views of one buffer: measured in a first pass of the occurrences, written in a second. */
export function buildPositionLists(keyCount: number, visit: (add: AddOccurrence) => void): Uint8Array[] {
  const state = {
    count: new Int32Array(keyCount),
    lastLocal: new Int32Array(keyCount).fill(-1),
    lastPosition: new Int32Array(keyCount),
    skipLocal: new Int32Array(keyCount),
    // Where the block being written started, and where the next occurrence and skip go (a size in the first pass).
    blockAt: new Float64Array(keyCount),
    at: new Float64Array(keyCount),
    skipAt: new Float64Array(keyCount),
  };
  visit((id, local, position) => addOccurrence(state, undefined, id, local, position));
  const starts = new Float64Array(keyCount + 1);
  const tableBytes = state.skipAt.slice();
  for (let id = 0; id < keyCount; id++) {
    starts[id + 1] = starts[id]! + (state.count[id] === 0 ? 0 : 1 + varintSize(tableBytes[id]!) + tableBytes[id]! + state.at[id]!);
  }
  const bytes = new Uint8Array(starts[keyCount]!);
  state.count.fill(0);
  state.lastLocal.fill(-1);
  state.skipLocal.fill(0);
  for (let id = 0; id < keyCount; id++) {
    if (starts[id] === starts[id + 1]) continue;
    bytes[starts[id]!] = POSITIONS;
    state.skipAt[id] = writeVarint(bytes, starts[id]! + 1, tableBytes[id]!);
    state.at[id] = state.blockAt[id] = state.skipAt[id]! + tableBytes[id]!;
  }
  visit((id, local, position) => addOccurrence(state, bytes, id, local, position));
  return Array.from({ length: keyCount }, (_, id) => bytes.subarray(starts[id]!, starts[id + 1]!));
}

type BuildState = Record<'count' | 'lastLocal' | 'lastPosition' | 'skipLocal', Int32Array> & Record<'blockAt' | 'at' | 'skipAt', Float64Array>;

/** Writes an occurrence (and a skip before it, where a block starts) into `bytes`, or only counts its bytes. */
function addOccurrence(state: BuildState, bytes: Uint8Array | undefined, id: number, local: number, position: number): void {
  const { count, lastLocal, lastPosition, skipLocal, blockAt, at, skipAt } = state;
  if (count[id]! > 0 && count[id]! % BLOCK === 0) {
    const skip = [lastLocal[id]! - skipLocal[id]!, at[id]! - blockAt[id]!];
    for (const value of skip) skipAt[id] = bytes === undefined ? skipAt[id]! + varintSize(value) : writeVarint(bytes, skipAt[id]!, value);
    skipLocal[id] = lastLocal[id]!;
    blockAt[id] = at[id]!;
  }
  const gap = local - lastLocal[id]!;
  const value = gap === 0 ? position - lastPosition[id]! : position;
  at[id] = bytes === undefined ? at[id]! + varintSize(gap) + varintSize(value) : writeVarint(bytes, writeVarint(bytes, at[id]!, gap), value);
  count[id]!++;
  lastLocal[id] = local;
  lastPosition[id] = position;
}

/** Where a pattern may begin in which client: ascending by client, then start; `count` of them. */
export interface Matches {
  locals: Int32Array;
  starts: Int32Array;
  count: number;
}

/**
 * The loops below run over thousands of occurrences in one answer, in short calls: a span of bytes
 * (SPAN_BYTES) or of matches (SPAN_MATCHES) a call. A fresh instance runs them first in V8's
 * interpreter; a loop that runs on for thousands of turns inside one call is compiled on the stack
 * (on-stack replacement) and then again for its next call, where short calls are compiled once, as
 * the function they are. On a whole name's first answer, in fresh Deno processes (V8 15), the
 * helper threads that compile spent 8.1 ms in one long call a list and 5.2 in spans (31 a side); in
 * fresh workerd isolates, 5.2 and 2.7 (15 a side); the isolate's own thread about the same. The state
 * a span leaves for the next is kept in `cursor`, read into locals at a call's start and written back
 * at its end.
 */
const SPAN_BYTES = 512;
const SPAN_MATCHES = 64;

/**
 * A decoding's state between spans: where it is in the list, the last occurrence's client and
 * position, and the matches kept. One for every call: matchesAt and confirmMatchesAt run to their end
 * without a pause, and neither calls the other.
 */
const cursor = { at: 0, local: -1, position: 0, kept: 0 };

/**
 * The matches of a trigram found at `offset` of a pattern: each occurrence of the `POSITIONS` list
 * (bytes `from` to `to` of `bytes`) shifted back by the offset, those that would start before the name
 * left out. The first list of a search, decoded whole; the others only confirm (`confirmMatchesAt`).
 */
export function matchesAt(bytes: Uint8Array, from: number, to: number, offset: number, file: string): Matches {
  checkPositions(bytes, from, file);
  const first = readVarint(bytes, from + 1) + varintEnd;
  // Two bytes at least an occurrence.
  const most = (to - first) >>> 1;
  const locals = new Int32Array(most);
  const starts = new Int32Array(most);
  cursor.at = first;
  cursor.local = -1;
  cursor.position = 0;
  cursor.kept = 0;
  while (cursor.at < to) decodeSpan(bytes, Math.min(cursor.at + SPAN_BYTES, to), offset, locals, starts);
  return { locals, starts, count: cursor.kept };
}

/** The occurrences from `cursor.at` to the first that ends at or past `end`, kept as matches at `offset` (matchesAt). */
function decodeSpan(bytes: Uint8Array, end: number, offset: number, locals: Int32Array, starts: Int32Array): void {
  let { at, local, position, kept } = cursor;
  while (at < end) {
    // An occurrence: two varints, most often of one byte each, read in place (a call an occurrence
    // cost more than the reading, interpreted).
    let gap = bytes[at++]!;
    if (gap >= 0x80) {
      gap = readVarint(bytes, at - 1);
      at = varintEnd;
    }
    let value = bytes[at++]!;
    if (value >= 0x80) {
      value = readVarint(bytes, at - 1);
      at = varintEnd;
    }
    local += gap;
    position = gap === 0 ? position + value : value;
    if (position >= offset) {
      locals[kept] = local;
      starts[kept++] = position - offset;
    }
  }
  cursor.at = at;
  cursor.local = local;
  cursor.position = position;
  cursor.kept = kept;
}

/** Confirming's state between spans of matches: the next skip (the client before its block, NO_SKIP past the table), where the rest of it is read, and the block it leads to. */
const skips = { local: 0, rest: 0, to: 0 };

/**
 * Of the matches `found` (of other trigrams), those the trigram of the `POSITIONS` list confirms at
 * `offset` of the pattern, kept in place. Led by the matches: for each, the skip table jumps to the
 * last block that starts after an occurrence of a client before the match's, and the occurrences are
 * decoded from there up to the match (64 at most), so that few matches cost a few blocks, whatever the
 * list's length. A loop of its own, apart from the first list's: a fresh instance compiles each for
 * what it does, and neither meets code the other has not run.
 */
export function confirmMatchesAt(bytes: Uint8Array, from: number, to: number, offset: number, found: Matches, file: string): Matches {
  checkPositions(bytes, from, file);
  const tableBytes = readVarint(bytes, from + 1);
  const tableEnd = varintEnd + tableBytes;
  skips.local = tableBytes > 0 ? readVarint(bytes, varintEnd) : NO_SKIP;
  skips.rest = varintEnd;
  skips.to = tableEnd;
  cursor.at = tableEnd;
  cursor.local = -1;
  // The start (position shifted back by the offset) of the last occurrence read.
  cursor.position = 0;
  cursor.kept = 0;
  for (let i = 0; i < found.count; i += SPAN_MATCHES) {
    if (!confirmSpan(bytes, tableEnd, to, offset, found, i, Math.min(i + SPAN_MATCHES, found.count))) break;
  }
  found.count = cursor.kept;
  return found;
}

/** Confirms matches [first, end) of `found` (confirmMatchesAt), the skip table ending at `tableEnd`; false once the list is read to its end (no later match can be confirmed). */
function confirmSpan(bytes: Uint8Array, tableEnd: number, to: number, offset: number, found: Matches, first: number, end: number): boolean {
  const { locals, starts } = found;
  let { local: skipLocal, rest: skipRest, to: skipTo } = skips;
  let { at, local, position: start, kept } = cursor;
  let more = true;
  for (let i = first; i < end && more; i++) {
    const wanted = locals[i]!;
    const wantedStart = starts[i]!;
    while (skipLocal < wanted) {
      skipTo += readVarint(bytes, skipRest);
      const next = varintEnd;
      if (skipTo > at) {
        at = skipTo;
        local = skipLocal;
      }
      skipLocal = next < tableEnd ? skipLocal + readVarint(bytes, next) : NO_SKIP;
      skipRest = varintEnd;
    }
    // On to the first occurrence at or after the match.
    while (local < wanted || (local === wanted && start < wantedStart)) {
      if (at >= to) {
        more = false;
        break;
      }
      // An occurrence, read in place as in decodeSpan.
      let gap = bytes[at++]!;
      if (gap >= 0x80) {
        gap = readVarint(bytes, at - 1);
        at = varintEnd;
      }
      let value = bytes[at++]!;
      if (value >= 0x80) {
        value = readVarint(bytes, at - 1);
        at = varintEnd;
      }
      local += gap;
      start = gap === 0 ? start + value : value - offset;
    }
    if (more && local === wanted && start === wantedStart) {
      locals[kept] = wanted;
      starts[kept++] = wantedStart;
    }
  }
  skips.local = skipLocal;
  skips.rest = skipRest;
  skips.to = skipTo;
  cursor.at = at;
  cursor.local = local;
  cursor.position = start;
  cursor.kept = kept;
  return more;
}

function checkPositions(bytes: Uint8Array, from: number, file: string): void {
  if (bytes[from] !== POSITIONS) throw new Error(`${file}: a list of kind ${bytes[from]} where a list of positions was expected`);
}

/** A trigram's occurrences: each one's local index and byte position, ascending by both. */
export interface Occurrences {
  locals: Int32Array;
  positions: Int32Array;
}

export function decodeOccurrences(bytes: Uint8Array, from: number, to: number, file: string): Occurrences {
  const found = matchesAt(bytes, from, to, 0, file);
  return { locals: found.locals.subarray(0, found.count), positions: found.starts.subarray(0, found.count) };
}
