import type { QueryBundle } from '../bundle/query-bundle.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import { registrantBody } from '../render/bodies.ts';
import { ordered, type OrderedClients as OrderedRecords } from './client-order.ts';
import type { Criteria } from './filter-form.ts';
import { namesHolding } from './name-search.ts';
import type { SortTerm } from './ordering-terms.ts';

/**
 * The registrants list (contract section 10) from the registrant columns (bundle/registrant-columns.ts):
 * the registrants that match every criterion, in the order of the terms, as their places in id order.
 * Some tens of thousands at the registry's size: a pass over the columns, then a sort by comparing.
 * The unfiltered list in id order reads nothing but the page's registrants.
 */
export async function orderRegistrants(bundle: QueryBundle, criteria: Criteria, terms: readonly SortTerm[]): Promise<OrderedRecords> {
  const total = bundle.manifest.registrants;
  const selected = await selectRegistrants(bundle, criteria);
  if (selected === undefined && terms.length === 1) return ordered(total, terms[0]!.descending ? (place) => total - 1 - place : (place) => place);
  const items = selected ?? Array.from({ length: total }, (_, i) => i);
  if (terms.length > 1) {
    const columns = await bundle.registrantColumns();
    const keys = terms.map((term) => ({ sign: term.descending ? -1 : 1, key: term.field === 'name' ? columns.nameRank : term.field === 'date' ? columns.updated : undefined }));
    items.sort((a, b) => {
      for (const { sign, key } of keys) {
        // A registrant without dt_updated (NaN) comes first whichever the direction, as a null date of a client does.
        const x = key === undefined ? a : key[a]!;
        const y = key === undefined ? b : key[b]!;
        if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
        if (Number.isNaN(x)) return -1;
        if (Number.isNaN(y)) return 1;
        return x < y ? -sign : sign;
      }
      return 0;
    });
  } else if (terms[0]!.descending) items.reverse();
  return ordered(items.length, (place) => items[place]!);
}

/** The places (in id order) of the registrants that match, ascending; undefined when nothing is asked. */
async function selectRegistrants(bundle: QueryBundle, criteria: Criteria): Promise<number[] | undefined> {
  if (Object.keys(criteria).length === 0) return undefined;
  const columns = await bundle.registrantColumns();
  const { states, countries } = bundle.manifest.choices;
  let candidates: ArrayLike<number> | undefined;
  if (criteria.id !== undefined) {
    const at = typeof criteria.id === 'number' ? sortedIndexOf(columns.ids, criteria.id) : -1;
    if (at < 0) return [];
    candidates = [at];
  }
  if (criteria.name instanceof Uint8Array) candidates = namesHolding((await bundle.registrantIndex()).names, criteria.name, candidates);
  const tests: ((at: number) => boolean)[] = [];
  for (const [field, column, choices] of [['state', columns.state, states], ['country', columns.country, countries], ['ppbCountry', columns.ppbCountry, countries]] as const) {
    const value = criteria[field];
    if (typeof value === 'string') {
      const code = choices.indexOf(value);
      tests.push((at) => column[at] === code);
    }
  }
  const { updatedAfter: after, updatedBefore: before } = criteria;
  if (typeof after === 'number') tests.push((at) => columns.updated[at]! >= after);
  if (typeof before === 'number') tests.push((at) => columns.updated[at]! <= before);
  const kept: number[] = [];
  const total = candidates?.length ?? columns.ids.length;
  for (let i = 0; i < total; i++) {
    const at = candidates === undefined ? i : candidates[i]!;
    if (tests.every((test) => test(at))) kept.push(at);
  }
  return kept;
}

/** The body of the registrant at a place in id order (contract section 4), as in a page and in its record file. */
export async function registrantText(bundle: QueryBundle, place: number, base: string, suffix: string): Promise<string> {
  const id = (await bundle.registrantColumns()).ids[place]!;
  const fields = await bundle.registrantFields(id);
  if (fields === undefined) throw new Error(`the query bundle lists registrant ${id} but has no text for it`);
  return registrantBody(base, suffix, id, fields);
}
