import type { QueryBundle } from '../bundle/query-bundle.ts';
import type { PlaceOrder } from '../bundle/registrant-columns.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import { registrantBody } from '../render/bodies.ts';
import { orderRecords, type OrderSource, type OrderedClients as OrderedRecords, type TermKeys } from './client-order.ts';
import type { Criteria } from './filter-form.ts';
import { namesHolding } from './name-search.ts';
import type { SortTerm } from './ordering-terms.ts';

/**
 * The registrants list (contract section 10) from the registrant columns (bundle/registrant-columns.ts):
 * the registrants that match every criterion, in the order of the terms, as their places in id order.
 * A pass over the columns the filters use, then the order the lists share (client-order.ts) over the
 * precomputed orders of names and instants. The unfiltered list in id order reads no column but ids.
 */
export async function orderRegistrants(bundle: QueryBundle, criteria: Criteria, terms: readonly SortTerm[]): Promise<OrderedRecords> {
  return orderRecords(orderSource(bundle), await selectRegistrants(bundle, criteria), terms);
}

/** The places (in id order) of the registrants that match, ascending; undefined when nothing is asked. */
async function selectRegistrants(bundle: QueryBundle, criteria: Criteria): Promise<Int32Array | undefined> {
  if (Object.keys(criteria).length === 0) return undefined;
  let candidates: ArrayLike<number> | undefined;
  if (criteria.id !== undefined) {
    const at = typeof criteria.id === 'number' ? sortedIndexOf(await bundle.registrantColumn('ids'), criteria.id) : -1;
    if (at < 0) return new Int32Array(0);
    candidates = [at];
  }
  if (criteria.name instanceof Uint8Array) candidates = namesHolding(await bundle.registrantColumn('names'), criteria.name, candidates);
  const tests: ((at: number) => boolean)[] = [];
  const { states, countries } = bundle.manifest.choices;
  for (const [field, choices] of [['state', states], ['country', countries], ['ppbCountry', countries]] as const) {
    const value = criteria[field];
    if (typeof value !== 'string') continue;
    const column = (await bundle.registrantColumn('codes'))[field];
    const code = choices.indexOf(value);
    tests.push((at) => column[at] === code);
  }
  const { updatedAfter: after, updatedBefore: before } = criteria;
  if (typeof after === 'number' || typeof before === 'number') {
    const updated = await bundle.registrantColumn('updated');
    if (typeof after === 'number') tests.push((at) => updated[at]! >= after);
    if (typeof before === 'number') tests.push((at) => updated[at]! <= before);
  }
  const total = candidates?.length ?? bundle.manifest.registrants;
  const kept = new Int32Array(total);
  let count = 0;
  for (let i = 0; i < total; i++) {
    const at = candidates === undefined ? i : candidates[i]!;
    if (tests.every((test) => test(at))) kept[count++] = at;
  }
  return kept.subarray(0, count);
}

/** The registrants' orders, from the columns: names and instants each in a precomputed order, ranks derived once. */
function orderSource(bundle: QueryBundle): OrderSource {
  const total = bundle.manifest.registrants;
  const orderOf = (term: SortTerm) => bundle.registrantColumn(term.field === 'name' ? 'nameOrder' : 'updatedOrder');
  return {
    total,
    async fullOrder(term) {
      const last = total - 1;
      if (term.field === 'id') return term.descending ? (place) => last - place : (place) => place;
      const { order } = await orderOf(term);
      return term.descending ? (place) => order[last - place]! : (place) => order[place]!;
    },
    async sortKeys(term) {
      const { rank, buckets } = ranksOf(await orderOf(term));
      if (!term.descending) return { key: rank, buckets };
      const key = new Uint32Array(rank.length);
      for (let i = 0; i < rank.length; i++) key[i] = buckets - 1 - rank[i]!;
      return { key, buckets };
    },
  };
}

const ranks = new WeakMap<PlaceOrder, TermKeys>();

/** Each place's rank in an order, equal values (`ties`) sharing one. */
function ranksOf(order: PlaceOrder): { rank: Uint32Array; buckets: number } {
  let found = ranks.get(order);
  if (found === undefined) {
    const rank = new Uint32Array(order.order.length);
    let current = -1;
    for (let p = 0; p < order.order.length; p++) {
      if (order.ties[p] !== 1) current++;
      rank[order.order[p]!] = current;
    }
    ranks.set(order, (found = { key: rank, buckets: current + 1 }));
  }
  return { rank: found.key, buckets: found.buckets };
}

/** The body of the registrant at a place in id order (contract section 4), as in a page and in its record file. */
export async function registrantText(bundle: QueryBundle, place: number, base: string, suffix: string): Promise<string> {
  const id = (await bundle.registrantColumn('ids'))[place]!;
  const fields = await bundle.registrantFields(id);
  if (fields === undefined) throw new Error(`the query bundle lists registrant ${id} but has no text for it`);
  return registrantBody(base, suffix, id, fields);
}
