/**
 * A filter's value read as the live service reads it (contract section 8). Pure and ES5-friendly: the
 * router runs here, in the Cloudflare Worker and in the CloudFront Function.
 *
 * `registrant_id` is a django-filter NumberFilter: Django's DecimalField hands the text to Python's
 * `decimal.Decimal`, which drops underscores, reads any Unicode decimal digit as its ASCII digit and
 * trims white space; the number must be finite, and the database lookup then cuts it toward zero.
 */

/** Python's white space (`str.isspace`), which Decimal trims: JavaScript's `\s` differs in a few characters. */
export const PYTHON_SPACE = /^[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;

/**
 * The zero of every run of ten Unicode decimal digits (general category Nd), for reading them as
 * Python does; generated from `/\p{Nd}/u`, written out because the CloudFront runtime has no `\p`.
 */
export const DIGIT_ZEROS = [
  0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50,
  0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40,
  0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30, 0x10d40, 0x11066,
  0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x116d0, 0x116da, 0x11730, 0x118e0,
  0x11950, 0x11bf0, 0x11c50, 0x11d50, 0x11da0, 0x11de0, 0x11f50, 0x16130, 0x16a60, 0x16ac0, 0x16b50, 0x16d70,
  0x1ccf0, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e4f0, 0x1e5f1, 0x1e950, 0x1fbf0,
];

/** Decimal's grammar once the text is ASCII: sign, integer, `.` and fraction, exponent. */
const FINITE_DECIMAL = /^([+-]?)(?=[0-9]|\.[0-9])([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/**
 * The integer a number filter's value names, in canonical form (decimal digits, `-` for a negative,
 * no leading zeros: `007` and `7.9` and `0.7e1` are `7`); `''` when the integer has more than
 * `maxDigits` digits (no record has such an id); undefined when the value is not a finite number.
 */
export function decimalInteger(value: string, maxDigits: number): string | undefined {
  const text = asciiNumberText(value);
  const match = text === undefined ? null : FINITE_DECIMAL.exec(text);
  if (match === null) return undefined;
  const exponent = match[4] ? parseInt(match[4], 10) : 0;
  let digits = match[2]! + (match[3] || '');
  // Where the decimal point falls in `digits`, once the exponent has moved it.
  let point = match[2]!.length + exponent;
  while (digits.charAt(0) === '0') {
    digits = digits.slice(1);
    point--;
  }
  if (digits === '' || point <= 0) return '0';
  if (point > maxDigits) return '';
  let integer = digits.slice(0, point);
  while (integer.length < point) integer += '0';
  return (match[1] === '-' ? '-' : '') + integer;
}

/**
 * The value as Decimal sees it before parsing: underscores dropped, white space trimmed, every Unicode
 * decimal digit as its ASCII digit; undefined when another character beyond ASCII is in it.
 */
function asciiNumberText(value: string): string | undefined {
  let text = '';
  for (let at = 0; at < value.length; at++) {
    // codePointAt, not charCodeAt: the CloudFront runtime documents only the former.
    const code = value.codePointAt(at)!;
    if (code > 0xffff) at++;
    const char = code < 0x10000 ? String.fromCharCode(code) : '';
    if (char === '_') continue;
    if (char !== '' && PYTHON_SPACE.test(char)) text += ' ';
    else if (code < 0x80) text += char;
    else {
      const digit = unicodeDigit(code);
      if (digit === undefined) return undefined;
      text += String(digit);
    }
  }
  return text.replace(/^ +| +$/g, '');
}

function unicodeDigit(code: number): number | undefined {
  for (let i = 0; i < DIGIT_ZEROS.length; i++) {
    const zero = DIGIT_ZEROS[i]!;
    if (code >= zero && code < zero + 10) return code - zero;
  }
  return undefined;
}
