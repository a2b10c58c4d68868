import type { ErrorAnswer, FiltersStep, ServedFilter } from '../../plan/rewrite-map.ts';
import { errorVariant } from '../../plan/rewrite-map.ts';
import { NUMBER_SPELLINGS } from '../../routing/number-spellings.ts';
import { escapeRegex, filledValuePattern } from '../query-patterns.ts';
import type { RouteContext } from '../step-translation.ts';
import { queryVariable, type StepRules } from './rule-context.ts';
import { exactMapBlock, literal, mapBlock, quote, returnIf } from './syntax.ts';

/**
 * The filters step in nginx's syntax (contract section 8), judged in the map's order: a parameter of
 * `rejected` given a value, then two served filters given values, then the value of the one in use.
 * Each served filter reads its own raw value into the folder of its list (`''` when it is not in use),
 * so the folders of all of them, written one after the other, are the folder of the one in use: once
 * two are in use the step has already answered. That same text names the filter's last page.
 *
 * nginx has no function that decodes a value or computes with it, and no loop: a value is read by
 * regular expressions over its raw, percent-encoded text. They decode letters, digits and `-._~+`
 * (at most 16 percent-escapes of them), which covers what section 8 asks of a host that rewrites by
 * rules; a number is also read without white space around it and with `_` anywhere, as Decimal
 * reads it. Other spellings (an exponent, digits of other scripts, an invalid value with other
 * characters) get the filter's 400, with its fixed body where the live service's names the value.
 */
export function filtersRules(context: RouteContext, step: FiltersStep): StepRules {
  const { map, route, name } = context;
  const raw = (param: string) => `\${${queryVariable(context.query, param)}}`;
  const rejected = `${name}_filter_rejected`;
  const combined = `${name}_filters_combined`;
  const pairs = step.served.flatMap((first, i) => step.served.slice(i + 1).map((second, k) => ({ first, second, i, j: i + 1 + k })));
  const served = step.served.map((filter, index) => servedFilterRules(context, filter, `${name}_f${index + 1}`));
  const folders = served.map((filter) => `\${${filter.folder}}`).join('');
  const last = `${name}_filter_last`;
  return {
    maps: [
      `# ${route.name}: the first of these parameters given a value is ${step.error}.`,
      ...mapBlock(quote(step.rejected.map((param) => `&${raw(param)}`).join('')), rejected, '', step.rejected.map((param, index) => ({ pattern: filledValuePattern(index), part: literal(param) }))),
      `# ${route.name}: the first two of the served filters given values are ${step.combinedError}.`,
      ...mapBlock(quote(step.served.map((filter) => `&${raw(filter.param)}`).join('')), combined, '', pairs.map(({ first, second, i, j }) => ({ pattern: pairPattern(i, j), part: pairKey(first, second) }))),
      ...served.flatMap((filter) => filter.maps),
      `# ${route.name}: the last page of the list of the filter in use ("" for none); a value not listed has one page.`,
      ...exactMapBlock(quote(folders), last, '1', [['', ''], ...step.served.flatMap(lastPageEntries)]),
    ],
    checks: [
      ...step.rejected.flatMap((param) => returnIf(`$${rejected} = ${quote(param)}`, errorVariant(map.errors[step.error], param))),
      ...pairs.flatMap(({ first, second }) => returnIf(`$${combined} = ${quote(pairKey(first, second))}`, errorVariant(map.errors[step.combinedError], pairKey(first, second)))),
      ...served.flatMap((filter) => filter.checks),
    ],
    parts: { [step.sets]: folders },
    provides: { lastPage: `\${${last}}` },
    hashEntries: Math.max(1 + step.served.reduce((sum, filter) => sum + Object.keys(filter.lastPages).length, 0), ...step.served.map((f) => f.choices?.length ?? 0)),
  };
}

/** What one served filter adds: its maps, the checks of its value, the variable holding its folder. */
interface ServedFilterRules {
  maps: string[];
  checks: string[];
  folder: string;
}

/**
 * One served filter: its raw value decoded (`decoderRule`), then read as the filter reads it into the
 * folder of its list (`''` when not in use). A value that names no list is the filter's error, with
 * the decoded value when the error's body names it, else (a value that cannot be decoded) the fixed
 * body of the filter's variant.
 */
