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
 * What is returned is the order in effect: terms up to the first on `id` (which is unique, so nothing
 * after it can matter), ending with the `id` term that breaks ties.
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
  for (const raw of (value ?? '').split(',')) {
    const term = stripPython(raw);
    const descending = term.startsWith('-');
    const name = descending ? term.slice(1) : term;
    if (Object.hasOwn(fields, name)) kept.push({ field: fields[name] as SortField, descending });
  }
  if (kept.length === 0) return [{ field: 'id', descending: false }];
  const firstId = kept.findIndex((term) => term.field === 'id');
  if (firstId >= 0) return kept.slice(0, firstId + 1);
  return [...kept, { field: 'id', descending: kept.at(-1)!.descending }];
}
