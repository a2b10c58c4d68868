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
 * A `map`: the first rule that matches `source` sets each destination to its output, else to its
 * default. A rule is a regular expression (`pattern`; its outputs read `${group}` and are taken as
 * they are, placeholders included) or an exact `input` (its outputs, like the defaults, have their
 * placeholders filled in, which is how one map reads another's result). Outputs are quoted so that
 * Caddy keeps them as text (unquoted, `1` would be a number and `true` a boolean).
 */
export function mapBlock(source: string, destinations: string[], defaults: string[], rules: MapRule[]): string[] {
  return [
    `\tmap ${quote(source)} ${destinations.map((destination) => `{${destination}}`).join(' ')} {`,
    ...rules.map((rule) => `\t\t${quote('pattern' in rule ? `~${rule.pattern}` : rule.input)} ${rule.outputs.map(quote).join(' ')}`),
    `\t\tdefault ${defaults.map(quote).join(' ')}`,
    '\t}',
  ];
}

export type MapRule = { pattern: string; outputs: string[] } | { input: string; outputs: string[] };

/** Text from the map as a regex rule's output, where `$` would start a group's name. */
export function regexOutput(text: string): string {
  return text.replace(/\$/g, '$$$$');
}

/**
 * `respond` with the error's status and body, or its template with Caddy placeholders for the
 * placeholders given (a value from the query only where it is known to read the same still
 * percent-encoded and JSON-escaped: Caddy holds it raw).
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

/** The placeholder holding the raw last value of a query parameter. */
export function queryPlaceholder(query: Map<string, string>, param: string): string {
  const placeholder = query.get(param);
  if (placeholder === undefined) throw new Error(`caddy: no placeholder for the query parameter ${param}`);
  return placeholder;
}
