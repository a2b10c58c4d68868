import type { ServedFilter } from '../../plan/rewrite-map.ts';
import { NUMBER_SPELLINGS } from '../../routing/number-spellings.ts';
import { escapeRegex } from '../query-patterns.ts';

/** The named group of a filter's value, as the destinations use it (`$v`). */
export const VALUE = 'v';

/**
 * Vercel's schema caps a `has` item's `value` at 4,096 characters (routing-utils `matchableValueSchema`),
 * so a long list of values is split over several items or routes.
 */
export const VALUE_LIMIT = 4096;

/**
 * Python's white space, which Decimal trims around a number, any number of times: the router's class
 * (NUMBER_SPELLINGS.spaceClass) in PCRE's syntax, which spells a vertical tab `\x0b` (its `\v` is a
 * class of its own) and has no `\u` escape: the characters past U+00FF are written as themselves.
 */
const SPACE = `[${NUMBER_SPELLINGS.spaceClass
  .replace(/\\v/g, '\\x0b')
  .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))}]*`;

/**
 * One way a filter's value can be written that a route can read: a regular expression over the
 * decoded value whose group `v` holds what the folder needs, and the folder's `{value}` made of it.
 * A filter reads its values through one or more forms; a value no form reads is the filter's error.
 */
export interface ValueForm {
  /** The pattern reading the values whose `key`s are given (every value of the form when undefined). */
  pattern(keys?: readonly string[]): string;
  /** The folder's `{value}` for a value this form read, `$v` standing for its group. */
  value: string;
  /** The text `pattern` matches a canonical value by, or undefined when this form does not read it. */
  key(canonical: string): string | undefined;
}

/**
 * The forms of a filter's values that routes can read, as contract section 8 asks of hosts that
 * rewrite by rules: a choice exactly (case matters), in groups of at most VALUE_LIMIT characters; a
 * number as digits with an optional sign, leading zeros, and a `.` with digits after it, cut toward
 * zero, with white space around it trimmed as Decimal does (a raw `+` reads as a space). A number's
 * integer part is captured up to `idDigits` digits (any longer names no list on the router either,
 * and may get a 400, section 8); a positive one is its folder as captured, a negative one gets its
 * `-` back, and a zero (`0.5`, `-0`, `.7`) is the folder `0`. Anything else Decimal reads (an
 * exponent, `_`, other digits) no route can rewrite into the canonical number, as a route copies
 * groups but cannot compute: it is the filter's error (the host's declared gap).
 */
export function valueForms(filter: ServedFilter, idDigits: number): ValueForm[] {
  if (filter.values === 'choice') return choiceGroups(filter.choices ?? []).map(choiceForm);
  const digits = `[1-9][0-9]{0,${idDigits - 1}}`;
  const { plus, minus, zero } = NUMBER_SPELLINGS;
  const point = escapeRegex(NUMBER_SPELLINGS.point);
  const fraction = `(?:${point}[0-9]*)?`;
  const signed = (sign: string, value: string, keyOf: (canonical: string) => string | undefined): ValueForm => ({
    pattern: (keys) => `^${SPACE}${sign}${zero}*(?<${VALUE}>${keys === undefined ? digits : alternatives(keys)})${fraction}${SPACE}$`,
    value,
    key: keyOf,
  });
  return [
    signed(`${escapeRegex(plus)}?`, `$${VALUE}`, (canonical) => (/^[1-9][0-9]*$/.test(canonical) ? canonical : undefined)),
    signed(escapeRegex(minus), `-$${VALUE}`, (canonical) => (/^-[1-9][0-9]*$/.test(canonical) ? canonical.slice(1) : undefined)),
    {
      pattern: () => `^${SPACE}[${plus}${minus}]?(?:${zero}+${fraction}|${zero}*${point}[0-9]+)${SPACE}$`,
      value: '0',
      key: (canonical) => (canonical === '0' ? canonical : undefined),
    },
  ];
}

/** One group of choices: exactly one of them, captured whole. */
function choiceForm(choices: readonly string[]): ValueForm {
  return {
    pattern: (keys) => `^(?<${VALUE}>${alternatives(keys ?? choices)})$`,
    value: `$${VALUE}`,
    key: (canonical) => (choices.includes(canonical) ? canonical : undefined),
  };
}

/** The choices in groups whose pattern fits in a `has` item. */
function choiceGroups(choices: readonly string[]): string[][] {
  return splitKeys(choiceForm(choices), choices);
}

/** `keys` in runs, each read by one pattern of `form` within VALUE_LIMIT characters. */
export function splitKeys(form: ValueForm, keys: readonly string[]): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const key of keys) {
    if (run.length > 0 && form.pattern([...run, key]).length > VALUE_LIMIT) {
      runs.push(run);
      run = [];
    }
    run.push(key);
    if (form.pattern(run).length > VALUE_LIMIT) throw new Error(`vercel: the value ${JSON.stringify(key)} is too long for a has item`);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

function alternatives(keys: readonly string[]): string {
  return keys.map(escapeRegex).join('|');
}
