import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeKeyFragment, encodeKeyIndex, fragmentIndexFor, nameKey, PAST_EVERY_KEY, valueKey, VALUE_FIELDS, type KeyFragment, type SegmentKeyRows, type ValueField } from '../../src/bundle/key-index.ts';
import { encodeSections } from '../../src/bundle/sections.ts';
import { searchText } from '../../src/bundle/search-text.ts';
import { clientsWithValue, namesHolding, type FragmentOf } from '../../src/answer/key-search.ts';
import { fakeClients } from '../../scripts/lib/fake-clients.ts';
import { sharedFixtureExists } from '../support/shared-fixtures.ts';

const encoder = new TextEncoder();
const REAL_CLIENTS = new URL('../../../shared/fixtures/lda-real-clients.ndjson', import.meta.url);

type Value = string | number | null;

/** A segment's key index built from records (as the build reads them), with a reader that counts what it reads. */
function indexOf(names: readonly string[], values?: Partial<Record<ValueField, Value[]>>, targetBytes?: number | { fragments: number }) {
  const rows: SegmentKeyRows = {
    names: names.map(searchText),
    values: Object.fromEntries(VALUE_FIELDS.map((field) => [field, values?.[field] ?? names.map(() => null)])) as unknown as SegmentKeyRows['values'],
  };
  const { fragments, maxNameBytes, words } = encodeKeyIndex(rows, targetBytes);
  const firstKeys = fragments.map((fragment) => fragment.firstKey);
  const decoded = fragments.map((fragment, i) => decodeKeyFragment(fragment.data, `keys-${i}.bin`));
  const asked: string[] = [];
  const fragmentOf: FragmentOf = async (key) => {
    asked.push(key);
    return decoded[fragmentIndexFor(firstKeys, key)];
  };
  return { rows, fragments, firstKeys, decoded, maxNameBytes, words, asked, fragmentOf };
}

type Index = ReturnType<typeof indexOf>;

/** The reference: the clients whose upper-cased name holds the pattern's bytes. */
function bruteForce(names: readonly string[], pattern: Uint8Array): number[] {
  const encoded = encodedNames.get(names) ?? names.map((name) => Buffer.from(encoder.encode(searchText(name))));
  encodedNames.set(names, encoded);
  return encoded.flatMap((name, local) => (name.indexOf(pattern) >= 0 ? [local] : []));
}

const encodedNames = new WeakMap<readonly string[], Buffer[]>();

/** The search three ways: trigrams chosen by fragment (firstKeys given), every third one, and a common word's list where the pattern is one. */
async function search(index: Index, pattern: Uint8Array): Promise<number[]> {
  const byFragment = [...(await namesHolding(index.fragmentOf, pattern, index.maxNameBytes, index.firstKeys))];
  const everyThird = [...(await namesHolding(index.fragmentOf, pattern, index.maxNameBytes))];
  const byWord = [...(await namesHolding(index.fragmentOf, pattern, index.maxNameBytes, index.firstKeys, index.words))];
  expect(everyThird).toEqual(byFragment);
  expect(byWord).toEqual(byFragment);
  return byFragment;
}

/** Patterns of 1, 2, 3, 4, 5 and 7 bytes from several places of each name, and each whole name. */
function patternsOf(names: readonly string[]): Uint8Array[] {
  const patterns: Uint8Array[] = [];
  names.forEach((name, i) => {
    const bytes = encoder.encode(searchText(name));
    if (bytes.length > 0) patterns.push(bytes);
    for (const length of [1, 2, 3, 4, 5, 7]) {
      for (const at of [0, (i * 7) % Math.max(1, bytes.length - length), bytes.length - length]) if (at >= 0 && at + length <= bytes.length) patterns.push(bytes.slice(at, at + length));
    }
  });
  return patterns;
}

async function expectSameAsBruteForce(names: readonly string[], patterns: readonly Uint8Array[], targetBytes?: number): Promise<void> {
  const index = indexOf(names, undefined, targetBytes);
  for (const pattern of patterns) {
    const found = await search(index, pattern);
    expect(found, `pattern ${JSON.stringify(new TextDecoder().decode(pattern))}`).toEqual(bruteForce(names, pattern));
  }
}

