/**
 * Python's reading of text where it reads numbers (contract sections 8 and 9): white space as
 * `str.isspace` knows it, Unicode decimal digits (general category Nd) as their ASCII digits,
 * `decimal.Decimal` and `int()` of a string. Pure and ES5-friendly (no `replaceAll`, `padEnd` or
 * `\p`): the router that reads filter values with it also runs in the CloudFront runtime.
 */

/** Python's white space (`str.isspace`), which Decimal and int() trim: JavaScript's `\s` differs in a few characters. */
export const PYTHON_SPACE = /^[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;

/** Whether a code unit is Python's white space. */
export function isPythonSpace(unit: number): boolean {
  return PYTHON_SPACE.test(String.fromCharCode(unit));
}

/** Python's `str.strip()`: white space as `str.isspace` knows it, from both ends. */
export function stripPython(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonSpace(text.charCodeAt(start))) start++;
  while (end > start && isPythonSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

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

/** The value of a Unicode decimal digit (a code point), or undefined for any other character. */
export function decimalDigit(code: number): number | undefined {
  for (let i = 0; i < DIGIT_ZEROS.length; i++) {
    const zero = DIGIT_ZEROS[i]!;
    if (code >= zero && code < zero + 10) return code - zero;
  }
  return undefined;
}

/**
 * The text as Python's number parsers see it first (`_PyUnicode_TransformDecimalAndSpaceToASCII`):
 * white space as a space, every Unicode decimal digit as its ASCII digit; undefined when another
 * character beyond ASCII is in it. Decimal also drops every underscore (`dropUnderscores`).
 */
export function asciiNumberText(value: string, dropUnderscores = false): string | undefined {
  let text = '';
  for (let at = 0; at < value.length; at++) {
    // codePointAt, not charCodeAt: the CloudFront runtime documents only the former.
    const code = value.codePointAt(at)!;
    if (code > 0xffff) at++;
    if (dropUnderscores && code === 0x5f) continue;
    if (code <= 0xffff && isPythonSpace(code)) text += ' ';
    else if (code < 0x80) text += String.fromCharCode(code);
    else {
      const digit = decimalDigit(code);
      if (digit === undefined) return undefined;
      text += String(digit);
    }
  }
  return text;
}

const PYTHON_INT = /^ *([+-]?)([0-9](?:_?[0-9])*) *$/;

/**
 * A string read as Python's `int()` reads it: white space around, a sign, `_` between digits, any
 * Unicode decimal digits; undefined when it is not an integer. A number too large to hold exactly is
 * given as Infinity (or -Infinity): it is only ever compared with page numbers and sizes.
 */
export function pythonInt(value: string): number | undefined {
  const text = asciiNumberText(value);
  const match = text === undefined ? null : PYTHON_INT.exec(text);
  if (match === null) return undefined;
  const digits = match[2]!.replace(/_/g, '').replace(/^0+(?=[0-9])/, '');
  const size = digits.length > 15 ? Infinity : Number(digits);
  return match[1] === '-' ? -size : size;
}

const DECIMAL = /^([+-]?)(?=[0-9]|\.[0-9])([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/**
 * A finite number as Python's `decimal.Decimal` reads a string: white space around it trimmed,
 * underscores dropped, any Unicode decimal digits; a sign, digits with an optional fraction, an
 * optional exponent. Given as its sign, its significant digits (no leading zeros; '' for zero) and
 * where the decimal point falls among them once the exponent has moved it. Undefined when the value is
 * not a finite number (`abc`, `NaN`, `Infinity`, `0x10`, white space alone).
 */
export interface DecimalNumber {
  negative: boolean;
  digits: string;
  point: number;
}

export function pythonDecimal(value: string): DecimalNumber | undefined {
  const text = asciiNumberText(value, true);
  const match = text === undefined ? null : DECIMAL.exec(text.replace(/^ +| +$/g, ''));
  if (match === null) return undefined;
  let digits = match[2]! + (match[3] ?? '');
  let point = match[2]!.length + (match[4] ? parseInt(match[4], 10) : 0);
  const leading = /^0*/.exec(digits)![0].length;
  digits = digits.slice(leading);
  point -= leading;
  return { negative: match[1] === '-', digits: digits.replace(/0+$/, ''), point };
}

/**
 * The integer part of a decimal number, cut toward zero, in decimal digits ('0' for none); undefined
 * when it has more than `maxDigits` (an exponent can name a number of a billion digits).
 */
export function integerDigits(number: DecimalNumber, maxDigits: number): string | undefined {
  if (number.point <= 0 || number.digits === '') return '0';
  if (number.point > maxDigits) return undefined;
  let integer = number.digits.slice(0, number.point);
  while (integer.length < number.point) integer += '0';
  return integer;
}

/** True when a decimal number has digits after its point. */
export function hasFraction(number: DecimalNumber): boolean {
  return number.digits.length > Math.max(number.point, 0);
}