function servedFilterRules(context: RouteContext, filter: ServedFilter, prefix: string): ServedFilterRules {
  const { map, route, name } = context;
  const raw = `\${${queryVariable(context.query, filter.param)}}`;
  const value = `${prefix}_value`;
  const folder = `${prefix}_folder`;
  const invalid = `${prefix}_invalid`;
  const escapes = Math.max(DECODED_ESCAPES, ...(filter.choices ?? []).map((choice) => choice.length));
  const error = map.errors[filter.error];
  const echoes = /\{value\}/.test(error.template ?? '');
  // A number is read without the white space and `_` around it, as Decimal reads it; a choice as sent.
  const trimmed = `${prefix}_trimmed`;
  const ignored = ignoredAroundNumbers();
  const decoded = filter.values === 'number' ? `\${${trimmed}}` : raw;
  return {
    maps: [
      ...(filter.values === 'number'
        ? [
            `# ${route.name}: ${filter.param}'s value without the white space and \`_\` around it.`,
            ...mapBlock(quote(raw), trimmed, '', [{ pattern: `^${ignored}*(?P<${name}_t>.*?)${ignored}*$`, part: `\${${name}_t}` }]),
          ]
        : []),
      `# ${route.name}: ${filter.param}'s value decoded ("" when it holds other characters or more than ${escapes} percent-escapes).`,
      ...mapBlock(quote(`${decoded}&${DECODER_TABLE}`), value, '', [decoderRule(`${name}_c_`, escapes)]),
      `# ${route.name}: the folder of ${filter.param}'s list ("" when not in use); any other value is ${filter.error}.`,
      ...(filter.values === 'number' ? numberFolder(context, filter, value, folder) : choiceFolder(context, filter, prefix)),
      `# ${route.name}: a value of ${filter.param} that names no list: "echo" when decoded, else "fixed".`,
      ...mapBlock(quote(`\${${folder}}&\${${value}}&${raw}`), invalid, 'fixed', [
        { pattern: '^[^&]', part: '' },
        { pattern: '^&&$', part: '' },
        { pattern: '^&[^&]', part: 'echo' },
      ]),
    ],
    checks: echoes
      ? [...filterError(`$${invalid} = echo`, error, filter.param, `\${${value}}`), ...filterError(`$${invalid} = fixed`, error, filter.param)]
      : filterError(`$${invalid}`, error, filter.param),
    folder,
  };
}

/**
 * A number, decoded: its canonical integer (contract section 8) by rules tried in order: zero
 * (however signed, with or without a fraction), a positive integer and a negative one of at most
 * `idDigits` significant digits, then a longer one, which names no list (the router's `''`). Decimal
 * drops its separators (`_`) anywhere, so the rules skip them between digits, and capture the
 * significant digits one by one to write them back without them.
 */
function numberFolder({ map, name }: RouteContext, filter: ServedFilter, value: string, folder: string): string[] {
  const count = map.paths.idDigits;
  // The spellings' characters as this syntax writes them: `separator` inside a class, `skip` a run of them.
  const { plus, minus, zero, point, separators } = NUMBER_SPELLINGS;
  const separator = separators.map(escapeRegex).join('');
  const skip = `${separators.length === 1 ? separator : `[${separator}]`}*`;
  const [sign, dot, zeros] = [`[${plus}${minus}]`, escapeRegex(point), `[${zero}${separator}]*`];
  const group = (i: number) => `${name}_n${i}`;
  const positions = Array.from({ length: count }, (_, i) => `(?P<${group(i + 1)}>[${i === 0 ? '1-9' : '0-9'}])${i === 0 ? '' : '?'}${skip}`).join('');
  const digits = Array.from({ length: count }, (_, i) => `\${${group(i + 1)}}`).join('');
  const fraction = `(?:${dot}[0-9${separator}]*)?`;
  const list = (canonical: string) => literal(filter.folder).replace('{value}', canonical);
  return mapBlock(`$${value}`, folder, '', [
    { pattern: `^${sign}?${skip}(?:${zero}${zeros}${fraction}|${dot}[0-9${separator}]*[0-9][0-9${separator}]*)$`, part: list('0') },
    { pattern: `^${escapeRegex(plus)}?${zeros}${positions}${fraction}$`, part: list(digits) },
    { pattern: `^${escapeRegex(minus)}${zeros}${positions}${fraction}$`, part: list(`-${digits}`) },
    { pattern: `^${sign}?${zeros}[1-9](?:${skip}[0-9]){${count},}${skip}${fraction}$`, part: list('') },
  ]);
}

/**
 * A choice, decoded: looked up among the choices in a hash, which nginx matches ignoring case, so the
 * choice found must then equal the value exactly (a back-reference): `tx` is not `TX`.
 */
function choiceFolder({ name }: RouteContext, filter: ServedFilter, prefix: string): string[] {
  const choices = filter.choices ?? [];
  const unreadable = choices.find((choice) => !DECODED.test(choice));
  if (unreadable !== undefined) throw new Error(`nginx: the choice ${JSON.stringify(unreadable)} of ${filter.param} has characters the rules cannot read`);
  const folded = new Map(choices.map((choice) => [choice.toLowerCase(), choice]));
  if (folded.size < choices.length) throw new Error(`nginx: choices of ${filter.param} differ only in case, which a map's hash cannot tell apart`);
  const [value, choice, folder, same] = [`${prefix}_value`, `${prefix}_choice`, `${prefix}_folder`, `${name}_same`];
  return [
    ...exactMapBlock(`$${value}`, choice, '', choices.map((text) => [text, text] as const)),
    ...mapBlock(quote(`\${${value}}&\${${choice}}`), folder, '', [
      { pattern: `^(?P<${same}>[^&]+)&\\k<${same}>$`, part: literal(filter.folder).replace('{value}', `\${${same}}`) },
    ]),
  ];
}

