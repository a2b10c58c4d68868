import type { Behaviour } from '../../src/hosts/behaviours.ts';
import { LIVE_FILTERS } from '../../src/contract.ts';
import type { ConformanceCase } from './conformance.ts';

/**
 * Which behaviours of the host table (src/hosts/behaviours.ts) a conformance case exercises, read from
 * its request and its expected answer. A host that declares a gap in one of them may fail the case;
 * a host that declares none must pass it. So a host's known failures follow from the gaps it
 * declares, never from a list of case ids.
 *
 * `filteredLists` is not a column of the table: it is the mirror's own gap until the filters are built
 * (a filter with a value answered by anything but a 400), excused on every host and the preview alike.
 */
export type CaseBehaviour = Behaviour | 'filteredLists';

export function caseBehaviours(item: ConformanceCase): CaseBehaviour[] {
  const behaviours = new Set<CaseBehaviour>();
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
      behaviours.add(item.status === 400 ? 'rejections' : 'filteredLists');
    }
  }
  if (new Set(names).size < names.length) behaviours.add('repeatedParameters');
  if (item.status === 400) behaviours.add('rejections');
  // A record the build did not write answers "Not found." like an unknown format does.
  if (item.status === 404 && /\/[0-9]+\/?$/.test(rawPath)) behaviours.add('formats');
  return [...behaviours];
}

/** Problems that only concern headers (the `headers` column). */
export function isHeaderProblem(problem: string): boolean {
  return problem.startsWith('header ');
}
