import { describe, expect, it } from 'vitest';
import { orderingTerms } from '../../src/answer/ordering-terms.ts';
import { REGISTRANTS } from '../../src/answer/list-resource.ts';
import { orderRegistrants } from '../../src/answer/registrant-list.ts';
import { placesByRanks } from '../../src/answer/registrant-order.ts';
import { BUNDLE_FORMAT, encodeManifest, registrantKeyStem, type BundleManifest } from '../../src/bundle/bundle-manifest.ts';
import { bundleFile, hashOf, nameInBundle } from '../../src/bundle/content-names.ts';
import { QueryBundle } from '../../src/bundle/query-bundle.ts';
import {
  REGISTRANT_COLUMNS,
  codeColumn,
  compareCodePoints,
  encodeRegistrantColumn,
  placeOrder,
  ranksOf,
  registrantColumnStem,
  type RegistrantColumnTypes,
} from '../../src/bundle/registrant-columns.ts';
import { encodeRegistrantKeys } from '../../src/bundle/registrant-keys.ts';
import { searchText } from '../../src/bundle/search-text.ts';

/**
 * The registrants' orders read off the precomputed ones (answer/registrant-order.ts), against a sort
 * of every registrant by the terms: over columns where names and instants tie often (a few names and
 * instants among 300 registrants, some with no dt_updated), for every ordering of one and two terms
 * in both directions, with and without filters, whole and page by page (pages cut through runs of ties).
 */
const TOTAL = 300;
const NAMES = ['Beta LLC', 'acme', 'Acme', 'ÉCOLE', 'Zeta 𝔸', 'Beta LLC ', 'delta'];
const STATES = ['DC', 'VA', 'NY'];
const registrants = Array.from({ length: TOTAL }, (_, place) => ({
  id: 1000 + place * 7,
  name: NAMES[(place * 5) % NAMES.length]!,
  state: STATES[place % STATES.length]!,
  // Eleven instants, and none for one in thirteen.
  updated: place % 13 === 0 ? Number.NaN : 1_600_000_000_000_000 + ((place * 3) % 11) * 1_000_000,
}));

function columns(): RegistrantColumnTypes {
  const updated = Float64Array.from(registrants, (registrant) => registrant.updated);
  const instant = (place: number) => (Number.isNaN(updated[place]!) ? -Infinity : updated[place]!);
  const nameOrder = placeOrder(TOTAL, (a, b) => compareCodePoints(registrants[a]!.name, registrants[b]!.name));
  const updatedOrder = placeOrder(TOTAL, (a, b) => instant(a) - instant(b) || 0);
  return {
    ids: Float64Array.from(registrants, (registrant) => registrant.id),
    filters: {
      state: codeColumn(registrants.map((registrant) => registrant.state), STATES),
      country: codeColumn(registrants.map(() => null), []),
      ppbCountry: codeColumn(registrants.map(() => null), []),
      updated,
    },
    nameOrder,
    updatedOrder,
    ranks: { name: ranksOf(nameOrder), updated: ranksOf(updatedOrder) },
  };
}

