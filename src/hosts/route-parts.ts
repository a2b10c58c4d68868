import type { ErrorAnswer, RewriteMap, Route } from '../plan/rewrite-map.ts';
import { escapeRegex } from './query-patterns.ts';

/**
 * Pieces of the map that several host adapters spell the same way: file templates filled with the
 * host's own variables, error bodies with the host's own
 * placeholders.
 */

/** A map file template (`pages/{format}/{ordering}/{page}.json`) with the host's variables put in. */
export function fillFile(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * A request target (raw path and query) with a `.` or `..` segment, plain or percent-encoded. The map
 * routes the path as sent, where such a segment matches no route (a 404); servers that resolve dot
 * segments before routing must check for them on the raw target first.
 */
export const DOT_SEGMENT_PATTERN = '^[^?]*(?:/|%2[fF])(?:\\.|%2[eE]){1,2}(?:/|%2[fF]|\\?|$)';

/** A path as a regular expression in which each `/` also matches a run of them. */
export function collapsedPathPattern(pathText: string): string {
  return pathText.split('/').map(escapeRegex).join('/+');
}

/**
 * An error body whose template placeholders (`{method}`, `{value}`, `{name}`) are replaced by the
 * host's own expressions; placeholders not given fall back to the fixed body.
 */
export function answerBody(answer: ErrorAnswer, expressions: Record<string, string>): string {
  if (answer.template === undefined) return answer.body;
  // A placeholder may come with its braces escaped (`\{method\}`), for hosts whose bodies escape braces.
  const placeholder = /\\?\{(value|name|method)\\?\}/g;
  const names = [...answer.template.matchAll(placeholder)].map((match) => match[1]!);
  if (names.some((name) => expressions[name] === undefined)) return answer.body;
  return answer.template.replace(placeholder, (_, name: string) => expressions[name]!);
}

/** The map's headers but Content-Type, for hosts that give files their type another way (MIME types, S3 metadata). */
export function headersBesideContentType(map: RewriteMap): [string, string][] {
  return Object.entries(map.headers).filter(([name]) => name.toLowerCase() !== 'content-type');
}

/**
 * A route's path of the map (`/api/v1/clients/{id}/`) as a regular expression over the decoded path.
 * `{id}`: an id's digits, leading zeros dropped and at most `idDigits` left, captured as `idGroup`.
 * With `slash: false`, the path missing its final `/`, a 301 whatever the id's length: every digit is
 * captured (the redirect keeps the path as sent). With `collapse`, each `/` also matches a run of them,
 * for hosts that do not merge them.
 */
export function routePathPattern(
  routePath: string,
  { idGroup, idDigits, slash = true, collapse = false }: { idGroup: string; idDigits: number; slash?: boolean; collapse?: boolean },
): string {
  if (!routePath.endsWith('/')) throw new Error(`a route's path ends with "/": ${routePath}`);
  const text = slash ? routePath : routePath.slice(0, -1);
  const literal = (part: string) => (collapse ? collapsedPathPattern(part) : escapeRegex(part));
  const at = text.indexOf('{id}');
  if (at < 0) return `^${literal(text)}$`;
  const id = slash ? `0*(?P<${idGroup}>[0-9]{1,${idDigits}})` : `(?P<${idGroup}>[0-9]+)`;
  return `^${literal(text.slice(0, at))}${id}${literal(text.slice(at + '{id}'.length))}$`;
}

/**
 * The query parameters the routes' steps read, each once, in the order first read: hosts that read
 * the query with regular expressions define one variable for each.
 */
export function queryParameters(routes: readonly Route[]): string[] {
  const names = new Set<string>();
  for (const route of routes) {
    for (const step of route.steps) {
      switch (step.step) {
        case 'method':
          break;
        case 'choice':
        case 'pageSize':
        case 'page':
          names.add(step.param);
          break;
        case 'filters':
          for (const name of step.rejected) names.add(name);
          for (const filter of step.served) names.add(filter.param);
          break;
        default:
          throw new Error(`route ${route.name} of the rewrite map has a step of unknown kind ${JSON.stringify((step as { step: unknown }).step)}`);
      }
    }
  }
  return [...names];
}

/**
 * Names a host can use for its own variables, one for each name from the map: `prefix`, then the name
 * with anything but letters, digits and `_` made `_`, a number added where two would collide.
 */
export function identifiers(names: readonly string[], prefix: string): Map<string, string> {
  const result = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    const base = `${prefix}${identifier(name)}`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    result.set(name, id);
  }
  return result;
}

/** A name from the map as a host's identifier: anything but letters, digits and `_` made `_`. */
export function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}