/**
 * Answers the error of a filter's value when `condition` holds: its template filled with the
 * parameter's name and, when nginx holds it decoded, the value; without the value, the fixed body of
 * the filter's variant.
 */
function filterError(condition: string, error: ErrorAnswer, param: string, value?: string): string[] {
  const expressions: Record<string, string> = { name: literal(param), ...(value === undefined ? {} : { value }) };
  const placeholders = [...(error.template ?? '').matchAll(/\{(value|name|method)\}/g)].map((match) => match[1]!);
  const filled = error.template !== undefined && placeholders.every((key) => Object.hasOwn(expressions, key));
  return filled ? returnIf(condition, error, expressions) : returnIf(condition, errorVariant(error, param));
}

/** The key of two filters in use, as the map names the variant of their error. */
function pairKey(first: ServedFilter, second: ServedFilter): string {
  return literal(`${first.param}&${second.param}`);
}

/**
 * Over the raw values of the served filters joined as `&v0&v1...`: the value at `i` and the one at
 * `j` are not empty and none between them is. Tried in order of (i, j), the first match names the
 * first two filters in use.
 */
function pairPattern(i: number, j: number): string {
  return `^(?:&[^&]*){${i}}&[^&]+&{${j - i - 1}}&[^&]`;
}

/** The lastPages of a filter, keyed by the folder of each value (the text the filters step fills in). */
function lastPageEntries(filter: ServedFilter): (readonly [string, string])[] {
  return Object.entries(filter.lastPages).map(([value, page]) => [literal(filter.folder).replace('{value}', value), String(page)] as const);
}

/**
 * What Decimal ignores around a number, as the router reads it: white space and the separators, in
 * code point order, each as sent, percent-encoded (UTF-8) or, for a space, `+`.
 */
function ignoredAroundNumbers(): string {
  const chars = [...NUMBER_SPELLINGS.spaces, ...NUMBER_SPELLINGS.separators].sort();
  const hex = (byte: number) => [...byte.toString(16).toUpperCase().padStart(2, '0')].map((h) => (/[A-F]/.test(h) ? `[${h}${h.toLowerCase()}]` : h)).join('');
  const encoded = (char: string) => [...new TextEncoder().encode(char)].map((byte) => `%${hex(byte)}`).join('');
  // A raw space or control character never reaches nginx in a request line; a printable one may.
  const asSent = (char: string) => (char > ' ' && char < '\x7f' ? `${escapeRegex(char)}|` : '');
  return `(?:\\+|${chars.map((char) => `${asSent(char)}${encoded(char)}`).join('|')})`;
}

/** Characters read as themselves (URL-unreserved: sent as they are); a `+` sent as itself is a space. */
const PLAIN = '[A-Za-z0-9._~-]';
/** What the decoder reads percent-encoded: those and `+`, none of which JSON escapes. */
const ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-+'];
const DECODED = /^[A-Za-z0-9._~+-]*$/;
/** Percent-escapes decoded in one value: a bound, as nginx has no loop (a longer choice raises it). */
const DECODED_ESCAPES = 16;
/** Each character of the alphabet after its code in hex: `41A42B...`, what the decoder looks escapes up in. */
const DECODER_TABLE = ALPHABET.map((char) => `${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}${char}`).join('');

/**
 * Decodes a raw value of plain characters and at most `escapes` percent-escapes, matched against
 * `value&TABLE`: each escape's hex digits are looked up in the table behind the `&` (a lookahead,
 * a back-reference to the group just before it, case-insensitive) and the character after them
 * captured. The runs of plain characters and the looked-up characters, in order, are the decoded
 * value. The groups are named `prefix...`, shared by the decoders of one route: nginx fills the
 * value in as soon as one matches, and each named group is one more variable of the server.
 */
function decoderRule(prefix: string, escapes: number): { pattern: string; part: string } {
  let pattern = `^(?P<${prefix}r0>${PLAIN}*)`;
  let part = `\${${prefix}r0}`;
  for (let i = 1; i <= escapes; i++) {
    const lookup = `(?=[^&]*&(?:[0-9A-F]{2}.)*?(?i:\\g{-1})(?P<${prefix}d${i}>.))`;
    pattern += `(?:%([0-9A-Fa-f]{2})${lookup}(?P<${prefix}r${i}>${PLAIN}*))?`;
    part += `\${${prefix}d${i}}\${${prefix}r${i}}`;
  }
  return { pattern: `${pattern}&`, part };
}
