/**
 * Reading JSON text in place, character by character, for the check's fast paths (`readHead`,
 * `LinkShapes`): nothing here allocates, since they run for every page and every result.
 */
export const QUOTE = 34;
export const BACKSLASH = 92;
export const ZERO = 48;
const NINE = 57;

/** Where the decimal digits of `text` from `from` end: at most 15 of them (so their value is exact), and not past `end`. */
export function digitsEnd(text: string, from: number, end: number): number {
  let at = from;
  while (at < end && at - from < 15) {
    const code = text.charCodeAt(at);
    if (code < ZERO || code > NINE) break;
    at++;
  }
  return at;
}

/** The value of the digits `text[from, to)`, as `digitsEnd` found them. */
export function digitsValue(text: string, from: number, to: number): number {
  let value = 0;
  for (let at = from; at < to; at++) value = value * 10 + text.charCodeAt(at) - ZERO;
  return value;
}

/** Whether the digits `text[from, to)` are a whole number as JSON writes one: some digits, no leading zero but `0` itself. */
export function isJsonWholeNumber(text: string, from: number, to: number): boolean {
  return to > from && (text.charCodeAt(from) !== ZERO || to === from + 1);
}
