import type { Behaviour } from '../../src/hosts/behaviours.ts';
import { FILTERS, LIVE_FILTERS, type FilterName } from '../../src/contract.ts';
import { decimalInteger } from '../../src/routing/filter-values.ts';
import type { ConformanceCase } from './conformance.ts';

/**
 * Which behaviours of the host table (src/hosts/behaviours.ts) a conformance case exercises, read from
 * its request and its expected answer. A host that declares a gap in one of them may fail the case;
 * a host that declares none must pass it. So a host's known failures follow from the gaps it
 * declares, never from a list of case ids.
 */
export function caseBehaviours(item: ConformanceCase): Behaviour[] {
  const behaviours = new Set<Behaviour>();
  const queryStart = item.target.indexOf('?');
  const rawPath = queryStart < 0 ? item.target : item.target.slice(0, queryStart);
  const rawQuery = queryStart < 0 ? '' : item.target.slice(queryStart + 1);

  if (item.method !== 'GET' && item.method !== 'HEAD') behaviours.add('methods');
  if (item.method === 'HEAD') behaviours.add('head');
  if (!rawPath.endsWith('/') || rawPath.includes('//')) behaviours.add('missingSlash');
  if (item.target.includes('%')) behaviours.add('percentDecoding');

  const names: string[] = [];
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    names.push(name);
    if (name === 'ordering' && value !== '') behaviours.add('orderings');
    if (name === 'page') behaviours.add(value === 'last' ? 'last' : 'pages');
    if (name === 'format' && value !== '') behaviours.add('formats');
    if (name === 'page_size' || (name === 'ordering' && item.status === 400)) behaviours.add('rejections');
    if ((LIVE_FILTERS as readonly string[]).includes(name) && value !== '') {
      // A filter the build answers, with a value read from its spelling; or one it rejects with a detail.
      if (Object.hasOwn(FILTERS, name) && item.kind !== 'detail400') behaviours.add(withinRules(name as FilterName, value) ? 'filters' : 'filterSpellings');
      else behaviours.add('rejections');
    }
  }
  if (new Set(names).size < names.length) behaviours.add('repeatedParameters');
  if (item.kind === 'detail400') behaviours.add('rejections');
  // A record the build did not write answers "Not found." like an unknown format does.
  if (item.status === 404 && /\/[0-9]+\/?$/.test(rawPath)) behaviours.add('formats');
  return [...behaviours];
}

/**
 * The spellings of a filter's value that contract section 8 asks of every host: a number with leading
 * zeros, a sign, `.` and digits, and letters and digits that are no number at all (`abc`: its 400 has
 * a fixed body); any value of letters and digits (valid or not) for a choice.
 */
function withinRules(name: FilterName, value: string): boolean {
  if (FILTERS[name].values !== 'number') return /^[A-Za-z0-9]*$/.test(value);
  return /^[+-]?[0-9]*(\.[0-9]*)?$/.test(value) || (/^[A-Za-z0-9]*$/.test(value) && decimalInteger(value, 16) === undefined);
}

/** Problems that only concern headers (the `headers` column). */
export function isHeaderProblem(problem: string): boolean {
  return problem.startsWith('header ');
}
