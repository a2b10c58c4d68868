import type { TextList } from '../bundle/text-list.ts';

/**
 * `registrant_name` on the registrants list: the places of the names that hold the pattern (both
 * upper-cased UTF-8, search-text.ts), found by the engine's own substring search (`indexOf`) over
 * the names as one text, not byte by byte in JavaScript: a fresh instance runs its JavaScript
 * interpreted at first, where a loop over every byte of 17,000 names costs several milliseconds.
 *
 * The bytes are read as windows-1252, which gives each byte a code unit of its own and no two bytes
 * the same one: the text's offsets are the bytes' (the names' ends apply as they are), and a pattern
 * read the same way is in the text exactly where its bytes are in the names. No name holds a NUL,
 * and no pattern does (it is a 400), so a match never runs from one name into the next.
 */
const byteText = new TextDecoder('windows-1252');
const texts = new WeakMap<TextList, string>();

/** The places (ascending) of the names that hold `pattern`. */
export function registrantsNamed(names: TextList, pattern: Uint8Array): Int32Array {
  let text = texts.get(names);
  if (text === undefined) texts.set(names, (text = byteText.decode(names.bytes)));
  const wanted = byteText.decode(pattern);
  const { ends } = names;
  const found = new Int32Array(ends.length);
  let count = 0;
  let name = 0;
  for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, ends[name]! + 1)) {
    while (ends[name]! < at) name++;
    found[count++] = name;
  }
  return found.subarray(0, count);
}
