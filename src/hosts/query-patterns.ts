/**
 * Regular expressions over a raw (still percent-encoded) query string, for the hosts that route by
 * regex (nginx and Apache use PCRE, Caddy Go's RE2; the patterns below use only what all three share:
 * no lookaround, `(?P<name>...)` groups). They let such a host read a query the way the map says:
 * names and values percent-decoded, a repeated parameter counting with its last value.
 */

/** One character, as itself or percent-encoded (hex digits in either case). */
export function encodedChar(char: string): string {
  const code = char.codePointAt(0)!;
  if (code > 0x7f) throw new Error(`query patterns handle ASCII only, got ${JSON.stringify(char)}`);
  const hex = code.toString(16).padStart(2, '0');
  const hexPattern = [...hex].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
  return `(?:${escapeRegex(char)}|%${hexPattern})`;
}

/** A whole text, each character as itself or percent-encoded. */
export function encodedLiteral(text: string): string {
  return [...text].map(encodedChar).join('');
}

/** One decimal digit from `range` (a character class body such as `0-9`), plain or percent-encoded. */
export function encodedDigit(range = '0-9'): string {
  return `(?:[${range}]|%3[${range}])`;
}

/**
 * Matches a whole query string and captures, as `value`, the raw value of the last `name` parameter
 * (empty for `name` or `name=`). The greedy `(?:.*&)?` makes the last occurrence the one captured.
 * A query without the parameter does not match.
 */
export function lastValuePattern(name: string, group = 'value'): string {
  return `^(?:.*&)?${encodedLiteral(name)}(?:=(?P<${group}>[^&]*))?(?:&.*)?$`;
}

/** A value that is any of `values` exactly, each possibly percent-encoded. */
export function oneOfPattern(values: readonly string[]): string {
  return `^(?:${values.map(encodedLiteral).join('|')})$`;
}

/** Whole numbers from `min` to `max`, leading zeros allowed, digits possibly percent-encoded. */
export function numberRangePattern(min: number, max: number): string {
  const numbers: string[] = [];
  for (let n = min; n <= max; n++) numbers.push([...String(n)].map((digit) => encodedDigit(digit)).join(''));
  return `^${encodedDigit('0')}*(?:${numbers.join('|')})$`;
}

/**
 * A page number of at most `maxDigits` digits (leading zeros allowed, digits possibly encoded), with
 * each digit captured so the host can rebuild the plain number: position i is captured as
 * `${prefix}${i}a` when plain and `${prefix}${i}b` when encoded; `groups` lists them in order, and
 * their concatenation is the number (one of each pair is always empty).
 */
export function pageNumberPattern(maxDigits: number, prefix: string): { pattern: string; groups: string[] } {
  const groups: string[] = [];
  const positions: string[] = [];
  for (let i = 1; i <= maxDigits; i++) {
    const range = i === 1 ? '1-9' : '0-9';
    const plain = `${prefix}${i}a`;
    const encoded = `${prefix}${i}b`;
    groups.push(plain, encoded);
    const position = `(?:(?P<${plain}>[${range}])|%3(?P<${encoded}>[${range}]))`;
    positions.push(i === 1 ? position : `${position}?`);
  }
  return { pattern: `^${encodedDigit('0')}*${positions.join('')}$`, groups };
}

export function escapeRegex(text: string): string {
  // Only the characters special in PCRE and RE2 alike; `-` and `/` are plain outside a class.
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