async function openBundle(): Promise<QueryBundle> {
  const files = new Map<string, Uint8Array>();
  const values = columns();
  const registrantColumns = {} as Record<(typeof REGISTRANT_COLUMNS)[number], string>;
  for (const column of REGISTRANT_COLUMNS) {
    // Named without a hash: the bundle checks a file's bytes only against a hash its name holds.
    registrantColumns[column] = `${registrantColumnStem(column)}.bin`;
    files.set(registrantColumns[column], encodeRegistrantColumn(column, values[column]));
  }
  // The names' key index in three fragments, so that a search reads more than one.
  const keys = encodeRegistrantKeys(
    registrants.map((registrant) => searchText(registrant.name)),
    3,
  );
  const registrantKeys = { firstKeys: [] as string[], hashes: [] as string[], maxNameBytes: keys.maxNameBytes, words: keys.words };
  for (const [k, fragment] of keys.fragments.entries()) {
    const file = bundleFile(registrantKeyStem(k), fragment.data);
    files.set(nameInBundle(file), file.data);
    registrantKeys.firstKeys.push(fragment.firstKey);
    registrantKeys.hashes.push(hashOf(file));
  }
  const manifest = {
    format: BUNDLE_FORMAT,
    choices: { states: STATES, countries: [] },
    clients: 0,
    chunks: { count: 0, file: 'clients/directory.0000000000000000.bin' },
    registrants: TOTAL,
    registrantColumns,
    registrantPacks: { count: 0, file: 'registrants/directory.0000000000000000.bin' },
    registrantKeys,
  } as unknown as BundleManifest;
  files.set('manifest.json', new TextEncoder().encode(encodeManifest(manifest)));
  return (await QueryBundle.open(async (file) => files.get(file)))!;
}

/** The places in the order of the terms, by comparing every pair: the reference's ORDER BY. */
function sortedByTerms(places: number[], ordering: string): number[] {
  const terms = orderingTerms(ordering, REGISTRANTS.orderings);
  const instant = (place: number) => (Number.isNaN(registrants[place]!.updated) ? -Infinity : registrants[place]!.updated);
  const compare = { name: (a: number, b: number) => compareCodePoints(registrants[a]!.name, registrants[b]!.name), date: (a: number, b: number) => instant(a) - instant(b) || 0, id: (a: number, b: number) => a - b };
  return [...places].sort((a, b) => {
    for (const { field, descending } of terms) {
      const difference = compare[field](a, b);
      if (difference !== 0) return descending ? -difference : difference;
    }
    return 0;
  });
}

const ORDERINGS = ['', 'id', '-id', 'name', '-name', 'dt_updated', '-dt_updated'];
const TWO_TERMS = ORDERINGS.filter((one) => /name|updated/.test(one)).flatMap((one) => ORDERINGS.filter((two) => two !== '' && two.replace('-', '') !== one.replace('-', '')).map((two) => `${one},${two}`));

