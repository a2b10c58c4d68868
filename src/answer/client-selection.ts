import { valueKey, type ValueField } from '../bundle/key-index.ts';
import type { QueryBundle } from '../bundle/query-bundle.ts';
import type { ClientCriteria } from './filter-form.ts';
import { clientsWithValue, findList, oneListKey, namesHolding as segmentNamesHolding, type FragmentOf } from './key-search.ts';
import { registrantsNamed } from './registrant-names.ts';
import { bitmapSelection, joinedSelection, listedSelection, type Selection } from './selection.ts';

/**
 * The clients that match every criterion (contract section 9), as their global indexes ascending (id
 * order); `undefined` when no criterion is given: every client. Segment by segment, each criterion is
 * a list read from the segment's key index (bundle/key-index.ts: only the fragments holding the keys
 * asked for), and the lists are intersected: no name, column or client is read that the request does
 * not name.
 *
 * `pause` is called once the lists are read, so that a server answers others before this one's pages.
 */
export async function selectClients(bundle: QueryBundle, criteria: ClientCriteria, pause: () => Promise<void>): Promise<Selection | undefined> {
  if (Object.keys(criteria).length === 0) return undefined;
  const total = bundle.manifest.clients;
  if (criteria.id === null || criteria.registrantId === null) return listedSelection(EMPTY, total);
  // An id names one client at most: found through its chunk, without the index when nothing else is asked.
  let only: number | undefined;
  if (criteria.id !== undefined) {
    only = await bundle.findClient(criteria.id);
    if (only < 0) return listedSelection(EMPTY, total);
    if (Object.keys(criteria).length === 1) return listedSelection(Int32Array.of(only), total);
  }
  const registrants = criteria.registrantName === undefined ? undefined : await registrantIdsNamed(bundle, criteria.registrantName);
  if (registrants?.length === 0) return listedSelection(EMPTY, total);
  // Every segment at once: at the edge each fragment is a request of its own, and they need not wait on each other.
  const { segments } = bundle.manifest;
  const parts = await Promise.all(
    segments.map((segment, s) => {
      if (only !== undefined && (only < segment.start || only >= segment.start + segment.count)) return listedSelection(EMPTY, segment.count);
      return matchSegment(bundle, s, criteria, registrants, only === undefined ? undefined : only - segment.start);
    }),
  );
  await pause();
  return joinedSelection(
    parts,
    segments.map((segment) => segment.start),
  );
}

const EMPTY = new Int32Array(0);

const VALUES: readonly [keyof ClientCriteria, ValueField][] = [
  ['state', 'state'],
  ['country', 'country'],
  ['ppbState', 'ppbState'],
  ['ppbCountry', 'ppbCountry'],
  ['registrantId', 'registrant'],
];

/**
 * The segment's clients that match (local indexes): each criterion's list, read in parallel,
 * intersected; a criterion that is one list alone (a value, a name of one or two bytes, a common word)
 * is that list as the segment keeps it, a bitmap left undecoded.
 */
async function matchSegment(bundle: QueryBundle, s: number, criteria: ClientCriteria, registrants: number[] | undefined, only: number | undefined): Promise<Selection> {
  const fragmentOf = (key: string) => bundle.keyFragment(s, key);
  const segment = bundle.manifest.segments[s]!;
  const lone = loneKey(criteria, segment);
  if (lone !== undefined) return keptList(fragmentOf, lone, segment.count);
  const lists: Promise<Int32Array>[] = [];
  if (only !== undefined) lists.push(Promise.resolve(Int32Array.of(only)));
  if (criteria.clientName !== undefined) lists.push(segmentNamesHolding(fragmentOf, criteria.clientName, segment.maxNameBytes, segment.keys.firstKeys, segment.words));
  for (const [key, field] of VALUES) {
    const value = criteria[key] as string | number | undefined;
    if (value !== undefined) lists.push(clientsWithValue(fragmentOf, field, value));
  }
  if (registrants !== undefined) lists.push(Promise.all(registrants.map((id) => clientsWithValue(fragmentOf, 'registrant', id))).then(union));
  const found = await Promise.all(lists);
  found.sort((a, b) => a.length - b.length);
  let result = found[0]!;
  for (let i = 1; i < found.length && result.length > 0; i++) result = intersect(result, found[i]!);
  return listedSelection(result, segment.count);
}

/** The key of the one list that is the whole answer in a segment, when the criteria are one such list. */
function loneKey(criteria: ClientCriteria, segment: { maxNameBytes: number; words?: readonly string[] }): string | undefined {
  const given = Object.keys(criteria);
  if (given.length !== 1) return undefined;
  const { clientName } = criteria;
  if (clientName !== undefined) return clientName.length > 0 && clientName.length <= segment.maxNameBytes ? oneListKey(clientName, segment.words) : undefined;
  const value = VALUES.find(([key]) => key === given[0]);
  return value === undefined ? undefined : valueKey(value[1], criteria[value[0]] as string | number);
}

/** A list as the segment keeps it: a bitmap as it is, other lists decoded. */
async function keptList(fragmentOf: FragmentOf, key: string, count: number): Promise<Selection> {
  const list = await findList(fragmentOf, key);
  if (list === undefined) return listedSelection(EMPTY, count);
  const bitmap = list.fragment.bitmap(list.index);
  return bitmap === undefined ? listedSelection(list.fragment.locals(list.index), count) : bitmapSelection(bitmap);
}

/** The entries of `a` also in `b` (both ascending). */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      out[n++] = a[i]!;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return out.subarray(0, n);
}

/** Ascending lists that do not overlap (a client has one registrant) joined, ascending. */
function union(lists: Int32Array[]): Int32Array {
  return concat(lists).sort();
}

/** Lists joined end to end. */
function concat(lists: Int32Array[]): Int32Array {
  let total = 0;
  for (const list of lists) total += list.length;
  const all = new Int32Array(total);
  let at = 0;
  for (const list of lists) {
    all.set(list, at);
    at += list.length;
  }
  return all;
}

/** The ids of the registrants whose name holds `pattern`. */
async function registrantIdsNamed(bundle: QueryBundle, pattern: Uint8Array): Promise<number[]> {
  const [places, ids] = await Promise.all([registrantsNamed(bundle, pattern), bundle.registrantColumn('ids')]);
  return Array.from(places, (at) => ids[at]!);
}
