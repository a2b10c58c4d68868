import { collapsedPathPattern } from '../route-parts.ts';

/** The named group of a path's id, which destinations use as `$id`. */
export const ID = 'id';

/**
 * A route's path as an anchored regular expression over the decoded path, each `/` also matching a
 * run of them. `{id}` is captured as `id`: leading zeros apart and at most `idDigits` digits, longer
 * ids naming no record; with `slash: false`, the path without its final `/` (the 301), any digits as
 * sent.
 */
export function pathPattern(routePath: string, idDigits: number, { slash = true } = {}): string {
  const { prefix, suffix } = splitPath(routePath);
  const end = (text: string) => collapsedPathPattern(slash ? text : text.slice(0, -1));
  if (suffix === undefined) return `^${end(prefix)}$`;
  const id = slash ? `0*(?<${ID}>[1-9][0-9]{0,${idDigits - 1}}|0)` : `(?<${ID}>[0-9]+)`;
  return `^${collapsedPathPattern(prefix)}${id}${end(suffix)}$`;
}

/** A route's path before and after `{id}` (suffix undefined: no id); the path starts and ends with `/`. */
export function splitPath(routePath: string): { prefix: string; suffix?: string } {
  if (!routePath.startsWith('/') || !routePath.endsWith('/')) throw new Error(`vercel: a route's path starts and ends with "/": ${routePath}`);
  const at = routePath.indexOf('{id}');
  if (at < 0) return { prefix: routePath };
  const suffix = routePath.slice(at + '{id}'.length);
  if (suffix.includes('{')) throw new Error(`vercel: a route's path holds one {id} at most: ${routePath}`);
  return { prefix: routePath.slice(0, at), suffix };
}

/**
 * A regular expression (no anchors, no capturing groups) for the whole numbers from `first` to `last`
 * written without leading zeros: numbers of each length are split into runs that share all but their
 * last digits, e.g. 1 to 40 is `[1-9]|[1-3][0-9]|40`.
 */
export function numberRange(first: number, last: number): string {
  if (!Number.isInteger(first) || !Number.isInteger(last) || first < 0 || last < first) throw new Error(`no numbers from ${first} to ${last}`);
  const blocks: { head: string; from: number; to: number; free: number }[] = [];
  let start = first;
  while (start <= last) {
    // The largest block of 10^free numbers starting at `start` that fits: start..start + 10^free - 1.
    let free = 0;
    while (start % 10 ** (free + 1) === 0 && start + 10 ** (free + 1) - 1 <= last && start !== 0) free++;
    const digits = String(start);
    const head = digits.slice(0, digits.length - free - 1);
    const digit = Number(digits[digits.length - free - 1]);
    const previous = blocks.at(-1);
    // Blocks of the same size and head with consecutive digits merge into a class: 1..9 is [1-9].
    if (previous !== undefined && previous.head === head && previous.free === free && previous.to === digit - 1) {
      previous.to = digit;
    } else {
      blocks.push({ head, from: digit, to: digit, free });
    }
    start += 10 ** free;
  }
  return blocks
    .map(({ head, from, to, free }) => `${head}${from === to ? from : `[${from}-${to}]`}${free === 0 ? '' : free === 1 ? '[0-9]' : `[0-9]{${free}}`}`)
    .join('|');
}