describe("the common words' lists", () => {
  it('hold every name holding the word anywhere, inside longer words too, and a search of one reads its list alone', async () => {
    const names = [...fakeClients({ count: 2000, seed: 39 })].map((client) => client.name as string);
    names.push('ASSOCIATIONS UNITED', 'NASSOCIATION', 'ÉCOLE ÉCOLE', 'ÉCOLES', 'THE ÉCOLE', 'ÉCOLE-NORMALE', ...Array.from({ length: 40 }, (_, i) => `ÉCOLE ${i}`));
    const index = indexOf(names, undefined, 16 * 1024);
    const utf8 = (word: string) => String.fromCharCode(...encoder.encode(word));
    expect(index.words).toContain('ASSOCIATION');
    expect(index.words).toContain(utf8('ÉCOLE'));
    expect(index.words).not.toContain('NASSOCIATION');
    expect(index.words).toEqual([...index.words].sort());
    for (const word of ['ASSOCIATION', utf8('ÉCOLE'), ...index.words.slice(0, 5)]) {
      const pattern = Uint8Array.from(word, (c) => c.charCodeAt(0));
      index.asked.length = 0;
      const found = [...(await namesHolding(index.fragmentOf, pattern, index.maxNameBytes, index.firstKeys, index.words))];
      expect(index.asked).toEqual([`4${String.fromCharCode(...pattern)}`]);
      expect(found, word).toEqual(bruteForce(names, pattern));
    }
    // A word held by fewer than one name in 64 has no list: its search is the trigrams'.
    expect(await search(index, encoder.encode('NASSOCIATION'))).toEqual([names.indexOf('NASSOCIATION')]);
  });
});

const FOREIGN_NAMES = [
  'École des Ponts',
  'straße und Weg',
  'Ωμέγα ΑΛΦΑ ωμέγα',
  '東京電力ホールディングス',
  'emoji 😀 club 😀',
  'ÉCOLE é école',
  'Ǆemal ǅ ǆ',
  'plain ascii inc',
  '',
];

describe('the key index answers as a scan of the names would', () => {
  it.skipIf(!sharedFixtureExists(REAL_CLIENTS))('on the real clients of the fixtures, in fragments of 2 KB', async () => {
    const names = readFileSync(REAL_CLIENTS, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { name: string }).name);
    await expectSameAsBruteForce(names, patternsOf(names), 2048);
  });

  it('on generated clients, in fragments of 16 KB, with locals past 65,535 in a long segment', async () => {
    const names = [...fakeClients({ count: 2000, seed: 39 })].map((client) => client.name as string);
    const patterns = patternsOf(names.filter((_, i) => i % 29 === 0));
    await expectSameAsBruteForce(names, [...patterns, encoder.encode('ASSOCIATION'), encoder.encode('TI'), encoder.encode('A')], 16 * 1024);
    const long = [...names, ...Array.from({ length: 70_000 - names.length }, (_, i) => `FILLER ${i}`)];
    long[69_999] = 'LAST CLIENT OF A LONG SEGMENT';
    const index = indexOf(long);
    expect(await search(index, encoder.encode('LAST CLIENT'))).toEqual([69_999]);
    expect([...(await namesHolding(index.fragmentOf, encoder.encode('Q'), index.maxNameBytes))]).toEqual(bruteForce(long, encoder.encode('Q')));
  });

  it('on names beyond ASCII: É, ß, Greek, CJK, an astral emoji, patterns of whole characters and of bytes', async () => {
    const patterns = [...patternsOf(FOREIGN_NAMES), ...['É', 'ß', 'Ω', 'ΜΈΓΑ', '東京', '😀', 'ǅ', 'ÉCOLE É'].map((text) => encoder.encode(searchText(text)))];
    await expectSameAsBruteForce(FOREIGN_NAMES, patterns, 512);
  });

  it('on repeated trigrams: AAAA in AAAAAA, at each shift', async () => {
    const names = ['AAAAAA', 'AAA', 'AAAAB', 'BAAAA', 'AABAA', 'AAAA AAAA'];
    const index = indexOf(names);
    for (const pattern of ['AAA', 'AAAA', 'AAAAA', 'AAAAAA', 'AAAAAAA', 'AA AA', 'AAAA AAAA'].map((text) => encoder.encode(text))) {
      expect(await search(index, pattern)).toEqual(bruteForce(names, pattern));
    }
    expect(await search(index, encoder.encode('AAAA'))).toEqual([0, 3 - 1, 3, 5]);
  });

  it('on lists of many blocks, jumping to the few names a rare trigram leaves', async () => {
    // ABA and BAB occur thousands of times, several times a name; QX in a name of 101 only.
    const names = Array.from({ length: 3000 }, (_, i) => (i % 101 === 50 ? `QX${'AB'.repeat(i % 7)}QX` : 'AB'.repeat(1 + (i % 9))));
    names[2999] = 'QXABABABABABQX';
    const index = indexOf(names);
    for (const text of ['QXABABQX', 'QXABABABABABQX', 'ABABABABABABABABAB', 'XABA', 'BABQX', 'QXQX', 'ABABQ']) {
      expect(await search(index, encoder.encode(text)), text).toEqual(bruteForce(names, encoder.encode(text)));
    }
    expect(bruteForce(names, encoder.encode('QXABABQX')).length).toBeGreaterThan(1);
  });

  it('on names of 400 characters: positions past 255', async () => {
    const long = `${'X'.repeat(300)}NEEDLE${'Y'.repeat(94)}`;
    const names = [long, 'NEEDLE', 'XNEEDLEY', `${'X'.repeat(299)}NEED`];
    const index = indexOf(names);
    expect(index.maxNameBytes).toBe(400);
    for (const text of ['XNEEDLEY', 'XXXNEED', 'NEEDLEYYY', 'YYY', long]) expect(await search(index, encoder.encode(text))).toEqual(bruteForce(names, encoder.encode(text)));
    expect(await search(index, encoder.encode('XXXNEEDLEY'))).toEqual([0]);
  });
});

