import { NUMBER_SPELLINGS } from '../../routing/number-spellings.ts';
import { numberRangeRegex } from '../query-patterns.ts';
import { V } from './rule-context.ts';
import { expandLiteral, rewriteArg } from './syntax.ts';

/**
 * Filter values in spellings that one regular expression cannot read (contract section 8: exponents,
 * white space, `_`, digits of other scripts; an invalid choice's value echoed JSON-escaped), read by a
 * small machine of mod_rewrite rules. Each rule moves a piece of `LDA_M_TODO` into `LDA_M_DONE` and
 * starts the rules over (`[N]`); the machine's rules come first in the virtual host, so a round costs a
 * few conditions. The filters step starts it on a value that its patterns did not read
 * (./filter-rules.ts) and reads `LDA_M_OUT` when the machine is done:
 *
 * - `norm`: the raw value in one spelling: `+` as `%20`, a `%` that starts no escape as `%25`, a byte
 *   beyond ASCII as its escape, escapes in capitals. Then `LDA_M_NEXT` runs on it.
 * - `echo`: the value as the router decodes it (UTF-8, a malformed sequence as U+FFFD, as the WHATWG
 *   decoder does), written inside a JSON string as the live service writes it.
 * - `numtext`, `parse`, `exponent`, `unary`, `shift`, `final`: a number as `decimalInteger` reads it.
 *   Characters become the ASCII text of a Decimal (digits of other scripts as ASCII digits, `_`
 *   dropped, white space as `~`), which is parsed; the exponent moves the point one digit a round,
 *   counted in unary. Its answer is `n:<integer>`, `none` (more digits than an id: no list) or `invalid`.
 *
 * Rounds are bounded by the value's length, which the filters step keeps under `MACHINE_LIMIT`; an
 * exponent larger than any point move that such a value allows decides the answer at once.
 */

export const MODE = `${V}M`;
const NEXT = `${V}M_NEXT`;
const TODO = `${V}M_TODO`;
const DONE = `${V}M_DONE`;
export const OUT = `${V}M_OUT`;
/** The mode of a machine that has answered. */
export const DONE_MODE = 'done';
/** The filter whose value the machine reads. */
export const FOR = `${V}M_FOR`;
const SIGN = `${V}M_S`;
const INTEGER = `${V}M_I`;
const FRACTION = `${V}M_F`;
const EXPONENT_SIGN = `${V}M_ES`;
const EXPONENT = `${V}M_E`;
const UNARY = `${V}M_U`;

/** Longest raw value the machine reads (bytes); a longer one gets the filter's error naming the parameter. */
export const MACHINE_LIMIT = 1024;

const UPPER = 'lda_toupper';
const LOWER = 'lda_tolower';
const ESCAPE = 'lda_escape';
/** The internal maps the machine's rules use beside `int:unescape`: `RewriteMap <name> int:<function>`. */
export const MACHINE_MAPS: Readonly<Record<string, string>> = { [UPPER]: 'toupper', [LOWER]: 'tolower', [ESCAPE]: 'escape' };

/** The flags that start the machine on `variable`'s raw value, then `next` on its normal spelling. */
export function startFlags(variable: string, next: 'echo' | 'numtext', filter: string): string {
  return `[E=${MODE}:norm,E=${NEXT}:${next},E=${FOR}:${filter},E=${TODO}:%{ENV:${variable}},E=${DONE}:,N]`;
}

