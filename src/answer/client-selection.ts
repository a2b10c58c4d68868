import type { ValueField } from '../bundle/key-index.ts';
import type { QueryBundle } from '../bundle/query-bundle.ts';
import type { ClientCriteria } from './filter-form.ts';
import { clientsWithValue, namesHolding as segmentNamesHolding } from './key-search.ts';
import { registrantsNamed } from './registrant-names.ts';

/**
 * The clients that match every criterion (contract section 9), as their global indexes ascending (id
 * order); `undefined` when no criterion is given: every client. Segment by segment, each criterion is
 * a list read from the segment's key index (bundle/key-index.ts: only the fragments holding the keys
 * asked for), and the lists are intersected: no name, column or client is read that the request does
 * not name.
 *
 * `pause` is called once the lists are read, so that a server answers others before this one's pages.
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
  const registrants = criteria.registrantName === undefined ? undefined : await registrantIdsNamed(bundle, criteria.registrantName);
  if (registrants?.length === 0) return EMPTY;
  // Every segment at once: at the edge each fragment is a request of its own, and they need not wait on each other.
  const { segments } = bundle.manifest;
  const parts = await Promise.all(
    segments.map(async (segment, s) => {
      if (only !== undefined && (only < segment.start || only >= segment.start + segment.count)) return EMPTY;
      const found = await matchSegment(bundle, s, criteria, registrants, only === undefined ? undefined : only - segment.start);
      // The first segment's local indexes are global ones: no loop over its tens of thousands.
      if (segment.start === 0) return found;
      const part = new Int32Array(found.length);
      for (let i = 0; i < found.length; i++) part[i] = segment.start + found[i]!;
      return part;
    }),
  );
  await pause();
  return concat(parts);
}

const EMPTY = new Int32Array(0);

const VALUES: readonly [keyof ClientCriteria, ValueField][] = [
  ['state', 'state'],
  ['country', 'country'],
  ['ppbState', 'ppbState'],
  ['ppbCountry', 'ppbCountry'],
  ['registrantId', 'registrant'],
];

/** The local indexes of a segment's clients that match, ascending: each criterion's list, read in parallel, intersected. */
async function matchSegment(bundle: QueryBundle, s: number, criteria: ClientCriteria, registrants: number[] | undefined, only: number | undefined): Promise<Int32Array> {
  const fragmentOf = (key: string) => bundle.keyFragment(s, key);
  const lists: Promise<Int32Array>[] = [];
  if (only !== undefined) lists.push(Promise.resolve(Int32Array.of(only)));
  const segment = bundle.manifest.segments[s]!;
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
  return result;
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