describe('a name search proves the whole pattern, by trigrams at aligned positions', () => {
  it('rejects names that hold every trigram of the pattern, but not in its order or spacing', async () => {
    const names = ['ABCXDEF', 'DEFABC', 'XABCDEFX', 'ABCXBCD', 'ABCD'];
    const index = indexOf(names);
    expect(await search(index, encoder.encode('ABCDEF'))).toEqual([2]);
    expect(await search(index, encoder.encode('ABCD'))).toEqual([2, 4]);
    // Without positions, the same lists would let the near misses through.
    const holding = async (trigram: string) => {
      const key = nameKey(encoder.encode(trigram), 0, 3);
      const fragment = (await index.fragmentOf(key))!;
      return new Set(fragment.occurrences(fragment.indexOf(key)).locals);
    };
    const [abc, def, bcd] = [await holding('ABC'), await holding('DEF'), await holding('BCD')];
    expect([...abc].filter((local) => def.has(local))).toEqual([0, 1, 2]);
    expect([...abc].filter((local) => bcd.has(local))).toEqual([2, 3, 4]);
  });

  it('finds nothing, reading nothing, for a pattern longer than every name', async () => {
    const index = indexOf(['SHORT', 'NAMES ONLY']);
    expect([...(await namesHolding(index.fragmentOf, encoder.encode('NAMES ONLY!'), index.maxNameBytes, index.firstKeys))]).toEqual([]);
    expect(index.asked).toEqual([]);
  });

  it('finds nothing for an absent pattern, and asks for each fragment once', async () => {
    const names = [...fakeClients({ count: 500, seed: 3 })].map((client) => client.name as string);
    const index = indexOf(names, undefined, 1024);
    expect(index.fragments.length).toBeGreaterThan(20);
    const whole = encoder.encode(searchText(names[250]!));
    expect(await search(index, whole)).toEqual(bruteForce(names, whole));
    index.asked.length = 0;
    await namesHolding(index.fragmentOf, whole, index.maxNameBytes, index.firstKeys);
    const read = index.asked.map((key) => fragmentIndexFor(index.firstKeys, key));
    expect(new Set(read).size).toBe(read.length);
    for (const absent of ['QQQQ', 'ZZ', '€', 'ASSOCIATION OF ASSOCIATION']) expect(await search(index, encoder.encode(absent))).toEqual([]);
  });

  it('asks for a pattern of at least one byte', async () => {
    const index = indexOf(['A']);
    await expect(namesHolding(index.fragmentOf, new Uint8Array(0), index.maxNameBytes)).rejects.toThrow(/at least one byte/);
  });
});

describe('value keys list the clients having each value of each field', () => {
  it('for every field, as a scan of the values would; null is not indexed', async () => {
    const clients = [...fakeClients({ count: 3000, seed: 11 })] as Record<string, unknown>[];
    const values: Record<ValueField, Value[]> = {
      state: clients.map((client) => client['state'] as Value),
      country: clients.map((client) => client['country'] as Value),
      ppbState: clients.map((client) => client['ppb_state'] as Value),
      ppbCountry: clients.map((client) => client['ppb_country'] as Value),
      registrant: clients.map((client) => (client['registrant'] as { id: number }).id),
    };
    expect(values.state.includes(null)).toBe(true);
    const index = indexOf(clients.map((client) => client['name'] as string), values, 8 * 1024);
    for (const field of VALUE_FIELDS) {
      for (const value of new Set(values[field])) {
        if (value === null) continue;
        const expected = values[field].flatMap((other, local) => (other === value ? [local] : []));
        expect([...(await clientsWithValue(index.fragmentOf, field, value))], `${field} ${value}`).toEqual(expected);
      }
      expect([...(await clientsWithValue(index.fragmentOf, field, 'XX-NONE'))]).toEqual([]);
    }
    const keys = index.decoded.flatMap((fragment) => Array.from({ length: fragment.keyCount }, (_, i) => fragment.keyAt(i)));
    expect(keys.filter((key) => key.endsWith('=null'))).toEqual([]);
    expect(keys).toContain(valueKey('registrant', values.registrant[0]!));
  });

  it('keys a number by its decimal text, and refuses one that has none', () => {
    expect(valueKey('registrant', 401105130)).toBe('registrant=401105130');
    expect(() => valueKey('registrant', Number.NaN)).toThrow(/finite number/);
  });
});