export function machineRules(unescapeMap: string, { echo, numbers, idDigits }: { echo: boolean; numbers: boolean; idDigits: number }): string[] {
  if (!echo && !numbers) return [];
  const u = (text: string) => `\${${unescapeMap}:${text}}`;
  return [
    '    # Filter values in spellings beyond one pattern, read by a machine of rules (./value-machine.ts in the',
    '    # emitter): each rule moves a piece of LDA_M_TODO to LDA_M_DONE and starts over [N]; the filters step',
    '    # below starts it and reads LDA_M_OUT.',
    '    # norm: one spelling of the raw value (+ and stray % escaped, escapes in capitals, bytes beyond ASCII escaped).',
    ...step('norm', '^((?:%[0-9A-Fa-f]{2})+)(.*)$', `${append(`\${${UPPER}:%1}`)},E=${TODO}:%2`),
    ...step('norm', '^([^%+\\x80-\\xff]+)(.*)$', `${append('%1')},E=${TODO}:%2`),
    ...step('norm', '^\\+(.*)$', `${append(expandLiteral('%20'))},E=${TODO}:%1`),
    ...step('norm', '^%(.*)$', `${append(expandLiteral('%25'))},E=${TODO}:%1`),
    ...step('norm', '^([\\x80-\\xff])(.*)$', `${append(`\${${UPPER}:\${${ESCAPE}:%1}}`)},E=${TODO}:%2`),
    ...step('norm', '^$', `E=${MODE}:%{ENV:${NEXT}},E=${TODO}:%{ENV:${DONE}},E=${DONE}:`),
    ...(echo ? echoRules(u) : []),
    ...(numbers ? numberRules(u, idDigits) : []),
  ];
}

/**
 * The decoded value inside a JSON string: `"`, `\` and control characters escaped (short escapes where
 * JSON has them, else `\u00xx`), U+2028 and U+2029 escaped, everything else as its UTF-8 bytes, and each
 * malformed UTF-8 sequence (its longest start that could still have been well formed) as U+FFFD.
 */
function echoRules(u: (text: string) => string): string[] {
  const printable = '%(?:2[013-9A-F]|[34][0-9A-F]|5[0-9ABD-F]|[67][0-9A-F])';
  const separators = '%E2%80%A[89]';
  const short: Record<string, string> = { '08': 'b', '09': 't', '0A': 'n', '0C': 'f', '0D': 'r' };
  return [
    '    # echo: the value decoded, as the inside of a JSON string.',
    ...step('echo', '^([^%"\\\\]+)(.*)$', `${append('%1')},E=${TODO}:%2`),
    ...step('echo', `^((?:${printable}|(?!${separators})(?:${UTF8_SEQUENCE}))+)(.*)$`, `${append(u('%1'))},E=${TODO}:%2`),
    ...step('echo', '^(?:"|%22)(.*)$', `${append(expandLiteral('\\"'))},E=${TODO}:%1`),
    ...step('echo', '^(?:\\\\|%5C)(.*)$', `${append(expandLiteral('\\\\'))},E=${TODO}:%1`),
    ...Object.entries(short).flatMap(([hex, letter]) => step('echo', `^%${hex}(.*)$`, `${append(expandLiteral(`\\${letter}`))},E=${TODO}:%1`)),
    ...step('echo', '^%([01][0-9A-F])(.*)$', `${append(`${expandLiteral('\\u00')}\${${LOWER}:%1}`)},E=${TODO}:%2`),
    ...step('echo', '^%E2%80%A([89])(.*)$', `${append(`${expandLiteral('\\u202')}%1`)},E=${TODO}:%2`),
    ...step('echo', `^(?:${UTF8_TRUNCATED}|%[89A-F][0-9A-F])(.*)$`, `${append(u(expandLiteral('%EF%BF%BD')))},E=${TODO}:%1`),
    ...step('echo', '^$', `E=${MODE}:done,E=${OUT}:%{ENV:${DONE}}`),
  ];
}

/** A continuation byte, escaped. */
const C = '%[89AB][0-9A-F]';
/** A well-formed UTF-8 sequence of two to four bytes (The Unicode Standard, table 3-7), escaped. */
const UTF8_SEQUENCE = [
  `%(?:C[2-9A-F]|D[0-9A-F])${C}`,
  `%E0%[AB][0-9A-F]${C}`,
  `%E[1-9A-CEF]${C}${C}`,
  `%ED%[89][0-9A-F]${C}`,
  `%F0%[9AB][0-9A-F]${C}${C}`,
  `%F[1-3]${C}${C}${C}`,
  `%F4%8[0-9A-F]${C}${C}`,
].join('|');
/** The start of a sequence that could have been well formed, cut short: one U+FFFD for all of it. */
const UTF8_TRUNCATED = [
  `%E0%[AB][0-9A-F]`,
  `%E[1-9A-CEF]${C}`,
  `%ED%[89][0-9A-F]`,
  `%F0%[9AB][0-9A-F](?:${C})?`,
  `%F[1-3]${C}(?:${C})?`,
  `%F4%8[0-9A-F](?:${C})?`,
].join('|');

