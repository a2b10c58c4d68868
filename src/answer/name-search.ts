import type { TextList } from '../bundle/text-list.ts';
import { textStart } from '../bundle/text-list.ts';
import { scratchInt32 } from '../bundle/scratch-arrays.ts';

/**
 * Of a list of names (bundle/text-list.ts), those that hold `pattern`, both upper-cased and in UTF-8:
 * among `candidates` (ascending) when given, else all of them, read once from end to end. Bytes,
 * not decoded text: a substring of code points is a substring of their UTF-8 bytes. Found in a
 * scratch array (scratch-arrays.ts), returned as a copy of just the names found.
 */
export function namesHolding(names: TextList, pattern: Uint8Array, candidates?: ArrayLike<number>): Int32Array {
  return candidates === undefined ? scan(names, pattern) : check(names, pattern, candidates);
}

function check(names: TextList, pattern: Uint8Array, candidates: ArrayLike<number>): Int32Array {
  const found = scratchInt32('names', candidates.length);
  let count = 0;
  for (let i = 0; i < candidates.length; i++) {
    const local = candidates[i]!;
    if (holds(names.bytes, textStart(names, local), names.ends[local]!, pattern)) found[count++] = local;
  }
  return found.slice(0, count);
}

function scan(names: TextList, pattern: Uint8Array): Int32Array {
  const { bytes, ends } = names;
  const found = scratchInt32('names', ends.length);
  let count = 0;
  const first = pattern[0]!;
  const last = bytes.length - pattern.length;
  let local = 0;
  for (let at = 0; at <= last; at++) {
    if (bytes[at] !== first || !startsAt(bytes, at, pattern)) continue;
    while (ends[local]! < at) local++;
    found[count++] = local;
    // On to the next name: the loop's step takes `at` past this one's NUL.
    at = ends[local++]!;
  }
  return found.slice(0, count);
}

/** Whether bytes `from` to `to` (exclusive) hold the pattern. */
function holds(bytes: Uint8Array, from: number, to: number, pattern: Uint8Array): boolean {
  const first = pattern[0]!;
  for (let at = from; at <= to - pattern.length; at++) if (bytes[at] === first && startsAt(bytes, at, pattern)) return true;
  return false;
}

function startsAt(bytes: Uint8Array, at: number, pattern: Uint8Array): boolean {
  for (let i = 1; i < pattern.length; i++) if (bytes[at + i] !== pattern[i]) return false;
  return true;
}
