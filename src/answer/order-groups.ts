import type { OrderField } from '../bundle/order-fragments.ts';
import type { SortTerm } from './ordering-terms.ts';

/**
 * The terms of an order (ordering-terms.ts: at most [T1, T2, id]) as the order fragments serve them:
 * T1's fragments give its groups of equal values in order, and each group is ordered on its own by T2
 * (the rank each entry carries) and then by client number in the id term's direction.
 */
export interface FieldTerm {
  field: OrderField;
  descending: boolean;
}

export interface OrderPlan {
  first?: FieldTerm;
  second?: FieldTerm;
  idDescending: boolean;
}

export function orderPlan(terms: readonly SortTerm[]): OrderPlan {
  const last = terms.at(-1);
  const keyed = terms.slice(0, -1);
  const fields = keyed.map((term) => term.field);
  if (last?.field !== 'id' || keyed.length > 2 || fields.includes('id') || new Set(fields).size !== fields.length) {
    throw new TypeError(`Expected terms [name|date, name|date?, id] with no field twice, not [${terms.map((term) => `${term.descending ? '-' : ''}${term.field}`).join(', ')}]`);
  }
  const [first, second] = keyed as FieldTerm[];
  return { ...(first && { first }), ...(second && { second }), idDescending: last.descending };
}

/** Entries of a field's order side by side (one fragment, or several joined): see bundle/order-fragments.ts. */
export interface GroupEntries {
  clients: ArrayLike<number>;
  others: ArrayLike<number>;
  ranked: ArrayLike<number>;
}

/**
 * The clients at positions [from, to) of one group's order (entries [start, end) of `entries`), given
 * to `visit` in order until it returns false: by client number, or by the group's order by other rank
 * (`ranked`) read in the terms' directions. Descending T2 reads it backwards, but null dates (rank 0)
 * stay first; where the id term goes the other way than that reading, each run of equal ranks is read
 * the other way. Returns the position after the last client visited.
 */
export function walkGroup(entries: GroupEntries, start: number, end: number, plan: OrderPlan, from: number, to: number, visit: (client: number) => boolean): number {
  const { clients, others, ranked } = entries;
  const { second, idDescending } = plan;
  if (second === undefined) {
    for (let r = from; r < to; ) if (!visit(clients[idDescending ? end - 1 - r++ : start + r++]!)) return r;
    return to;
  }
  const size = end - start;
  // The rank at position i of the group's ascending order: never decreasing in i.
  const rankAt = (i: number) => others[start + ranked[start + i]!]!;
  const nulls = second.field === 'date' && second.descending ? nullsIn(rankAt, size) : 0;
  let runStart = 0;
  let runEnd = 0;
  for (let r = from; r < to; ) {
    const backwards = second.descending && r >= nulls;
    const at = backwards ? size - 1 + nulls - r : r;
    if (at < runStart || at >= runEnd) {
      // The run of equal ranks around `at`: a page walks each run it meets once, whichever way.
      const rank = rankAt(at);
      for (runStart = at; runStart > 0 && rankAt(runStart - 1) === rank; ) runStart--;
      for (runEnd = at + 1; runEnd < size && rankAt(runEnd) === rank; ) runEnd++;
    }
    const flipped = backwards !== idDescending ? runStart + runEnd - 1 - at : at;
    r++;
    if (!visit(clients[start + ranked[start + flipped]!]!)) return r;
  }
  return to;
}

/** How many positions have rank 0 (null dates), found by halving. */
function nullsIn(rankAt: (i: number) => number, size: number): number {
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rankAt(middle) === 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
