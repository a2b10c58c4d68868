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
 * their places in id order. Each filter narrows the places the one before kept, reading only its own
 * column; the name first (after an id), whose search reads the registrants' key index alone and
 * leaves the fewest places for the loops in JavaScript of the others. The unfiltered list reads no column at all.
 */
export async function orderRegistrants(bundle: QueryBundle, criteria: Criteria, terms: readonly SortTerm[]): Promise<OrderedRegistrants> {
  return orderRegistrantPlaces(bundle, await selectRegistrants(bundle, criteria), terms);
}

/** The places (in id order) of the registrants that match, ascending; undefined when nothing is asked. */
async function selectRegistrants(bundle: QueryBundle, criteria: Criteria): Promise<Int32Array | undefined> {
  if (Object.keys(criteria).length === 0) return undefined;
  let places: Int32Array | undefined;
  if (criteria.id !== undefined) {
    const at = typeof criteria.id === 'number' ? sortedIndexOf(await bundle.registrantColumn('ids'), criteria.id) : -1;
    places = at < 0 ? new Int32Array(0) : Int32Array.of(at);
  }
  if (criteria.name instanceof Uint8Array) {
    const named = await registrantsNamed(bundle, criteria.name);
    // Places before this are at most the one an id names.
    places = places === undefined ? named : named.filter((place) => places!.includes(place));
  }
  const { states, countries } = bundle.manifest.choices;
  for (const [field, choices] of [['state', states], ['country', countries], ['ppbCountry', countries]] as const) {
    const value = criteria[field];
    if (typeof value !== 'string') continue;
    places = keepCode((await bundle.registrantColumn('codes'))[field], choices.indexOf(value), places);
  }
  const { updatedAfter: after, updatedBefore: before } = criteria;
  if (typeof after === 'number' || typeof before === 'number') {
    // No dt_updated (NaN) is within no range.
    places = keepWithin(await bundle.registrantColumn('updated'), typeof after === 'number' ? after : -Infinity, typeof before === 'number' ? before : Infinity, places);
  }
  return places ?? everyPlace(bundle.manifest.registrants);
}

/** Of `places` (all when undefined), those whose code is `code` (-1: no choice, which none has). */
function keepCode(column: CodeColumn, code: number, places: Int32Array | undefined): Int32Array {
  const kept = new Int32Array(places?.length ?? column.length);
  let count = 0;
  if (places === undefined) {
    for (let place = 0; place < column.length; place++) if (column[place] === code) kept[count++] = place;
  } else {
    for (let i = 0; i < places.length; i++) if (column[places[i]!] === code) kept[count++] = places[i]!;
  }
  return kept.subarray(0, count);
}

/** Of `places` (all when undefined), those whose instant is from `after` to `before`, both included. */
function keepWithin(updated: Float64Array, after: number, before: number, places: Int32Array | undefined): Int32Array {
  const kept = new Int32Array(places?.length ?? updated.length);
  let count = 0;
  const total = places?.length ?? updated.length;
  for (let i = 0; i < total; i++) {
    const place = places === undefined ? i : places[i]!;
    const instant = updated[place]!;
    if (instant >= after && instant <= before) kept[count++] = place;
  }
  return kept.subarray(0, count);
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