describe('fragments cut to a count known in advance', () => {
  // A name of 600 As: the positional list of AAA takes several fragments' share of the bytes.
  const names = [...[...fakeClients({ count: 300, seed: 6 })].map((client) => client.name as string), 'A'.repeat(600)];

  it('are exactly that many, key ranges in order, the spare ones empty and after every key, and answer as a scan', async () => {
    for (const count of [1, 7, 40]) {
      const index = indexOf(names, { state: names.map((_, i) => (i % 3 === 0 ? 'TX' : null)) }, { fragments: count });
      expect(index.fragments).toHaveLength(count);
      const filled = index.decoded.filter((fragment) => fragment.keyCount > 0).length;
      expect(index.firstKeys.slice(filled).every((key) => key === PAST_EVERY_KEY)).toBe(true);
      expect(index.firstKeys.slice(0, filled)).toEqual([...index.firstKeys.slice(0, filled)].sort());
      for (const pattern of ['AAA', 'ASSOCIATION', 'TI', 'A', 'ZZZQ']) expect(await search(index, encoder.encode(pattern)), `${pattern} in ${count}`).toEqual(bruteForce(names, encoder.encode(pattern)));
      expect([...(await clientsWithValue(index.fragmentOf, 'state', 'TX'))]).toEqual(names.flatMap((_, i) => (i % 3 === 0 ? [i] : [])));
    }
    // The highest key a name can have reads a fragment with keys, never a spare one.
    const index = indexOf(names, undefined, { fragments: 40 });
    expect(index.decoded[fragmentIndexFor(index.firstKeys, '3\u00ff\u00ff\u00ff')]!.keyCount).toBeGreaterThan(0);
  });
});

describe('fragments are key ranges of about the target size', () => {
  // A name of 600 As: the positional list of AAA takes more than the target alone.
  const names = [...[...fakeClients({ count: 800, seed: 5 })].map((client) => client.name as string), 'A'.repeat(600)];
  const index = indexOf(names, { country: names.map(() => 'US') }, 700);

  it('in ascending key order, each key in the fragment fragmentIndexFor names', () => {
    expect(index.fragments.length).toBeGreaterThan(10);
    let previous = '';
    index.decoded.forEach((fragment: KeyFragment, i) => {
      expect(fragment.keyAt(0)).toBe(index.firstKeys[i]);
      for (let k = 0; k < fragment.keyCount; k++) {
        const key = fragment.keyAt(k);
        expect(key > previous).toBe(true);
        expect(fragmentIndexFor(index.firstKeys, key)).toBe(i);
        expect(fragment.indexOf(key)).toBe(k);
        previous = key;
      }
    });
  });

  it('of at most the target plus the file header (about 300 bytes), but for a list bigger than it, alone', () => {
    const alone = index.decoded.filter((fragment) => fragment.keyCount === 1 && fragment.listBytes(0) > 700);
    expect(alone.map((fragment) => fragment.keyAt(0))).toContain(nameKey(encoder.encode('AAA'), 0, 3));
    index.fragments.forEach((fragment, i) => {
      if (index.decoded[i]!.keyCount > 1) expect(fragment.data.length).toBeLessThanOrEqual(700 + 400);
    });
  });

  it('found by fragmentIndexFor at their boundaries', () => {
    const keys = index.firstKeys;
    expect(fragmentIndexFor(keys, '')).toBe(-1);
    expect(fragmentIndexFor(keys, keys[0]!.slice(0, -1))).toBe(-1);
    expect(fragmentIndexFor(keys, keys[0]!)).toBe(0);
    expect(fragmentIndexFor(keys, keys[5]!)).toBe(5);
    expect(fragmentIndexFor(keys, `${keys[5]!}\u0000`)).toBe(5);
    expect(fragmentIndexFor(keys, keys[6]!.slice(0, -1))).toBe(5);
    expect(fragmentIndexFor(keys, '\uffff')).toBe(keys.length - 1);
    expect(fragmentIndexFor([], 'A')).toBe(-1);
  });

  it('refused with the file named when a file is not a fragment', () => {
    expect(() => decodeKeyFragment(encodeSections({ kind: 'segment' }, {}), 'index/0-1.bin')).toThrow(/index\/0-1\.bin: not a fragment of a key index/);
  });
});