describe('the registrants in the order of the terms, read off the precomputed orders', () => {
  const every = Array.from({ length: TOTAL }, (_, place) => place);

  it('ties are many: the test would see a run sorted wrong', () => {
    const { nameOrder, updatedOrder } = columns();
    expect(nameOrder.ties.reduce((sum, tie) => sum + tie, 0)).toBeGreaterThan(TOTAL / 2);
    expect(updatedOrder.ties.reduce((sum, tie) => sum + tie, 0)).toBeGreaterThan(TOTAL / 2);
  });

  it.each([...ORDERINGS, ...TWO_TERMS])('ordering=%s, every registrant, whole and page by page', async (ordering) => {
    const bundle = await openBundle();
    const ordered = await orderRegistrants(bundle, {}, orderingTerms(ordering, REGISTRANTS.orderings));
    const expected = sortedByTerms(every, ordering);
    expect(ordered.count).toBe(TOTAL);
    expect(await ordered.slice(0, TOTAL)).toEqual(expected);
    // Pages of 7 cut through runs of ties; a page past the end holds what is left.
    for (let from = 0; from < TOTAL; from += 7) expect(await ordered.slice(from, from + 7)).toEqual(expected.slice(from, from + 7));
  });

  it.each([...ORDERINGS, ...TWO_TERMS])('ordering=%s, filtered by state and dt_updated_after', async (ordering) => {
    const bundle = await openBundle();
    const after = 1_600_000_000_000_000 + 3 * 1_000_000;
    const ordered = await orderRegistrants(bundle, { state: 'DC', updatedAfter: after }, orderingTerms(ordering, REGISTRANTS.orderings));
    const selected = every.filter((place) => registrants[place]!.state === 'DC' && registrants[place]!.updated >= after);
    expect(ordered.count).toBe(selected.length);
    expect(await ordered.slice(0, TOTAL)).toEqual(sortedByTerms(selected, ordering));
  });

  it.each(TWO_TERMS)('ordering=%s, filtered: the ranks sorted as numbers, the runs of ties where a slice meets them, whole and page by page', async (ordering) => {
    const { ranks } = columns();
    const selected = Int32Array.from(every.filter((place) => place % 3 !== 1));
    const terms = orderingTerms(ordering, REGISTRANTS.orderings);
    const expected = sortedByTerms(Array.from(selected), ordering);
    // The same ranks read against a registry of 2^20 too: digits of another base.
    for (const total of [TOTAL, 2 ** 20]) {
      const ordered = placesByRanks(selected, terms, ranks, total);
      expect(ordered.count).toBe(selected.length);
      expect(ordered.slice(0, TOTAL)).toEqual(expected);
      // Pages of 7 cut through runs of ties; a page past the end holds what is left, or nothing.
      for (let from = 0; from < selected.length + 7; from += 7) expect(ordered.slice(from, from + 7)).toEqual(expected.slice(from, from + 7));
    }
  });

  it('registrant_name narrows what the other filters kept, and reads its key index as written', async () => {
    const bundle = await openBundle();
    const ordered = await orderRegistrants(bundle, { name: new TextEncoder().encode('ACME'), state: 'VA' }, orderingTerms('-name,dt_updated', REGISTRANTS.orderings));
    const selected = every.filter((place) => searchText(registrants[place]!.name).includes('ACME') && registrants[place]!.state === 'VA');
    expect(selected.length).toBeGreaterThan(10);
    expect(await ordered.slice(0, TOTAL)).toEqual(sortedByTerms(selected, '-name,dt_updated'));
  });

  it.each(['ÉCOLE', 'COLE', '𝔸', 'C', 'ZZZ', 'LLC B'])('registrant_name=%s finds the names that hold it, past names of other lengths in UTF-16 and UTF-8', async (value) => {
    const bundle = await openBundle();
    const ordered = await orderRegistrants(bundle, { name: new TextEncoder().encode(searchText(value)) }, orderingTerms('', REGISTRANTS.orderings));
    const selected = every.filter((place) => searchText(registrants[place]!.name).includes(searchText(value)));
    expect(await ordered.slice(0, TOTAL)).toEqual(selected);
  });
});

describe('registrant_name through the registrants key index, against every name searched in turn', () => {
  const upper = [...new Set(registrants.map((registrant) => searchText(registrant.name)))];
  // Every piece of 1 to 6 bytes of every name (pieces that cut a character in two included), and pieces no name holds.
  const bytes = upper.map((name) => new TextEncoder().encode(name));
  const pieces = new Map<string, Uint8Array>();
  for (const name of bytes) for (let length = 1; length <= 6; length++) for (let at = 0; at + length <= name.length; at++) pieces.set(name.subarray(at, at + length).join(','), name.subarray(at, at + length));
  for (const absent of ['ACMEX', 'LLCC', 'Q', 'BETA LLC  ']) pieces.set(absent, new TextEncoder().encode(absent));

  it(`finds exactly the registrants whose name holds each of ${pieces.size} pieces`, async () => {
    const bundle = await openBundle();
    const holds = (name: Uint8Array, piece: Uint8Array) => {
      for (let at = 0; at + piece.length <= name.length; at++) if (piece.every((byte, i) => name[at + i] === byte)) return true;
      return false;
    };
    const nameBytes = registrants.map((registrant) => new TextEncoder().encode(searchText(registrant.name)));
    for (const piece of pieces.values()) {
      const ordered = await orderRegistrants(bundle, { name: piece }, orderingTerms('', REGISTRANTS.orderings));
      const expected = nameBytes.flatMap((name, place) => (holds(name, piece) ? [place] : []));
      expect(await ordered.slice(0, TOTAL), `pattern ${[...piece].join(',')}`).toEqual(expected);
    }
  });
});
