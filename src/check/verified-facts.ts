import type { Ordering } from '../contract.ts';
import { choiceStep, recordRoutes, type RewriteMap } from '../plan/rewrite-map.ts';
import { IdSet, type IdWords } from './id-set.ts';

/** What one render thread verified, for the build to join with the other threads' findings. */
export interface VerifiedFacts {
  problems: string[];
  /** Problems found, listed or not. */
  found: number;
  links: number;
  /** Per group of record files (`api/v1/clients/*\/index.json`): the ids written, and the ids some link names. */
  written: [string, IdWords][];
  linked: [string, IdWords][];
  /** Per filtered unit: how many values have lists, and a digest of which, to compare across orderings. */
  filteredValues: { filter: string; ordering: Ordering; values: number; digest: string }[];
}

/** The ids of one group of record files (`api/v1/clients/*\/index.json`) among `sets`, made empty the first time. */
export function idsOfGroup(sets: Map<string, IdSet>, group: string): IdSet {
  let ids = sets.get(group);
  if (ids === undefined) sets.set(group, (ids = new IdSet()));
  return ids;
}

/** Per group of record files, its ids as words: how they cross from a render thread to the build. */
export function wordsOfGroups(sets: Map<string, IdSet>): [string, IdWords][] {
  return [...sets].map(([group, ids]) => [group, ids.toWords()] as [string, IdWords]);
}

/**
 * The findings of every render thread, joined: every record file a link names exists, every record
 * file is reached by a link, each record route has a file per record in every format, and every
 * filter has lists for the same values in each ordering. Returns every problem found, listed ones first.
 */
export function joinVerifiedFacts(map: RewriteMap, all: VerifiedFacts[], problemLimit = 50): { problems: string[]; found: number; links: number } {
  const problems = all.flatMap((facts) => facts.problems);
  let found = all.reduce((sum, facts) => sum + facts.found, 0);
  const problem = (text: string) => {
    found++;
    if (problems.length < problemLimit) problems.push(text);
  };
  const union = (pick: (facts: VerifiedFacts) => [string, IdWords][]) => {
    const sets = new Map<string, IdSet>();
    for (const facts of all) {
      for (const [group, words] of pick(facts)) idsOfGroup(sets, group).merge(new IdSet(words));
    }
    return sets;
  };
  const written = union((facts) => facts.written);
  const linked = union((facts) => facts.linked);
  for (const [group, ids] of linked) {
    for (const id of take(ids.without(written.get(group) ?? new IdSet()), problemLimit)) problem(`a link names ${group.replace('*', String(id))}, which the build did not write`);
  }
  for (const [group, ids] of written) {
    for (const id of take(ids.without(linked.get(group) ?? new IdSet()), problemLimit)) problem(`${group.replace('*', String(id))} is reached by no link`);
  }
  for (const route of recordRoutes(map)) {
    for (const fileName of Object.values(choiceStep(route, 'format')?.choices ?? {})) {
      const group = `${route.path.slice(1, route.path.indexOf('{id}'))}*/${fileName}`;
      const count = written.get(group)?.size ?? 0;
      if (count !== route.count) problem(`${route.path}: ${count} files ${fileName}, the map says ${route.count}`);
    }
  }
  const byFilter = new Map<string, VerifiedFacts['filteredValues']>();
  for (const entry of all.flatMap((facts) => facts.filteredValues)) byFilter.set(entry.filter, [...(byFilter.get(entry.filter) ?? []), entry]);
  for (const [filter, entries] of byFilter) {
    if (new Set(entries.map((entry) => entry.digest)).size > 1) {
      problem(`${filter}: the orderings have lists for different values (${entries.map((entry) => `${entry.ordering || 'none'}: ${entry.values}`).join(', ')})`);
    }
  }
  return { problems, found, links: all.reduce((sum, facts) => sum + facts.links, 0) };
}

function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  for (const item of items) {
    yield item;
    if (--count === 0) return;
  }
}
