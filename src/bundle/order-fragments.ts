import { decodeSections, encodeSections } from './sections.ts';

/**
 * One field's order of every client (contract section 9), cut into fragments of ORDER_PLACES places,
 * so that a page in that order reads the one or two fragments around it (as Pagefind reads only the
 * index fragments a query needs) instead of the whole order.
 *
 * Clients are numbered by id order (the client number). A field's order is ascending by the field,
 * equal values (a "group") by client number ascending; dates with null first. Each place holds:
 * - `clients`: the client number;
 * - `starts`: 1 where the value differs from the place before (a group starts);
 * - `others`: the client's rank for the other field (names: 0-based among distinct names; dates: 0
 *   for null, then 1-based among distinct dates);
 * - `ranked`: the group's own order by the other field: at the group's i-th place, the place (counted
 *   from the group's start) of its i-th client by other rank, then client number. So a page of
 *   [T1, T2, id] reads T2's order of the groups it meets, in any direction, and sorts nothing: a cold
 *   isolate pays for every loop it runs (sorting the 4,065 null dates by name took 3 to 5 ms of CPU
 *   the first time).
 *
 * The header says the fragment's first place, and whether its last group runs on into the next
 * fragment (so that a page ending at a fragment's end knows without reading the next one).
 */
export const ORDER_PLACES = 8192;

export type OrderField = 'name' | 'date';

export interface OrderFragment {
  /** The place (in the field's ascending order) of the fragment's first entry. */
  readonly first: number;
  readonly clients: Uint32Array;
  readonly starts: Uint8Array;
  readonly others: Uint16Array | Uint32Array;
  readonly ranked: Uint16Array | Uint32Array;
  /** Whether the fragment's last group goes on in the next fragment. */
  readonly runsOn: boolean;
}

/** The fragments of one field's order: `order` client numbers by place, `groupStarts` by place, `otherRank` by client number. */
export function encodeOrderFragments(order: Uint32Array, groupStarts: Uint8Array, otherRank: Uint32Array, places = ORDER_PLACES): Uint8Array[] {
  if (groupStarts.length !== order.length || otherRank.length !== order.length) {
    throw new Error(`an order of ${order.length} clients needs as many group starts (${groupStarts.length}) and other ranks (${otherRank.length})`);
  }
  if (!Number.isInteger(places) || places < 1) throw new TypeError(`Expected \`places\` to be a whole number from 1 and up, not ${places}`);
  let largest = 0;
  for (const rank of otherRank) if (rank > largest) largest = rank;
  // Ranks are stored in two bytes where they fit (the 42,565 names of 134,719 clients do).
  const Others = largest < 0x10000 ? Uint16Array : Uint32Array;
  const ranked = rankedInGroups(order, groupStarts, otherRank);
  const fragments: Uint8Array[] = [];
  for (let first = 0; first < order.length; first += places) {
    const end = Math.min(first + places, order.length);
    const clients = order.slice(first, end);
    const starts = groupStarts.slice(first, end);
    // The first place of the order starts a group, whatever was passed: the answerer scans back to one.
    if (first === 0) starts[0] = 1;
    const others = new Others(clients.length);
    for (let i = 0; i < clients.length; i++) others[i] = otherRank[clients[i]!]!;
    const runsOn = end < order.length && groupStarts[end] !== 1;
    fragments.push(encodeSections({ first, runsOn }, { clients, starts, others, ranked: ranked.slice(first, end) }));
  }
  return fragments;
}

/** Each group's places (from its start) by other rank, then client number: two bytes each unless a group holds more than 65,536 clients. */
function rankedInGroups(order: Uint32Array, groupStarts: Uint8Array, otherRank: Uint32Array): Uint16Array | Uint32Array {
  const total = order.length;
  let largest = 0;
  const groups: number[] = [];
  for (let place = 0; place <= total; place++) {
    if (place === total || place === 0 || groupStarts[place] === 1) {
      if (groups.length > 0) largest = Math.max(largest, place - groups.at(-1)!);
      groups.push(place);
    }
  }
  const ranked = largest <= 0x10000 ? new Uint16Array(total) : new Uint32Array(total);
  for (let g = 0; g + 1 < groups.length; g++) {
    const start = groups[g]!;
    const size = groups[g + 1]! - start;
    // Other rank, then place in the group (which is client number order): one exact number each.
    const keys = Float64Array.from({ length: size }, (_, i) => otherRank[order[start + i]!]! * size + i);
    keys.sort();
    for (let i = 0; i < size; i++) ranked[start + i] = keys[i]! % size;
  }
  return ranked;
}

export function decodeOrderFragment(bytes: Uint8Array, file: string): OrderFragment {
  const sections = decodeSections(bytes, file);
  const { first, runsOn } = sections.fields;
  if (!Number.isInteger(first) || typeof runsOn !== 'boolean') {
    throw new Error(`${file}: not an order fragment (its header lacks first or runsOn)`);
  }
  const clients = sections.section('clients', Uint32Array);
  const starts = sections.section('starts', Uint8Array);
  const others = sections.type('others') === 'u16' ? sections.section('others', Uint16Array) : sections.section('others', Uint32Array);
  const ranked = sections.type('ranked') === 'u16' ? sections.section('ranked', Uint16Array) : sections.section('ranked', Uint32Array);
  if (clients.length === 0 || [starts, others, ranked].some((section) => section.length !== clients.length)) {
    throw new Error(`${file}: ${clients.length} clients, ${starts.length} group starts, ${others.length} other ranks and ${ranked.length} ranked places`);
  }
  return { first: first as number, clients, starts, others, ranked, runsOn };
}
