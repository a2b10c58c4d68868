import { NUMBER_SPELLINGS } from '../../routing/number-spellings.ts';
import { encodedChar, encodedDigit } from '../query-patterns.ts';

/**
 * A number filter's raw (still percent-encoded) value as regex rules of Caddy `map`s, each with the
 * list folder it selects. Caddy's regex outputs can only repeat what a group captured, so each
 * significant digit is captured on its own, plain or encoded (as a page number is), and the canonical
 * integer is their concatenation. What rules can read is read as the router reads it: a sign (`+`
 * sent as `%2B`: a bare `+` is a space), leading zeros, digits, a `.` and digits that the cut toward
 * zero drops, white space around the number and `_` anywhere in it. Beyond that (an exponent, which
 * would move the point by any number of places; a digit of another script, which a capture cannot
 * turn into its ASCII digit), a value matches no rule.
 */

/**
 * The characters the router drops in a number (`inside`, any number of them after each of its
 * characters) and around it (`around`): the separators, and the white space trimmed around it.
 */
function numberFillers(): { around: string; inside: string } {
  const { spaces, separators } = NUMBER_SPELLINGS;
  const inside = separators.map(queryChar);
  const inner = inside.length === 1 ? inside[0]! : `(?:${inside.join('|')})`;
  return { around: `(?:${[...spaces.map(queryChar), ...inside].join('|')})`, inside: `${inner}*` };
}

/** One character of a raw query value: as itself or percent-encoded in UTF-8, and a space also as `+`. */
function queryChar(char: string): string {
  if (char.charCodeAt(0) < 0x80) return char === ' ' ? `(?:\\+|${encodedChar(char)})` : encodedChar(char);
  return `(?:\\x{${char.charCodeAt(0).toString(16)}}|${percentEncoded(char)})`;
}

/** A character percent-encoded in UTF-8 only, hex digits in either case. */
function percentEncoded(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((byte) => `%${hexDigit(byte >> 4)}${hexDigit(byte & 15)}`).join('');
}

function hexDigit(value: number): string {
  const digit = value.toString(16);
  return /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit;
}

/** The value without the white space and `_`s around it (a value of nothing else keeps one: it is not empty). */
export function trimmedValuePattern(): string {
  const { around } = numberFillers();
  return `^${around}*(?P<v>.+?)${around}*$`;
}

/**
 * The rules over a trimmed value (`_`s may follow its sign, digits and point), in order, for an integer of at most `maxDigits` digits (the map's
 * `idDigits`); a longer one names no list (the router's empty canonical value), so it selects the
 * folder of the empty value, which no build writes. `folder` gives the folder of a canonical value as
 * a regex output (the value may hold `${group}`s).
 */
export function integerRules(maxDigits: number, groupPrefix: string, folder: (value: string) => string): { pattern: string; part: string }[] {
  const _ = numberFillers().inside;
  // A `+` sent as itself is a space: the sign is only ever sent percent-encoded.
  const plus = `${percentEncoded(NUMBER_SPELLINGS.plus)}${_}`;
  const minus = `${encodedChar(NUMBER_SPELLINGS.minus)}${_}`;
  const zero = `${encodedDigit(NUMBER_SPELLINGS.zero)}${_}`;
  const digit = `${encodedDigit()}${_}`;
  const point = `${encodedChar(NUMBER_SPELLINGS.point)}${_}`;
  /** The fraction, which cutting toward zero drops whatever its digits. */
  const fraction = `(?:${point}(?:${digit})*)?`;
  const groups: string[] = [];
  const positions: string[] = [];
  for (let i = 1; i <= maxDigits; i++) {
    const range = i === 1 ? '1-9' : '0-9';
    const [plain, encoded] = [`${groupPrefix}${i}a`, `${groupPrefix}${i}b`];
    groups.push(plain, encoded);
    positions.push(`(?:(?:(?P<${plain}>[${range}])|%3(?P<${encoded}>[${range}]))${_})${i === 1 ? '' : '?'}`);
  }
  const digits = groups.map((group) => `\${${group}}`).join('');
  const significant = `(?:${zero})*${positions.join('')}${fraction}`;
  return [
    { pattern: `^(?:${plus})?${significant}$`, part: folder(digits) },
    { pattern: `^${minus}${significant}$`, part: folder(`-${digits}`) },
    // Nothing before the point but zeros: 0, whatever the sign (`-0.5` is 0).
    { pattern: `^(?:${plus}|${minus})?(?:(?:${zero})+${fraction}|${point}(?:${digit})+)$`, part: folder('0') },
    { pattern: `^(?:${plus}|${minus})?(?:${zero})*${encodedDigit('1-9')}${_}(?:${digit}){${maxDigits},}${fraction}$`, part: folder('') },
  ];
}