/**
 * A number, read as `decimalInteger` reads it: the characters it maps (NUMBER_SPELLINGS, made from the
 * router's own constants), then Python's Decimal syntax, then the integer part once the exponent has
 * moved the point.
 */
function numberRules(u: (text: string) => string, idDigits: number): string[] {
  const chars = numberCharacters();
  // The ASCII characters of Python's Decimal syntax (digits, sign, point, exponent), plain or escaped.
  const ascii = '(?:[0-9.eE+-]|%(?:2[BDE]|3[0-9]|45|65))';
  const unaryDigits = Array.from({ length: 10 }, (_, digit) => `;${digit}:${'x'.repeat(digit)}`).join('');
  const bigExponent = MACHINE_LIMIT + idDigits + 1;
  const state = `%{ENV:${UNARY}}#%{ENV:${INTEGER}}#%{ENV:${FRACTION}}`;
  const set = (values: Record<string, string>) => Object.entries(values).map(([name, value]) => `E=${name}:${value}`).join(',');
  const answer = (out: string) => `E=${MODE}:done,E=${OUT}:${out}`;
  return [
    "    # numtext: the characters of a Decimal (white space as ~, _ dropped, other scripts' digits as ASCII); any other: invalid.",
    ...step('numtext', `^(${ascii}+)(.*)$`, `${append(u('%1'))},E=${TODO}:%2`),
    ...step('numtext', `^(?:${chars.dropped})+(.*)$`, `E=${TODO}:%1`),
    ...step('numtext', `^(?:${chars.spaces})+(.*)$`, `${append('~')},E=${TODO}:%1`),
    ...chars.digits.flatMap((pattern, digit) => step('numtext', `^(?:${pattern})(.*)$`, `${append(String(digit))},E=${TODO}:%1`)),
    ...step('numtext', '.', answer('invalid')),
    ...step('numtext', '^$', `E=${MODE}:parse`),
    '    # parse: Decimal syntax once white space around it is trimmed: sign, integer (leading zeros dropped), fraction, exponent.',
    ...rule(
      [`%{ENV:${MODE}} =parse`, `%{ENV:${DONE}} ${rewriteArg('^~*([+-]?)(?=[0-9]|\\.[0-9])0*([0-9]*)(?:\\.([0-9]*))?(?:[eE]([+-]?)(?=[0-9])0*([0-9]*))?~*$')}`],
      `${set({ [SIGN]: '%1', [INTEGER]: '%2', [FRACTION]: '%3', [EXPONENT_SIGN]: '%4', [EXPONENT]: '%5', [UNARY]: '', [MODE]: 'exponent' })}`,
    ),
    ...rule([`%{ENV:${MODE}} =parse`], answer('invalid')),
    `    # exponent: none (or a zero mantissa) leaves the integer part; more than ${bigExponent} moves the point past`,
    `    # any value of ${MACHINE_LIMIT} bytes: beyond ${idDigits} digits (no list), or below 1 (0).`,
    ...step('exponent', '^#0*$', answer('n:0'), `%{ENV:${INTEGER}}#%{ENV:${FRACTION}}`),
    ...step('exponent', '^$', `E=${MODE}:final`, EXPONENT),
    ...rule([`%{ENV:${MODE}} =exponent`, `%{ENV:${EXPONENT}} ${rewriteArg(`!^${numberRangeRegex(1, bigExponent)}$`)}`, `%{ENV:${EXPONENT_SIGN}} =-`], answer('n:0')),
    ...rule([`%{ENV:${MODE}} =exponent`, `%{ENV:${EXPONENT}} ${rewriteArg(`!^${numberRangeRegex(1, bigExponent)}$`)}`], answer('none')),
    ...step('exponent', '.', `E=${MODE}:unary`, EXPONENT),
    '    # unary: the exponent as that many x, a digit a round (x ten times, then the digit from a table).',
    ...step('unary', `^([0-9])([0-9]*)#.*?;\\1:(x*);`, `E=${UNARY}:${`%{ENV:${UNARY}}`.repeat(10)}%3,E=${EXPONENT}:%2`, `%{ENV:${EXPONENT}}#${unaryDigits};`),
    ...step('unary', '^$', `E=${MODE}:shift`, EXPONENT),
    '    # shift: the point one digit right (or left, for a negative exponent) a round; the integer part keeps no leading zero.',
    ...step('shift', '^$', `E=${MODE}:final`, UNARY),
    ...shiftRule('=-', '^x+##', answer('n:0')),
    ...shiftRule('=-', '^x(x*)#([0-9]*)([0-9])#([0-9]*)$', set({ [UNARY]: '%1', [INTEGER]: '%2', [FRACTION]: '%3%4' })),
    ...shiftRule('!=-', `^x+#[0-9]{${idDigits + 1},}#`, answer('none')),
    ...shiftRule('!=-', '^x(x*)#([1-9][0-9]*)#([0-9])([0-9]*)$', set({ [UNARY]: '%1', [INTEGER]: '%2%3', [FRACTION]: '%4' })),
    ...shiftRule('!=-', '^x(x*)##0([0-9]*)$', set({ [UNARY]: '%1', [FRACTION]: '%2' })),
    ...shiftRule('!=-', '^x(x*)##([1-9])([0-9]*)$', set({ [UNARY]: '%1', [INTEGER]: '%2', [FRACTION]: '%3' })),
    ...shiftRule('!=-', '^x(x*)#([1-9][0-9]*)#$', set({ [UNARY]: '%1', [INTEGER]: `%{ENV:${INTEGER}}0` })),
    `    # final: the integer part, cut toward zero; none left is 0, more than ${idDigits} digits names no list.`,
    ...step('final', '^$', answer('n:0'), INTEGER),
    ...step('final', `^[0-9]{${idDigits + 1},}$`, answer('none'), INTEGER),
    ...step('final', '^-#([0-9]+)$', answer('n:-%1'), `%{ENV:${SIGN}}#%{ENV:${INTEGER}}`),
    ...step('final', '^[+]?#([0-9]+)$', answer('n:%1'), `%{ENV:${SIGN}}#%{ENV:${INTEGER}}`),
  ];

  function shiftRule(sign: string, pattern: string, flags: string): string[] {
    return rule([`%{ENV:${MODE}} =shift`, `%{ENV:${EXPONENT_SIGN}} ${sign}`, `${state} ${rewriteArg(pattern)}`], flags);
  }
}

