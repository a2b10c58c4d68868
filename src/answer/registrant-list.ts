import type { QueryBundle } from '../bundle/query-bundle.ts';
import type { CodeColumn } from '../bundle/registrant-columns.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import { registrantBody } from '../render/bodies.ts';
import type { Criteria } from './filter-form.ts';
import type { SortTerm } from './ordering-terms.ts';
import { registrantsNamed } from './registrant-names.ts';
import { orderRegistrantPlaces, type OrderedRegistrants } from './registrant-order.ts';

/**
 * The registrants list (contract section 10) from the registrant columns (bundle/registrant-columns.ts):
 * the registrants that match every criterion, in the order of the terms (registrant-order.ts), as
 * their places in id order. The name's search reads the registrants' key index alone and leaves the
 * fewest places; the other filters are then tested together, in one loop over those places. Every
 * file the answer needs before its page (the name's fragments, the columns of the filters and of
 * the sort) is read in one wave. The unfiltered list reads no column at all.
 */
export async function orderRegistrants(bundle: QueryBundle, criteria: Criteria, terms: readonly SortTerm[]): Promise<OrderedRegistrants> {
  // A filtered list not in id order is sorted by the ranks (registrant-order.ts): read with the rest.
  if (Object.keys(criteria).length === 0) return orderRegistrantPlaces(bundle, undefined, terms);
  const sortsByRanks = terms[0]!.field !== 'id';
  const [selected] = await Promise.all([selectRegistrants(bundle, criteria), sortsByRanks ? bundle.registrantColumn('ranks') : undefined]);
  return orderRegistrantPlaces(bundle, selected, terms);
}

/** The places (in id order) of the registrants that match every criterion (at least one is given), ascending. */
async function selectRegistrants(bundle: QueryBundle, criteria: Criteria): Promise<Int32Array> {
  const { states, countries } = bundle.manifest.choices;
  // Each choice filter asked: its column and the code of its value (a value that is not a string filters nothing, filter-form.ts).
  const choiceFilters = ([['state', states], ['country', countries], ['ppbCountry', countries]] as const).flatMap(([field, choices]) => {
    const value = criteria[field];
    return typeof value === 'string' ? [{ field, code: choices.indexOf(value) }] : [];
  });
  const { updatedAfter: after, updatedBefore: before } = criteria;
  const ranged = typeof after === 'number' || typeof before === 'number';
  const [byId, named, filters] = await Promise.all([
    criteria.id === undefined ? undefined : typeof criteria.id === 'number' ? bundle.registrantColumn('ids') : null,
    criteria.name instanceof Uint8Array ? registrantsNamed(bundle, criteria.name) : undefined,
    choiceFilters.length > 0 || ranged ? bundle.registrantColumn('filters') : undefined,
  ]);
  let places = named;
  if (byId !== undefined) {
    const at = byId === null ? -1 : sortedIndexOf(byId, criteria.id as number);
    // The one place an id names, if the name holds it too.
    places = at < 0 || (named !== undefined && !named.includes(at)) ? new Int32Array(0) : Int32Array.of(at);
  }
  if (filters === undefined) return places ?? everyPlace(bundle.manifest.registrants);
  const tests: PlaceTests = {
    codes: choiceFilters.map(({ field, code }) => ({ column: filters[field], code })),
    updated: ranged ? filters.updated : undefined,
    // No dt_updated (NaN) is within no range.
    after: typeof after === 'number' ? after : -Infinity,
    before: typeof before === 'number' ? before : Infinity,
  };
  return keepPassing(tests, places, bundle.manifest.registrants);
}

/** The filters of the columns: each code a column must hold (-1: no choice, which none holds), and the range of `updated`, both ends included. */
interface PlaceTests {
  codes: { column: CodeColumn; code: number }[];
  updated: Float64Array | undefined;
  after: number;
  before: number;
}

/**
 * Of `places` (all `total` when undefined), those that pass every test, in one loop: a fresh
 * instance runs it interpreted, over thousands of places (`LLP`: 5,310), once instead of once a filter.
 */
function keepPassing({ codes, updated, after, before }: PlaceTests, places: Int32Array | undefined, total: number): Int32Array {
  const count = places?.length ?? total;
  const kept = new Int32Array(count);
  let found = 0;
  const [first, second, third] = codes;
  for (let i = 0; i < count; i++) {
    const place = places === undefined ? i : places[i]!;
    if (first !== undefined && first.column[place] !== first.code) continue;
    if (second !== undefined && second.column[place] !== second.code) continue;
    if (third !== undefined && third.column[place] !== third.code) continue;
    if (updated !== undefined && !(updated[place]! >= after && updated[place]! <= before)) continue;
    kept[found++] = place;
  }
  return kept.subarray(0, found);
}

function everyPlace(count: number): Int32Array {
  const all = new Int32Array(count);
  for (let i = 0; i < count; i++) all[i] = i;
  return all;
}

/** The body of the registrant at a place in id order (contract section 4), as in a page and in its record file. */
export async function registrantText(bundle: QueryBundle, place: number, base: string, suffix: string): Promise<string> {
  const { id, fields } = await bundle.registrantAt(place);
  return registrantBody(base, suffix, id, fields);
}
