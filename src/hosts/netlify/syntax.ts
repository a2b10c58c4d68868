import type { ErrorAnswer } from '../../plan/rewrite-map.ts';

/** Netlify's `_redirects` syntax for what the steps and routes say: rules, query conditions, placeholders. */

/** A query condition: the parameter and its value; a value starting with `:` is a placeholder. */
export type Condition = [name: string, value: string];

/**
 * Placeholders of the rules: any value of a parameter (a filter's value, a rejected parameter's), a
 * second one in the same rule (two filters), any page number, the path's id.
 */
export const ANY_VALUE = ':value';
export const OTHER_VALUE = ':other';
export const ANY_NUMBER = ':n';
export const ID = ':id';

/**
 * The placeholder that reads a parameter's own value into a file name (`format=:format`): its name
 * in letters and digits, which must not be one of the placeholders above.
 */
export function placeholderFor(param: string): string {
  const name = `:${param.replace(/[^A-Za-z0-9]/g, '')}`;
  if (!/^:[A-Za-z]/.test(name) || [ANY_VALUE, OTHER_VALUE, ANY_NUMBER, ID].includes(name)) {
    throw new Error(`netlify: the query parameter ${JSON.stringify(param)} has no placeholder of its own`);
  }
  return name;
}

/** A literal value from the map, which a rule must not read as a placeholder. */
export function literal(param: string, value: string): string {
  if (value.startsWith(':')) throw new Error(`netlify: a rule would read the value ${JSON.stringify(value)} of ${param} as a placeholder`);
  return value;
}

export function errorRule(from: string, conditions: Condition[], answer: ErrorAnswer): string {
  return rule(from, conditions, `/${answer.file}`, answer.status);
}

/** One `_redirects` line: `from [name=value ...] to status[!]`. */
export function rule(from: string, conditions: Condition[], to: string, status: number, force = false): string {
  for (const [name, value] of conditions) {
    const fixed = value.startsWith(':') ? '' : value;
    // The file is split on white space, `#` starts a comment and the first `=` ends the name.
    if (/[\s#=]/.test(name) || /[\s#=]/.test(fixed) || name === '') {
      throw new Error(`netlify: a rule cannot hold the query parameter ${JSON.stringify(name)}=${JSON.stringify(value)}`);
    }
  }
  if (/[\s#{}]/.test(to)) throw new Error(`netlify: a rule cannot rewrite to ${JSON.stringify(to)}`);
  const query = conditions.map(([name, value]) => `${name}=${value}`);
  return [from, ...query, to, `${status}${force ? '!' : ''}`].join(' ');
}
