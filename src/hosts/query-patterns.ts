import type { ChoiceStep, PageStep } from '../plan/rewrite-map.ts';

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

/** A raw value, matched by `pattern`, and the part of the file name it selects. */
export interface ValueRule {
  pattern: string;
  part: string;
}

/** A choice step's values as patterns over the raw value, each with the part it selects; any other value is the step's error. */
export function choiceRules(step: ChoiceStep): ValueRule[] {
  return Object.entries(step.choices).map(([value, part]) => ({ pattern: value === '' ? '^$' : oneOfPattern([value]), part }));
}

/**
 * A page step's values as patterns over the raw value, first match wins, each with the file it
 * selects: absent or empty, the alias, page 1 (leading zeros allowed), then any number of at most the
 * last page's digits, rebuilt from the captured digits (`reference` spells a capture group in the
 * host's syntax). A number past the last page selects a file that does not exist: the route's
 * missing file answers. Any other value is the step's error.
 */
export function pageRules(step: PageStep, groupPrefix: string, reference: (group: string) => string): ValueRule[] {
  const file = (n: string) => (n === '1' ? step.firstFile : step.otherFile.replace('{n}', n));
  const number = pageNumberPattern(String(step.last).length, groupPrefix);
  return [
    { pattern: '^$', part: step.firstFile },
    { pattern: oneOfPattern([step.lastAlias]), part: file(String(step.last)) },
    { pattern: numberRangePattern(1, 1), part: step.firstFile },
    { pattern: number.pattern, part: file(number.groups.map(reference).join('')) },
  ];
}

/**
 * Over the raw values of several parameters joined as `&v0&v1...` (a raw value never holds `&`):
 * matches when the value at `index` is not empty. Tried in order, the first match names the first
 * parameter given a value.
 */
export function filledValuePattern(index: number): string {
  return `^(?:&[^&]*){${index}}&[^&]`;
}

/**
 * Whole numbers from `min` to `max` (0 <= min <= max) as a regular expression without leading zeros,
 * anchors or capture groups, made of digit ranges rather than one alternative per number, so it stays
 * short for a range of 100,000 pages. `digit` spells a class of digits (`1-9`, `0-4`, `7`), as a
 * character class by default; `encodedDigit` also lets each digit be percent-encoded.
 */
export function numberRangeRegex(min: number, max: number, digit: (range: string) => string = (range) => `[${range}]`): string {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || min > max) {
    throw new RangeError(`Expected a range of whole numbers from 0 up, got ${min} to ${max}`);
  }
  const pieces: string[] = [];
  for (let length = String(min).length; length <= String(max).length; length++) {
    const low = length === String(min).length ? String(min) : `1${'0'.repeat(length - 1)}`;
    const high = length === String(max).length ? String(max) : '9'.repeat(length);
    pieces.push(sameLengthRange(low, high, digit));
  }
  return pieces.length === 1 ? pieces[0]! : `(?:${pieces.join('|')})`;
}

/** `low` to `high`, two numbers of as many digits: a shared first digit, or the low end, the middle and the high end. */
function sameLengthRange(low: string, high: string, digit: (range: string) => string): string {
  if (low.length === 0) return '';
  const rest = low.length - 1;
  const anyDigits = rest === 0 ? '' : `${digit('0-9')}${rest === 1 ? '' : `{${rest}}`}`;
  const span = (from: number, to: number) => digit(from === to ? String(from) : `${from}-${to}`);
  if (low[0] === high[0]) return `${digit(low[0]!)}${sameLengthRange(low.slice(1), high.slice(1), digit)}`;
  const alternatives: string[] = [];
  let from = Number(low[0]);
  let to = Number(high[0]);
  const lowEnd = /^0*$/.test(low.slice(1)) ? undefined : `${digit(low[0]!)}${sameLengthRange(low.slice(1), '9'.repeat(rest), digit)}`;
  const highEnd = /^9*$/.test(high.slice(1)) ? undefined : `${digit(high[0]!)}${sameLengthRange('0'.repeat(rest), high.slice(1), digit)}`;
  if (lowEnd !== undefined) {
    alternatives.push(lowEnd);
    from += 1;
  }
  if (highEnd !== undefined) to -= 1;
  if (from <= to) alternatives.push(`${span(from, to)}${anyDigits}`);
  if (highEnd !== undefined) alternatives.push(highEnd);
  return alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
}

/** A raw value that is a whole number from `min` to `max`: leading zeros allowed, digits possibly percent-encoded. */
export function encodedNumberRangePattern(min: number, max: number): string {
  return `^${encodedDigit('0')}*${numberRangeRegex(min, max, encodedDigit)}$`;
}

/**
 * A raw query value that, decoded as a form value (`+` is a space), is any of `values` exactly:
 * unlike `oneOfPattern`, a `+` in the raw value reads as a space, and `+` itself only as `%2B`.
 */
export function formValuesPattern(values: readonly string[]): string {
  const char = (c: string) => (c === ' ' ? '(?:\\+|%20)' : c === '+' ? '%2[bB]' : encodedChar(c));
  return `^(?:${values.map((value) => [...value].map(char).join('')).join('|')})$`;
}
