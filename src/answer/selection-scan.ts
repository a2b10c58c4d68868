import { orderLegs, readingThrough, type OrderFragments, type PagedOrder } from './paged-order.ts';
import { walkGroup, type GroupEntries, type OrderPlan } from './order-groups.ts';
import { groupsAround } from './order-runs.ts';
import type { Selection } from './selection.ts';
import { pageFromPlaces, selectedPlaces } from './placed-selection.ts';

/**
 * Some of the clients in the order of T1 (then T2, then id): T1's groups of equal values read one
 * after another in the order's direction, the selected members of each kept in the group's order,
 * until the page asked for is reached. The progress is kept, so the next page (the object is cached
 * between the pages of one search) goes on from there; a page before it reads nothing.
 *
 * Descending, the null dates come first (places 0 to nullDates - 1, read forwards), then the others
 * from the last place back: the scan is one or two legs of places, each a run of whole groups.
 */
export function scanSelection(source: OrderFragments, selected: Selection, plan: OrderPlan): PagedOrder {
  const { total, places } = source;
  const { field } = plan.first!;
  const legs = orderLegs(source, plan.first!);
  let produced = new Int32Array(Math.min(selected.count, 64));
  let count = 0;
  let leg = 0;
  // The next place to read: forwards, the place itself; backwards, the place after it. Always a group's edge.
  let place = legs[0]!.backwards ? legs[0]!.high : legs[0]!.low;
  let queue: Promise<unknown> = Promise.resolve();
  // The selected clients' places, once found (placed-selection.ts): every page is then found from them.
  let placed: Int32Array | undefined;

  // The group a page ended in, and how many of its positions were walked: the next page goes on inside it.
  let partial: { start: number; walked: number } | undefined;
  let target = 0;

  const keep = (client: number): boolean => {
    if (!selected.has(client)) return true;
    if (count === produced.length) {
      const grown = new Int32Array(Math.min(selected.count, 2 * produced.length));
      grown.set(produced);
      produced = grown;
    }
    produced[count++] = client;
    return count < target;
  };
  /** Walks the group of entries [start, end) (its first place `first`) from position `walked`; false where the page ends inside it. */
  const walk = (entries: GroupEntries, start: number, end: number, first: number, walked: number): boolean => {
    const size = end - start;
    const stopped = size === 1 ? (keep(entries.clients[start]!), 1) : walkGroup(entries, start, end, plan, walked, size, keep);
    partial = stopped < size ? { start: first, walked: stopped } : undefined;
    return partial === undefined;
  };
  /** The group holding place `at`, read whole: it runs over a fragment's edge, or a page ended inside it. */
  const walkWhole = async (reader: OrderFragments, at: number, walked: number, backwards: boolean): Promise<boolean> => {
    const run = await groupsAround(reader, field, at, at + 1);
    const done = walk(run, run.start - run.first, run.end - run.first, run.start, walked);
    if (done) place = backwards ? run.start : run.end;
    return done;
  };

  // Reads on until `to` clients are placed or every leg is read; stops where the page ends, inside a group maybe.
  const advance = async (to: number, reader: OrderFragments): Promise<void> => {
    // A page asked at the same time found the places while this one waited.
    if (placed !== undefined) return;
    target = to;
    if (count < to && partial !== undefined && !(await walkWhole(reader, partial.start, partial.walked, legs[leg]!.backwards))) return;
    let asked = 0;
    let triedPlaces = false;
    while (count < to && leg < legs.length) {
      const { low, high, backwards } = legs[leg]!;
      if (backwards ? place <= low : place >= high) {
        if (++leg < legs.length) place = legs[leg]!.backwards ? legs[leg]!.high : legs[leg]!.low;
        continue;
      }
      // A scan that has asked about twice as many places as are selected stops here, where the order's
      // places are held: the selection's own places find the page (a search's matches sit together in
      // name order, UNIVERSITY near the end, so how far a page lies cannot be told before). Asked once
      // a scan: the fragments it reads after are ones the order lacked, so it stays not held whole.
      if (!triedPlaces && asked > 2 * selected.count) {
        triedPlaces = true;
        placed = selectedPlaces(reader, field, selected);
        if (placed !== undefined) return;
      }
      const fragment = await reader.fragment(field, Math.floor((backwards ? place - 1 : place) / places));
      asked += fragment.clients.length;
      const { first, starts, clients } = fragment;
      const length = clients.length;
      // Between selected clients the groups are passed over unwalked: a small selection costs a loop over the places.
      if (!backwards) {
        const stop = Math.min(length, high - first);
        for (let s = place - first; count < to; ) {
          let m = s;
          while (m < stop && !selected.has(clients[m]!)) m++;
          let g = Math.min(m, length - 1);
          while (g > s && starts[g] !== 1) g--;
          let e = m + 1;
          while (e < length && starts[e] !== 1) e++;
          place = first + g;
          // None left here: the last group may go on into the next fragment, with selected clients there.
          if (m === stop && !(stop === length && fragment.runsOn)) {
            place = first + stop;
            break;
          }
          // A group going on in the next fragment(s) is read whole.
          if (e >= length && fragment.runsOn) {
            await walkWhole(reader, first + g, 0, false);
            break;
          }
          if (!walk(fragment, g, e, first + g, 0)) return;
          place = first + (s = e);
        }
      } else {
        const stop = Math.max(0, low - first);
        for (let e = place - first; count < to; ) {
          let m = e - 1;
          while (m >= stop && !selected.has(clients[m]!)) m--;
          let g = Math.max(m, 0);
          while (g > 0 && starts[g] !== 1) g--;
          let end = Math.max(m, 0) + 1;
          while (end < e && starts[end] !== 1) end++;
          place = first + end;
          // None left here: the first group may have begun in an earlier fragment, with selected clients there.
          if (m < stop && !(stop === 0 && starts[0] !== 1)) {
            place = first + stop;
            break;
          }
          // A group that began in an earlier fragment is read whole.
          if (starts[g] !== 1) {
            await walkWhole(reader, first + end - 1, 0, true);
            break;
          }
          if (!walk(fragment, g, end, first + g, 0)) return;
          place = first + (e = g);
        }
      }
    }
    if (leg === legs.length && count !== selected.count) throw new Error(`the order fragments hold ${count} of the ${selected.count} selected clients`);
  };

  return {
    count: selected.count,
    get bytes() {
      return selected.bytes + produced.byteLength + (placed?.byteLength ?? 0);
    },
    async slice(from, to, read) {
      const end = Math.min(to, selected.count);
      const reader = readingThrough(source, read);
      // Finding the places is worth it where the scan would ask about more places than are selected
      // (a page found costs about a sort of the selection; a place scanned, a question).
      if (placed === undefined && end > count && (end - count) * total > 2 * selected.count * selected.count) placed = selectedPlaces(reader, field, selected);
      if (placed === undefined) {
        // One scan at a time: two pages asked at once would otherwise read the same groups twice.
        const done = (queue = queue.catch(() => undefined).then(() => advance(end, reader)));
        await done;
      }
      if (end <= count || placed === undefined) return Array.from(produced.subarray(Math.max(0, from), Math.min(end, count)));
      return pageFromPlaces(reader, plan, selected, placed, Math.max(0, from), end);
    },
  };
}
