import { describe, expect, it } from 'vitest';
import { clientOrderFragments, dateFieldOrder, nameFieldOrder } from '../../src/bundle/field-orders.ts';
import { decodeOrderFragment, encodeOrderFragments, type OrderField, type OrderFragment } from '../../src/bundle/order-fragments.ts';
import { compareCodePoints } from '../../src/bundle/registrant-columns.ts';
import { orderRecords, type OrderSource, type TermKeys } from '../support/reference-order.ts';
import { orderAll, orderSelected, type OrderFragments } from '../../src/answer/fragment-order.ts';
import { orderPlan, walkGroup } from '../../src/answer/order-groups.ts';
import { pageFromPlaces, selectedPlaces } from '../../src/answer/placed-selection.ts';
import { listedSelection } from '../../src/answer/selection.ts';
import type { SortTerm } from '../../src/answer/ordering-terms.ts';

/**
 * The order fragments against the answerer's reference order (client-order.ts's orderRecords, fed
 * from the same clients by plain sorting): every ordering of one or two terms and id, every client or
 * a selection, pages anywhere. Fragments of 16 places make groups run over several of them.
 */
const PLACES = 16;

interface Clients {
  names: string[];
  /** YYYYMMDD, -1 for none. */
  dates: Int32Array;
}

/** A seeded generator (mulberry32), so a failure repeats. */
function randomOf(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Names with ties (one name shared by 40 clients), empty names, and names whose UTF-16 order is not their code points'. */
function clientsOf(total: number, seed: number, nullShare = 0.15): Clients {
  const random = randomOf(seed);
  const pool = ['', 'ACME', 'acme', 'Ａ', '😀', 'ZETA', 'ÉCOLE', 'B', 'ACME INC', 'ab', 'A'];
  const names = Array.from({ length: total }, (_, i) => (i % 11 === 3 ? 'COMMON' : random() < 0.4 ? pool[Math.floor(random() * pool.length)]! : `N${Math.floor(random() * total)}`));
  const dates = Int32Array.from({ length: total }, () => (random() < nullShare ? -1 : 20_000_101 + Math.floor(random() * 12) * 100 + Math.floor(random() * 5)));
  return { names, dates };
}

/** What the answerer sorts by today, computed by plain sorting of the same clients. */
function referenceSource({ names, dates }: Clients): OrderSource {
  const total = names.length;
  const compare = (field: SortTerm['field'], a: number, b: number): number => {
    if (field === 'name') return compareCodePoints(names[a]!, names[b]!);
    if (field === 'date') return dates[a]! - dates[b]!;
    return a - b;
  };
  const rankOf = (field: 'name' | 'date'): { rank: number[]; count: number } => {
    if (field === 'name') {
      const values = [...new Set(names)].sort(compareCodePoints);
      return { rank: names.map((name) => values.indexOf(name)), count: values.length };
    }
    // Dates: 0 is null's whether or not a client has none.
    const values = [...new Set([-1, ...dates])].sort((a, b) => a - b);
    return { rank: Array.from(dates, (date) => values.indexOf(date)), count: values.length };
  };
  return {
    total,
    async fullOrder({ field, descending }) {
      const order = Array.from({ length: total }, (_, i) => i).sort((a, b) => {
        const difference = compare(field, a, b);
        // Null dates first in either direction.
        if (field === 'date' && difference !== 0 && (dates[a] === -1 || dates[b] === -1)) return dates[a] === -1 ? -1 : 1;
        return (descending ? -difference : difference) || (descending ? b - a : a - b);
      });
      return (place) => order[place]!;
    },
    async sortKeys({ field, descending }): Promise<TermKeys> {
      const { rank, count } = rankOf(field as 'name' | 'date');
      const key = Uint32Array.from(rank, (r) => (!descending ? r : field === 'name' ? count - 1 - r : r === 0 ? 0 : count - r));
      return { key, buckets: count };
    },
  };
}

/**
 * The fragments of the clients, decoded as the answerer reads them, with the reads counted; `held`:
 * as an instance holding every fragment sees them, with each client's place at hand (heldPlaces).
 */
function fragmentsOf({ names, dates }: Clients, places = PLACES, held = false): OrderFragments & { reads: string[] } {
  const total = names.length;
  const byName = Array.from({ length: total }, (_, i) => i).sort((a, b) => compareCodePoints(names[a]!, names[b]!) || a - b);
  const ties = Uint8Array.from(byName, (client, place) => (place > 0 && names[client] === names[byName[place - 1]!] ? 1 : 0));
  const built = clientOrderFragments(nameFieldOrder(Uint32Array.from(byName), ties), dates, places);
  const decoded = { name: built.name.map((bytes, k) => decodeOrderFragment(bytes, `name-${k}`)), date: built.date.map((bytes, k) => decodeOrderFragment(bytes, `date-${k}`)) };
  const reads: string[] = [];
  return {
    total,
    places,
    nullDates: built.nullDates,
    reads,
    async fragment(field: OrderField, k: number): Promise<OrderFragment> {
      const fragment = decoded[field][k];
      if (fragment === undefined) throw new Error(`no fragment ${field} ${k}`);
      reads.push(`${field}-${k}`);
      return fragment;
    },
    ...(held && {
      heldPlaces(field: OrderField) {
        const placeOf = new Int32Array(total);
        for (const { first, clients } of decoded[field]) clients.forEach((client, j) => (placeOf[client] = first + j));
        return placeOf;
      },
    }),
  };
}

const term = (text: string): SortTerm => ({ field: text.replace('-', '') as SortTerm['field'], descending: text.startsWith('-') });

/** Every ordering the terms allow: [id], [-id], and T1 (then T2) in each direction with id in each. */
const ORDERINGS: SortTerm[][] = [['id'], ['-id']].map((terms) => terms.map(term));
for (const [t1, t2] of [['name'], ['date'], ['name', 'date'], ['date', 'name']] as const) {
  for (const d1 of ['', '-']) {
    for (const d2 of t2 === undefined ? [undefined] : ['', '-']) {
      for (const id of ['id', '-id']) ORDERINGS.push([`${d1}${t1}`, ...(t2 === undefined ? [] : [`${d2}${t2}`]), id].map(term));
    }
  }
}
const named = (terms: readonly SortTerm[]) => terms.map(({ field, descending }) => `${descending ? '-' : ''}${field}`).join(',');

async function referenceOrder(clients: Clients, selected: Int32Array | undefined, terms: readonly SortTerm[]): Promise<number[]> {
  const order = await orderRecords(referenceSource(clients), selected === undefined ? undefined : selected.slice(), terms);
  return order.slice(0, order.count);
}

/** Pages of `size` from the first to the last, each asked alone. */
async function pagesOf(order: { slice(from: number, to: number): Promise<number[]> }, count: number, size: number): Promise<number[]> {
  const all: number[] = [];
  for (let from = 0; from < count; from += size) all.push(...(await order.slice(from, from + size)));
  return all;
}

describe('order fragments', () => {
  it('read back as written: clients, group starts, other ranks, each group by other rank, the first place and whether the last group runs on', () => {
    const order = Uint32Array.of(2, 0, 1, 3, 4);
    const starts = Uint8Array.of(1, 0, 1, 0, 0);
    // Other ranks by client number: the group [1, 3, 4] is 70,000, 3, 3 by rank: 3 (place 1), 4 (place 2), then 1 (place 0).
    const files = encodeOrderFragments(order, starts, Uint32Array.of(5, 70_000, 0, 3, 3), 2);
    const read = files.map((bytes, k) => decodeOrderFragment(bytes, `f${k}`));
    expect(read.map((f) => [f.first, [...f.clients], [...f.starts], [...f.others], [...f.ranked], f.runsOn])).toEqual([
      [0, [2, 0], [1, 0], [0, 5], [0, 1], false],
      [2, [1, 3], [1, 0], [70_000, 3], [1, 2], true],
      [4, [4], [0], [3], [0], false],
    ]);
    expect(read[0]!.others).toBeInstanceOf(Uint32Array);
    expect(decodeOrderFragment(encodeOrderFragments(order, starts, Uint32Array.of(1, 2, 3, 4, 5))[0]!, 'small').others).toBeInstanceOf(Uint16Array);
    expect(() => encodeOrderFragments(order, starts.subarray(1), Uint32Array.of(1, 2, 3, 4, 5))).toThrow(/as many group starts \(4\)/);
    expect(() => decodeOrderFragment(new Uint8Array(2), 'order/date-3')).toThrow(/order\/date-3: not a file of the query bundle/);
  });

  it('the date order puts null dates first, ties by client number, and counts them', () => {
    const { order, groupStarts, nulls } = dateFieldOrder(Int32Array.of(20200102, -1, 20200101, -1, 20200102));
    expect([[...order], [...groupStarts], nulls]).toEqual([[1, 3, 2, 0, 4], [1, 0, 1, 1, 0], 2]);
    expect(() => dateFieldOrder(Int32Array.of(-5))).toThrow(/client 0: date -5 is not YYYYMMDD or -1/);
  });
});

describe('a group in its order by the other field and id', () => {
  it('equals a plain sort, whole or in part, in every direction', () => {
    const random = randomOf(11);
    for (const [size, values] of [[1, 3], [5, 3], [40, 2], [300, 70_000], [300, 20]] as const) {
      // Entries 2 to size + 2 of a run, ascending client numbers, ranked by the other field as the build does.
      const clients = Uint32Array.from({ length: size + 4 }, (_, i) => 3 * i + 1);
      const others = Uint32Array.from({ length: size + 4 }, () => Math.floor(random() * values));
      const byRank = Array.from({ length: size }, (_, i) => i).sort((a, b) => others[2 + a]! - others[2 + b]! || a - b);
      const ranked = Uint32Array.from({ length: size + 4 }, (_, i) => (i >= 2 && i < size + 2 ? byRank[i - 2]! : 0));
      for (const field of ['name', 'date', undefined] as const) {
        for (const descending of [false, true]) {
          for (const idDescending of [false, true]) {
            const key = (i: number) => (field === undefined ? 0 : !descending ? others[i]! : field === 'name' ? -others[i]! : others[i] === 0 ? -Infinity : -others[i]!);
            const expected = Array.from({ length: size }, (_, i) => i + 2)
              .sort((a, b) => key(a) - key(b) || (idDescending ? b - a : a - b))
              .map((i) => clients[i]!);
            const plan = { first: { field: 'name', descending: false }, ...(field && { second: { field, descending } }), idDescending } as const;
            // The clients visited from `from` to `to`, stopping after `most`, and the position it stopped at.
            const walked = (from: number, to: number, most: number = size) => {
              const visited: number[] = [];
              const stopped = walkGroup({ clients, others, ranked }, 2, size + 2, plan, from, to, (client) => visited.push(client) < most);
              return [stopped, visited];
            };
            const third = Math.floor(size / 3);
            expect([size, field, descending, idDescending, walked(0, size), walked(third, size - third), walked(third, size, 2)]).toEqual([
              size,
              field,
              descending,
              idDescending,
              [size, expected],
              [size - third, expected.slice(third, size - third)],
              [Math.min(size, third + 2), expected.slice(third, third + 2)],
            ]);
          }
        }
      }
    }
  });
});

describe('pages from the order fragments equal the reference order', () => {
  const clients = clientsOf(403, 7);
  const source = fragmentsOf(clients);
  // The same order where the instance holds it whole: pages found from the selection's places.
  const heldSource = fragmentsOf(clients, PLACES, true);
  /** None, one, a few, one in six, half, all. */
  const selectionsFor = (terms: readonly SortTerm[]): number[][] => {
    const random = randomOf(terms.length * 31 + Number(terms[0]!.descending));
    const everyone = Array.from({ length: clients.names.length }, (_, i) => i);
    return [[], [200], [5, 77, 78, 300, 402], everyone.filter((i) => i % 6 === 1), everyone.filter(() => random() < 0.5), everyone];
  };

  it('the data makes groups run over several fragments (null dates, a shared name)', () => {
    expect(source.nullDates).toBeGreaterThan(3 * PLACES);
    expect(clients.names.filter((name) => name === 'COMMON').length).toBeGreaterThan(2 * PLACES);
    expect(clients.names).toContain('');
  });

  for (const terms of ORDERINGS) {
    it(`every client, ${named(terms)}: whole, in pages of 7 and 25, and the last page`, async () => {
      const expected = await referenceOrder(clients, undefined, terms);
      const order = orderAll(source, terms);
      expect(order.count).toBe(expected.length);
      expect(await order.slice(0, order.count)).toEqual(expected);
      expect(await pagesOf(order, order.count, 7)).toEqual(expected);
      expect(await pagesOf(order, order.count, 25)).toEqual(expected);
      expect(await order.slice(390, 415)).toEqual(expected.slice(390));
      expect(await order.slice(403, 428)).toEqual([]);
    });

    it(`selections, ${named(terms)}: none, one, a few, one in six, half, all; pages in turn and out of turn; scanned and from held places`, async () => {
      for (const [source, chosen] of [heldSource, fragmentsOf(clients)].flatMap((from) => selectionsFor(terms).map((chosen) => [from, chosen] as const))) {
        const selected = Int32Array.from(chosen);
        const expected = await referenceOrder(clients, selected, terms);
        const inTurn = orderSelected(source, selected, terms);
        expect(inTurn.count).toBe(chosen.length);
        expect(await pagesOf(inTurn, inTurn.count, 25)).toEqual(expected);
        // A page far on first, then the first ones (read from what the first scan kept), then the rest at once.
        const outOfTurn = orderSelected(source, selected, terms);
        expect(await outOfTurn.slice(50, 75)).toEqual(expected.slice(50, 75));
        expect(await outOfTurn.slice(0, 25)).toEqual(expected.slice(0, 25));
        expect(await outOfTurn.slice(0, chosen.length + 5)).toEqual(expected);
        // Pages asked at once by two requests sharing the cached order.
        const atOnce = orderSelected(source, selected, terms);
        const [second, first] = await Promise.all([atOnce.slice(25, 50), atOnce.slice(0, 25)]);
        expect([...first, ...second]).toEqual(expected.slice(0, 50));
      }
    });
  }

  for (const terms of ORDERINGS.filter((terms) => terms.length > 1)) {
    it(`pages found from the selection's places, ${named(terms)}: each page of 7 and 25 of every selection, and one past the last`, async () => {
      const plan = orderPlan(terms);
      for (const chosen of selectionsFor(terms)) {
        const selected = listedSelection(Int32Array.from(chosen), clients.names.length);
        const places = selectedPlaces(heldSource, plan.first!.field, selected)!;
        expect(places.length).toBe(chosen.length);
        const expected = await referenceOrder(clients, Int32Array.from(chosen), terms);
        for (const size of [7, 25]) expect(await pagesOf({ slice: (from, to) => pageFromPlaces(heldSource, plan, selected, places, from, Math.min(to, chosen.length)) }, chosen.length, size)).toEqual(expected);
        expect(await pageFromPlaces(heldSource, plan, selected, places, chosen.length, chosen.length + 25)).toEqual([]);
      }
    });
  }

  it('a date order with no null date, and all dates null', async () => {
    for (const nullShare of [0, 1]) {
      const few = clientsOf(97, 3, nullShare);
      const fewSource = fragmentsOf(few, 8);
      for (const terms of ORDERINGS) {
        expect([named(terms), await orderAll(fewSource, terms).slice(0, 97)]).toEqual([named(terms), await referenceOrder(few, undefined, terms)]);
        const selected = Int32Array.from({ length: 30 }, (_, i) => i * 3);
        expect([named(terms), await pagesOf(orderSelected(fewSource, selected, terms), 30, 4)]).toEqual([named(terms), await referenceOrder(few, selected, terms)]);
      }
    }
  });
});

describe('what a page reads', () => {
  // Unique names and dates: every group is one client.
  const total = 100;
  const clients: Clients = { names: Array.from({ length: total }, (_, i) => `N${String((i * 37) % total).padStart(3, '0')}`), dates: Int32Array.from({ length: total }, (_, i) => 20_000_101 + ((i * 53) % total)) };

  it('a page within a fragment reads it alone; across a boundary, the two; [id] nothing', async () => {
    const source = fragmentsOf(clients);
    await orderAll(source, [term('-name'), term('-id')]).slice(20, 25);
    expect(source.reads).toEqual(['name-4']);
    source.reads.length = 0;
    await orderAll(source, [term('date'), term('-name'), term('id')]).slice(30, 40);
    expect(source.reads.sort()).toEqual(['date-1', 'date-2']);
    source.reads.length = 0;
    const order = orderSelected(source, Int32Array.of(1, 2, 3), [term('-id')]);
    expect([order.count, await order.slice(0, 2), source.reads]).toEqual([3, [3, 2], []]);
  });

  it('a group reads on into the fragments it spans, and a selection scan stops at its page', async () => {
    const shared: Clients = { names: clients.names.map((name, i) => (i % 2 === 0 ? 'SAME' : name)), dates: clients.dates };
    const source = fragmentsOf(shared);
    // SAME is the last name: its 50 clients hold places 50 to 99, fragments 3 to 6.
    await orderAll(source, [term('name'), term('date'), term('id')]).slice(60, 61);
    expect(source.reads.sort()).toEqual(['name-3', 'name-4', 'name-5', 'name-6']);
    source.reads.length = 0;
    const selected = orderSelected(source, Int32Array.from({ length: 50 }, (_, i) => 2 * i + 1), [term('name'), term('id')]);
    expect(await selected.slice(0, 5)).toEqual(await referenceOrder(shared, Int32Array.from({ length: 50 }, (_, i) => 2 * i + 1), [term('name'), term('id')]).then((all) => all.slice(0, 5)));
    expect(source.reads).toEqual(['name-0']);
  });

  it('a scan that meets few of its selection stops where the order is held, and the places find the page', async () => {
    // The last 100 clients in name order, as a search's matches sit together (UNIVERSITY near the end):
    // too many for the places to be found at once (25 x 100 <= 2 x 100 x 100), met only past place 300.
    const many: Clients = { names: Array.from({ length: 400 }, (_, i) => `N${String((i * 37) % 400).padStart(3, '0')}`), dates: new Int32Array(400).fill(-1) };
    const chosen = Int32Array.from({ length: 400 }, (_, i) => i).filter((i) => (i * 37) % 400 >= 300);
    const expected = await referenceOrder(many, chosen, [term('name'), term('id')]);
    const scanned = fragmentsOf(many);
    const held = fragmentsOf(many, PLACES, true);
    for (const source of [scanned, held]) expect(await orderSelected(source, chosen, [term('name'), term('id')]).slice(25, 50)).toEqual(expected.slice(25, 50));
    // The scan reads every fragment up to the page; where held it stops after twice the selection's
    // places (13 fragments of 16), and reads only the page's own fragments after.
    expect(scanned.reads.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, k) => `name-${k}`));
    expect(held.reads.slice(0, 13)).toEqual(Array.from({ length: 13 }, (_, k) => `name-${k}`));
    expect(held.reads.slice(13).every((read) => Number(read.slice(5)) >= 18)).toBe(true);
  });

  it('terms the fragments do not serve are refused', () => {
    const source = fragmentsOf(clients);
    expect(() => orderAll(source, [term('name'), term('name'), term('id')])).toThrow(/no field twice, not \[name, name, id\]/);
    expect(() => orderAll(source, [term('name')])).toThrow(/Expected terms/);
    expect(() => orderSelected(source, Int32Array.of(3, 100), [term('name'), term('id')])).toThrow(/Expected client numbers from 0 to 99, not 3 to 100/);
  });
});
