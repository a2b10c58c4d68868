import { integerDigits, pythonDecimal } from './python-text.ts';

/**
 * A filter's value read as the live service reads it (contract section 8). Pure and ES5-friendly: the
 * router runs here, in `preview --static` and in the CloudFront Function.
 *
 * `registrant_id` is a django-filter NumberFilter: Django's DecimalField hands the text to Python's
 * `decimal.Decimal`, which drops underscores, reads any Unicode decimal digit as its ASCII digit and
 * trims white space; the number must be finite, and the database lookup then cuts it toward zero.
 */

/**
 * The integer a number filter's value names, in canonical form (decimal digits, `-` for a negative,
 * no leading zeros: `007` and `7.9` and `0.7e1` are `7`); `''` when the integer has more than
 * `maxDigits` digits (no record has such an id); undefined when the value is not a finite number.
 */
export function decimalInteger(value: string, maxDigits: number): string | undefined {
  const number = pythonDecimal(value);
  if (number === undefined) return undefined;
  const integer = integerDigits(number, maxDigits);
  if (integer === undefined) return '';
  return number.negative && integer !== '0' ? `-${integer}` : integer;
}
