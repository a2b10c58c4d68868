import { DIGIT_ZEROS, PYTHON_SPACE } from './python-text.ts';

/**
 * The spellings of a number filter's value that the router reads (`decimalInteger`, contract section
 * 8), described once for the hosts that read a value with rules instead of running the router (nginx,
 * Caddy, Apache, Vercel). Each translates the description into its own pattern syntax, and declares
 * as its gap what that syntax cannot read: an exponent, which moves the point by any number of
 * places; digits of other scripts, which a capture cannot turn into ASCII digits. Made from the
 * router's own constants (./filter-values.ts) where it has them, so that the two agree.
 *
 * Read in order, a number is: white space, a sign, leading zeros, the integer's digits, a point and
 * the fraction's digits (cut off: the integer is cut toward zero), an exponent, white space; the
 * separators may stand anywhere in it.
 */
export interface NumberSpellings {
  /** Trimmed around the number: Python's white space, each character (all below U+10000) in code point order. */
  spaces: readonly string[];
  /** The same as the body of a JavaScript regex character class, as the router writes it. */
  spaceClass: string;
  /** Dropped anywhere in the number (`1_000` is 1000). */
  separators: readonly string[];
  /** The sign that keeps the number (a raw `+` in a query is a space: this one is sent as `%2B`). */
  plus: string;
  /** The sign that negates it. */
  minus: string;
  /** The digit that may lead the integer any number of times (`007` is 7). */
  zero: string;
  /** The decimal point; the digits after it are cut off (`7.9` and `-0.5` are 7 and 0). */
  point: string;
  /** For each ASCII digit, the decimal digits of other scripts read as it (`٧` is 7), in code point order. */
  digits: readonly (readonly string[])[];
}

export const NUMBER_SPELLINGS: NumberSpellings = {
  spaces: pythonSpaces(),
  spaceClass: PYTHON_SPACE.source.replace(/^\^\[|\]\$$/g, ''),
  // The characters written out in the router's code (asciiNumberText drops `_`) and in Decimal's
  // grammar (FINITE_DECIMAL), which test/unit/number-spellings.test.ts holds to what the router reads.
  separators: ['_'],
  plus: '+',
  minus: '-',
  zero: '0',
  point: '.',
  digits: otherScriptDigits(),
};

function pythonSpaces(): string[] {
  const spaces: string[] = [];
  for (let code = 0; code < 0x10000; code++) {
    const char = String.fromCharCode(code);
    if (PYTHON_SPACE.test(char)) spaces.push(char);
  }
  return spaces;
}

function otherScriptDigits(): string[][] {
  const zeros = DIGIT_ZEROS.filter((zero) => zero !== 0x30).sort((a, b) => a - b);
  return Array.from({ length: 10 }, (_, digit) => zeros.map((zero) => String.fromCodePoint(zero + digit)));
}
