/**
 * JSON text as the live service writes it (contract section 1): compact, non-ASCII raw, control
 * characters as short escapes or lower-case `\u00XX` (JSON.stringify already does both), and U+2028 /
 * U+2029 escaped, which Django REST Framework does so that the output is also valid JavaScript.
 */
const LINE_SEPARATORS = /[\u2028\u2029]/g;

export function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return LINE_SEPARATORS.test(text) ? text.replace(LINE_SEPARATORS, escapeSeparator) : text;
}

/** The inside of a JSON string literal: for values spliced into templates. */
export function jsonStringContent(value: string): string {
  return jsonText(value).slice(1, -1);
}

function escapeSeparator(char: string): string {
  return char === '\u2028' ? '\\u2028' : '\\u2029';
}
