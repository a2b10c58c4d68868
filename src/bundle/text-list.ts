/**
 * Texts one after another in UTF-8, each followed by a NUL byte, and where each one's NUL is: the
 * names the searches read (each upper-cased by `searchText`), and the records' JSON texts.
 *
 * In a list of names the NUL parts one name from the next: no search value holds a NUL (it is a
 * 400), so no match can run across it. A name that is not a string is stored empty: it matches
 * nothing, as NULL matches no LIKE. (JSON text never holds a raw NUL either.)
 */
export interface TextList {
  bytes: Uint8Array;
  ends: Uint32Array;
}

const encoder = new TextEncoder();

export function encodeTextList(texts: readonly string[]): TextList {
  const encoded = texts.map((text) => encoder.encode(text));
  const ends = new Uint32Array(texts.length);
  const bytes = new Uint8Array(encoded.reduce((sum, text) => sum + text.length + 1, 0));
  let at = 0;
  encoded.forEach((text, i) => {
    bytes.set(text, at);
    at += text.length;
    ends[i] = at++;
  });
  return { bytes, ends };
}

/** Where the text at `index` starts. */
export function textStart(list: TextList, index: number): number {
  return index === 0 ? 0 : list.ends[index - 1]! + 1;
}