/** One round of `mode`: when `subject` (`LDA_M_TODO` by default, or a variable's name) matches, `flags` and start over. */
function step(mode: string, pattern: string, flags: string, subject: string = TODO): string[] {
  const tested = subject.startsWith('%{') ? subject : `%{ENV:${subject}}`;
  return rule([`%{ENV:${MODE}} =${mode}`, `${tested} ${rewriteArg(pattern)}`], flags);
}

function rule(conditions: string[], flags: string): string[] {
  return [...conditions.map((condition) => `    RewriteCond ${condition}`), `    RewriteRule ^ - [${flags},N]`];
}

function append(text: string): string {
  return `E=${DONE}:%{ENV:${DONE}}${text}`;
}

/** The characters of a number beyond Decimal's ASCII grammar, as the router reads them (NUMBER_SPELLINGS). */
interface NumberCharacters {
  /** For each ASCII digit, the characters of other scripts that the router reads as it. */
  digits: string[];
  spaces: string;
  dropped: string;
}

/** Each as a pattern over the normal spelling (escapes in capitals; printable ASCII plain or escaped). */
function numberCharacters(): NumberCharacters {
  const { digits, spaces, separators } = NUMBER_SPELLINGS;
  return { digits: digits.map((list) => list.map(spelled).join('|')), spaces: spaces.map(spelled).join('|'), dropped: separators.map(spelled).join('|') };
}

/** A character in the normal spelling: its UTF-8 bytes escaped in capitals, or printable ASCII also as itself. */
function spelled(char: string): string {
  const escaped = [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const code = char.charCodeAt(0);
  if (code > 0x20 && code < 0x7f) return `(?:${char.replace(/[\\^$.*+?()[\]{}|]/, '\\$&')}|${escaped})`;
  return escaped;
}
