import type { ErrorAnswer } from '../../plan/rewrite-map.ts';
import { answerBody } from '../route-parts.ts';

/** Caddyfile syntax for what the steps and routes say: maps, responds, tokens. */

/** Prefix of the placeholders and matchers the Caddyfile defines. */
export const V = 'lda_';
/** The query string with its `?`, or nothing, for redirects (`{?query}` came after Caddy 2.6). */
export const QUERY_SUFFIX = `${V}query_suffix`;
/** What a `vars` matcher compares a step's placeholder with when the step rejects the value. */
export const REJECTED = 'yes';

/**
 * A `map`: the first rule whose pattern matches `source` sets each destination to its output (a regex
 * output reads `${group}`), else to its default. Outputs are quoted so that Caddy keeps them as text
 * (unquoted, `1` would be a number and `true` a boolean).
 */
export function mapBlock(source: string, destinations: string[], defaults: string[], rules: { pattern: string; outputs: string[] }[]): string[] {
  return [
    `\tmap ${quote(source)} ${destinations.map((destination) => `{${destination}}`).join(' ')} {`,
    ...rules.map((rule) => `\t\t${quote(`~${rule.pattern}`)} ${rule.outputs.map(quote).join(' ')}`),
    `\t\tdefault ${defaults.map(quote).join(' ')}`,
    '\t}',
  ];
}

/**
 * `respond` with the error's status and body, or its template with Caddy placeholders for the
 * placeholders given (a value from the query is never echoed: it is still percent-encoded).
 */
export function respond(matcher: string, error: ErrorAnswer, expressions: Record<string, string> = {}): string {
  const escaped = { ...error, body: escapeBraces(error.body), template: error.template && escapeBraces(error.template) };
  return `respond ${matcher ? `${matcher} ` : ''}${quote(answerBody(escaped, expressions))} ${error.status}`;
}

/**
 * Literal braces in text from the map: Caddy reads `{...}` as a placeholder, and `\{` `\}` as braces.
 * Placeholders put in on purpose (the 405's `{method}`) are added after escaping.
 */
export function escapeBraces(text: string): string {
  return text.replace(/[{}]/g, '\\$&');
}

/** A Caddyfile token in backquotes: no escapes inside, so the text must not hold a backquote. */
export function quote(token: string): string {
  if (token.includes('`')) throw new Error(`a Caddyfile token cannot hold a backquote: ${token}`);
  return `\`${token}\``;
}
