import type { ErrorAnswer } from '../../plan/rewrite-map.ts';
import type { ValueRule } from '../query-patterns.ts';
import { answerBody } from '../route-parts.ts';

/** nginx's syntax for what the steps and routes say: map blocks, returns, strings. */

/** Prefix of every variable and named location the configuration defines, so it sits beside other servers. */
export const V = 'lda_';

/**
 * A `map` block: the first rule whose pattern matches `source` sets `variable` to its part (variables
 * in it are read). nginx never tries a regular expression on an empty value, so `^$` is the exact
 * string `""`.
 */
export function mapBlock(source: string, variable: string, fallback: string, rules: ValueRule[]): string[] {
  return [
    `map ${source} $${variable} {`,
    ...rules.map((rule) => `    ${rule.pattern === '^$' ? '""' : quote(`~${rule.pattern}`)} ${quote(rule.part)};`),
    `    default ${quote(fallback)};`,
    '}',
    '',
  ];
}

/**
 * A `map` block of exact strings, which nginx looks up in a hash rather than trying regexes one by
 * one: the size of a big build's lists of values costs no time per request. nginx matches these
 * strings ignoring case, so a source that may differ from a key only in case must be checked again.
 */
export function exactMapBlock(source: string, variable: string, fallback: string, entries: readonly (readonly [string, string])[]): string[] {
  return [`map ${source} $${variable} {`, ...entries.map(([key, value]) => `    ${exactKey(key)} ${quote(value)};`), `    default ${quote(fallback)};`, '}', ''];
}

/**
 * An exact key of a `map`: `""` for the empty string; a key that nginx would read as a regex (`~...`)
 * or as one of the block's own words takes the `\` that nginx documents for them.
 */
function exactKey(key: string): string {
  if (key === '') return '""';
  return quote(/^~|^(?:default|hostnames|include|volatile)$/.test(key) ? `\\${key}` : key);
}

/** `1` when `source` matches none of the rules: a value the step does not accept. */
export function rejectedMap(source: string, variable: string, rules: ValueRule[]): string[] {
  return mapBlock(source, variable, '1', rules.map((rule) => ({ pattern: rule.pattern, part: '' })));
}

/**
 * The redirect to the path with its final slash (the path as nginx normalised it, query kept).
 * `return 301` always sends nginx's HTML page, so the location returns an unused status (418) that
 * `error_page` turns into the redirect's status, answered by @moved: empty body, the map's type and
 * headers, a relative Location.
 */
export function moved(status: number): string[] {
  return [`        error_page 418 =${status} @${V}moved;`, '        return 418;'];
}

export function returnIf(condition: string, error: ErrorAnswer, expressions: Record<string, string> = {}): string[] {
  return [`        if (${condition}) {`, `            return ${answer(error, expressions)};`, '        }'];
}

/**
 * `status 'body'`: the error's body, or its template with nginx variables for the placeholders given
 * (a value from the query is never echoed: it is still percent-encoded).
 */
export function answer(error: ErrorAnswer, expressions: Record<string, string> = {}): string {
  for (const text of [error.body, error.template ?? '']) literal(text);
  return `${error.status} ${quote(answerBody(error, expressions))}`;
}

/** Text from the map as nginx text: nginx has no escape for `$` (it always starts a variable). */
export function literal(text: string): string {
  if (text.includes('$')) throw new Error(`nginx: text from the map cannot hold "$": ${text}`);
  return text;
}

/** An nginx string: single-quoted, with `\` and `'` escaped; `$` starts a variable even here. */
export function quote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}
