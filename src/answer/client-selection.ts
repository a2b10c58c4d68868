import type { IndexSegment, CodeField } from '../bundle/index-segment.ts';
import type { QueryBundle } from '../bundle/query-bundle.ts';
import type { TextList } from '../bundle/text-list.ts';
import { TRIGRAM } from '../bundle/search-text.ts';
import type { ClientCriteria } from './filter-form.ts';
import { namesHolding } from './name-search.ts';
import { scratchInt32 } from '../bundle/scratch-arrays.ts';

/**
 * The clients that match every criterion (contract section 9), as their global indexes ascending (id
 * order); `undefined` when no criterion is given: every client. Segment by segment: the names first
 * when searched (the trigram index narrows them), then each column compared.
 *
 * `pause` is called between segments, so that a long search lets the server answer others meanwhile.
 */
export async function selectClients(bundle: QueryBundle, criteria: ClientCriteria, pause: () => Promise<void>): Promise<Int32Array | undefined> {
  if (Object.keys(criteria).length === 0) return undefined;
  if (criteria.id === null || criteria.registrantId === null) return EMPTY;
  // An id names one client at most: found through its chunk, without the index when nothing else is asked.
  let only: number | undefined;
  if (criteria.id !== undefined) {
    only = await bundle.findClient(criteria.id);
    if (only < 0) return EMPTY;
    if (Object.keys(criteria).length === 1) return Int32Array.of(only);
  }
  const registrants = criteria.registrantName === undefined ? undefined : registrantsNamed(await bundle.registrantIndex(), criteria.registrantName);
  if (registrants?.size === 0) return EMPTY;
  // Each segment's matches as global indexes, joined at the end: an array of every client for each
  // search would be half a megabyte at the registry's size, mostly unused.
  const parts: Int32Array[] = [];
  let count = 0;
  for (const segment of await bundle.segments()) {
    if (only !== undefined && (only < segment.start || only >= segment.start + segment.count)) continue;
    const found = matchSegment(segment, criteria, registrants, only === undefined ? undefined : only - segment.start);
    const part = new Int32Array(found.length);
    for (let i = 0; i < found.length; i++) part[i] = segment.start + found[i]!;
    parts.push(part);
    count += part.length;
    await pause();
  }
  const matched = new Int32Array(count);
  let at = 0;
  for (const part of parts) {
    matched.set(part, at);
    at += part.length;
  }
  return matched;
}

const EMPTY = new Int32Array(0);

const CODES: readonly [keyof ClientCriteria, CodeField][] = [
  ['state', 'state'],
  ['country', 'country'],
  ['ppbState', 'ppbState'],
  ['ppbCountry', 'ppbCountry'],
];

/** The local indexes of a segment's clients that match, ascending; valid until the next segment's. */
function matchSegment(segment: IndexSegment, criteria: ClientCriteria, registrants: Set<number> | undefined, only: number | undefined): ArrayLike<number> {
  let candidates: ArrayLike<number> | undefined = only === undefined ? undefined : [only];
  const name = criteria.clientName;
  if (name !== undefined) candidates = namesHolding(segment.names, name, candidates ?? (name.length >= TRIGRAM ? segment.trigramCandidates(name) : undefined));
  const tests: ((local: number) => boolean)[] = [];
  for (const [key, field] of CODES) {
    const value = criteria[key] as string | undefined;
    if (value === undefined) continue;
    const code = segment.codeIndex(field, value);
    if (code < 0) return [];
    const column = segment.codes[field];
    tests.push((local) => column[local] === code);
  }
  const registrantId = criteria.registrantId;
  if (registrantId !== undefined && registrantId !== null) tests.push((local) => segment.registrant[local] === registrantId);
  if (registrants !== undefined) tests.push((local) => registrants.has(segment.registrant[local]!));
  if (tests.length === 0) return candidates ?? everyIndex(segment.count);
  // In a scratch array (scratch-arrays.ts): the caller copies what it keeps before the next segment.
  const kept = scratchInt32('kept', candidates?.length ?? segment.count);
  let count = 0;
  const consider = (local: number) => {
    for (const test of tests) if (!test(local)) return;
    kept[count++] = local;
  };
  if (candidates === undefined) for (let local = 0; local < segment.count; local++) consider(local);
  else for (let i = 0; i < candidates.length; i++) consider(candidates[i]!);
  return kept.subarray(0, count);
}

function everyIndex(count: number): Int32Array {
  const all = new Int32Array(count);
  for (let i = 0; i < count; i++) all[i] = i;
  return all;
}

/** The ids of the registrants whose name holds `pattern`. */
function registrantsNamed(index: { ids: Float64Array; names: TextList }, pattern: Uint8Array): Set<number> {
  return new Set(namesHolding(index.names, pattern).map((at) => index.ids[at]!));
}
