import { stripPython } from '../routing/python-text.ts';
import { CLIENTS } from './list-resource.ts';

/**
 * The order of a list as Django REST Framework's OrderingFilter reads `ordering` (contract section 9):
 * the value split at commas, each term stripped of white space, the terms on the list's fields
 * (clients: `id`, `name`, `effective_date`; registrants: `id`, `name`, `dt_updated`), with or without
 * a leading `-`, kept and the others dropped; no term left is
 * ascending id. The reference then sorts by `id` in the direction of the last term, unless that term
 * is on `id` already.
 *
 * What is returned is the order in effect, at most three terms whatever was asked: terms up to the
 * first on `id` (which is unique, so nothing after it can matter), a term on a field already ordered
 * dropped (clients tied on every term before it are tied on that field too: it changes nothing),
 * ending with the `id` term that breaks ties. So `ordering=name,name,...` 3,000 times sorts once.
 */
export type SortField = 'name' | 'date' | 'id';

export interface SortTerm {
  field: SortField;
  descending: boolean;
}

/** The clients' terms (list-resource.ts gives each list's). */
const CLIENT_TERMS: Readonly<Record<string, string>> = CLIENTS.orderings;

export function orderingTerms(value: string | undefined, fields: Readonly<Record<string, string>> = CLIENT_TERMS): SortTerm[] {
  const kept: SortTerm[] = [];
  // The direction of the last term DRF kept, redundant or not: the tie-break on `id` follows it.
  let last: SortTerm | undefined;
  for (const raw of (value ?? '').split(',')) {
    const term = stripPython(raw);
    const descending = term.startsWith('-');
    const name = descending ? term.slice(1) : term;
    if (!Object.hasOwn(fields, name)) continue;
    last = { field: fields[name] as SortField, descending };
    if (!kept.some((earlier) => earlier.field === last!.field)) kept.push(last);
    if (last.field === 'id') return kept;
  }
  if (last === undefined) return [{ field: 'id', descending: false }];
  return [...kept, { field: 'id', descending: last.descending }];
}
