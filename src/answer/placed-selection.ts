import type { OrderField } from '../bundle/order-fragments.ts';
import { upperBound } from '../bundle/sorted-arrays.ts';
import { walkGroup, type OrderPlan } from './order-groups.ts';
import { groupsAround } from './order-runs.ts';
import { orderLegs, type OrderFragments } from './paged-order.ts';
import type { Selection } from './selection.ts';

/**
 * Where an instance holds an order's places (every fragment of it kept: the steady state), a page of a
 * selection is found from its clients' places instead of by a scan from the first place: the places
 * sorted say which group of equal T1 values holds the page's first client and how many of the
 * selection come before that group, so a page anywhere walks only its own groups. A search's last
 * page cost a scan of every place (134,719 at the registry's size); it costs a sort of the
 * selection's places now, done once for every page of that order.
 */

/**
 * The selected clients' places in the field's ascending order, sorted; undefined when the instance
 * does not hold the order's places. Places are distinct numbers below the client count, so they are
 * sorted by marking them in a bitmap of every place and reading it back: a pass over the selection and
 * one over the bitmap (17 KB at the registry's size), where sorting 38,000 matches took 2 ms.
 */
export function selectedPlaces(source: OrderFragments, field: OrderField, selected: Selection): Int32Array | undefined {
  const placeOf = source.heldPlaces?.(field);
  if (placeOf === undefined) return undefined;
  const marked = markingRoom(source.total);
  try {
    selected.each((client) => {
      const place = placeOf[client]!;
      marked[place >>> 5]! |= 1 << (place & 31);
    });
  } catch (error) {
    // Never left marked for the next search.
    marked.fill(0);
    throw error;
  }
  const places = new Int32Array(selected.count);
  let i = 0;
  for (let w = 0; w < marked.length; w++) {
    const bits = marked[w]!;
    if (bits === 0) continue;
    // Read back and cleared: the bitmap is left empty for the next search.
    marked[w] = 0;
    for (let word = bits; word !== 0; word &= word - 1) places[i++] = 32 * w + 31 - Math.clz32(word & -word);
  }
  return places;
}

/**
 * One bitmap for every search's marking, empty between them (the marking and its reading back run
 * with no await between): a bitmap a search was 17 KB of memory outside V8's heap left to the
 * collector each time, which a Worker counts against its 128 MB until it is collected.
 */
let marking = new Uint32Array(0);

function markingRoom(places: number): Uint32Array {
  const words = (places + 31) >>> 5;
  if (marking.length < words) marking = new Uint32Array(words);
  return marking.subarray(0, words);
}

/** The clients at [from, to) of the selection's order (T1 of `plan` first), `places` its clients' places (selectedPlaces). */
export async function pageFromPlaces(source: OrderFragments, plan: OrderPlan, selected: Selection, places: Int32Array, from: number, to: number): Promise<number[]> {
  const { field } = plan.first!;
  const page: number[] = [];
  // The page's first client is the `skip`-th of the first leg that holds that many.
  let skip = from;
  for (const { low, high, backwards } of orderLegs(source, plan.first!)) {
    if (page.length >= to - from) break;
    // The selected places of this leg: places[a, b).
    const a = upperBound(places, low - 1);
    const b = upperBound(places, high - 1);
    if (skip >= b - a) {
      skip -= b - a;
      continue;
    }
    // A group's selected places are consecutive in `places`: the one at `skip` names the group the page starts in.
    let k = backwards ? b - 1 - skip : a + skip;
    while (page.length < to - from && (backwards ? k >= a : k < b)) {
      const run = await groupsAround(source, field, places[k]!, places[k]! + 1);
      const lo = upperBound(places, run.start - 1);
      const hi = upperBound(places, run.end - 1);
      // Of the group's selected clients, those before the page are passed over.
      let passed = skip - (backwards ? b - hi : lo - a);
      walkGroup(run, run.start - run.first, run.end - run.first, plan, 0, run.end - run.start, (client) => {
        if (!selected.has(client)) return true;
        if (passed > 0) passed--;
        else page.push(client);
        return page.length < to - from;
      });
      skip = backwards ? b - lo : hi - a;
      k = backwards ? lo - 1 : hi;
    }
    skip = 0;
  }
  return page;
}
