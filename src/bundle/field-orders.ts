import { ORDER_PLACES, encodeOrderFragments } from './order-fragments.ts';

/**
 * What the build cuts into order fragments (order-fragments.ts): a field's order of every client with
 * its groups of equal values, and each client's rank for that field. The name order comes from the
 * store (names by code point, ties by id: bundle-files.ts); the date order is made here from the
 * dates by client number.
 */
export interface FieldOrder {
  /** Client numbers, ascending by the field, equal values by client number ascending. */
  order: Uint32Array;
  /** By place: 1 where a group of equal values starts. */
  groupStarts: Uint8Array;
}

/** The date order: `dates` by client number as YYYYMMDD, -1 for none; null first; `nulls` clients have none. */
export function dateFieldOrder(dates: Int32Array): FieldOrder & { nulls: number } {
  const total = dates.length;
  // One number per client, date then client number: exact in a double for any date and up to 10^8 clients.
  const keys = new Float64Array(total);
  for (let client = 0; client < total; client++) {
    const date = dates[client]!;
    if (date < -1 || !Number.isInteger(date) || date > 99_991_231) throw new Error(`client ${client}: date ${date} is not YYYYMMDD or -1`);
    keys[client] = (date + 1) * total + client;
  }
  keys.sort();
  const order = new Uint32Array(total);
  const groupStarts = new Uint8Array(total);
  let nulls = 0;
  for (let place = 0; place < total; place++) {
    const client = keys[place]! % total;
    order[place] = client;
    groupStarts[place] = place === 0 || dates[client] !== dates[order[place - 1]!] ? 1 : 0;
    if (dates[client] === -1) nulls++;
  }
  return { order, groupStarts, nulls };
}

/** The name order's groups from its ties (name-order.ts: 1 where a name equals the one before). */
export function nameFieldOrder(order: Uint32Array, ties: Uint8Array): FieldOrder {
  return { order, groupStarts: ties.map((tie) => (tie === 1 ? 0 : 1)) };
}

/**
 * Each client's rank (by client number) among the groups of an order, counted from `firstRank`: 0
 * for names; for dates 0 is null's, so an order with no null date counts from 1.
 */
export function groupRanks({ order, groupStarts }: FieldOrder, firstRank: number): Uint32Array {
  const rank = new Uint32Array(order.length);
  let current = firstRank - 1;
  for (let place = 0; place < order.length; place++) {
    if (place === 0 || groupStarts[place] === 1) current++;
    rank[order[place]!] = current;
  }
  return rank;
}

/** Both fields' fragments and the count of null dates (the date order's first group, first in either direction). */
export function clientOrderFragments(names: FieldOrder, dates: Int32Array, places = ORDER_PLACES): { name: Uint8Array[]; date: Uint8Array[]; nullDates: number } {
  const byDate = dateFieldOrder(dates);
  const nameRank = groupRanks(names, 0);
  const dateRank = groupRanks(byDate, byDate.nulls > 0 ? 0 : 1);
  return {
    name: encodeOrderFragments(names.order, names.groupStarts, dateRank, places),
    date: encodeOrderFragments(byDate.order, byDate.groupStarts, nameRank, places),
    nullDates: byDate.nulls,
  };
}
