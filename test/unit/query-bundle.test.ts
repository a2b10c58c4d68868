import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeRecordTexts, encodeRecordTexts } from '../../src/bundle/record-texts.ts';
import { decodeSections, encodeSections } from '../../src/bundle/sections.ts';
import { searchText } from '../../src/bundle/search-text.ts';
import { UPPER_CASE_PAIRS } from '../../src/bundle/upper-case-pairs.ts';
import { segmentRanges, startsChunk } from '../../src/plan/bundle-layout.ts';
import { sharedFixtureExists } from '../support/shared-fixtures.ts';

describe('the query bundle files read back as written', () => {
  it('sections: fields and typed arrays, at any offset of the memory they come in', () => {
    const file = encodeSections({ name: 'x', n: 3 }, { a: Float64Array.of(1.5, -2), b: Uint16Array.of(7, 8, 9), c: Uint8Array.of(1) });
    const shifted = new Uint8Array(file.length + 3);
    shifted.set(file, 3);
    const read = decodeSections(shifted.subarray(3), 'test.bin');
    expect(read.fields).toEqual({ name: 'x', n: 3 });
    expect([...read.section('a', Float64Array)]).toEqual([1.5, -2]);
    expect([...read.section('b', Uint16Array)]).toEqual([7, 8, 9]);
    expect(() => read.section('b', Uint32Array)).toThrow(/holds u16/);
  });

  it('record texts: each record decoded alone, its values spliced with the keys stored once, found by id', () => {
    const keys = ['a', 'name', 'b'];
    const records = [
      { id: 3, text: '"a":1,"name":"x","b":null', registrant: 9 },
      { id: 10, text: '"a":{"b":[1,"],\\""],"name":2},"name":"ÉCOLE 𝔸\\u0000, \\"b\\":1","b":true', registrant: 2 },
      { id: 12, text: '"a":"","name":"","b":[]', registrant: 9 },
    ];
    const read = decodeRecordTexts(encodeRecordTexts(keys, records), 'chunk.bin');
    expect(records.map((_, i) => [read.ids[i], read.registrants![i], read.text(i)])).toEqual(records.map((r) => [r.id, r.registrant, r.text]));
    expect([read.find(10), read.find(11)]).toEqual([1, -1]);
    expect(() => encodeRecordTexts(keys, [{ id: 1, text: '"name":"x","a":1,"b":2' }])).toThrow(/record 1: its fields are not the keys a, name, b in order/);
    expect(read.embedded).toBeUndefined();
  });

  it('record texts with records embedded: a chunk carries its clients\' registrants, found by id', () => {
    const clients = [
      { id: 3, text: '"name":"A","r":1', registrant: 9 },
      { id: 4, text: '"name":"B","r":2', registrant: 2 },
    ];
    const registrants = [
      { id: 2, text: '"name":"R2","city":null' },
      { id: 9, text: '"name":"R9","city":"Ünterwald"' },
    ];
    const read = decodeRecordTexts(encodeRecordTexts(['name', 'r'], clients, { keys: ['name', 'city'], records: registrants }), 'chunk.bin');
    expect([read.text(1), read.embedded!.count]).toEqual([clients[1]!.text, 2]);
    expect(clients.map((client) => read.embedded!.text(read.embedded!.find(client.registrant)))).toEqual(['"name":"R9","city":"Ünterwald"', '"name":"R2","city":null']);
    expect(read.embedded!.find(3)).toBe(-1);
  });
});

describe('the query bundle layout', () => {
  it('cuts segments as a binary counter: appending changes only the segments at the end', () => {
    const cut = (total: number) => segmentRanges(total).map((range) => `${range.start}+${range.count}`);
    expect(cut(30_000)).toEqual(['0+16384', '16384+8192', '24576+4096', '28672+1328']);
    expect(cut(30_100).slice(0, 3)).toEqual(cut(30_000).slice(0, 3));
    expect(cut(134_719)).toEqual(['0+131072', '131072+3647']);
    // A night's hundred new clients change the tail, or the small segments it grows into, never the first.
    expect(cut(134_819)[0]).toEqual(cut(134_719)[0]);
    expect(cut(1_347_190)).toEqual([...Array.from({ length: 9 }, (_, i) => `${i * 131_072}+131072`), '1179648+131072', '1310720+32768', '1343488+3702']);
    for (const total of [0, 1, 4095, 65_536, 1_347_190]) {
      const ranges = segmentRanges(total);
      expect(ranges.reduce((sum, range) => sum + range.count, 0)).toBe(total);
      expect(Math.max(0, ...ranges.map((range) => range.count))).toBeLessThanOrEqual(131_072);
    }
  });

  it('cuts chunks by content: removing a client changes only its own chunk', () => {
    const chunks = (ids: number[]) => {
      const cuts: number[][] = [];
      for (const id of ids) {
        if (cuts.length === 0 || startsChunk(id, cuts.at(-1)!.length)) cuts.push([]);
        cuts.at(-1)!.push(id);
      }
      return cuts.map((chunk) => chunk.join(','));
    };
    const ids = Array.from({ length: 5000 }, (_, i) => 1000 + 3 * i);
    const before = chunks(ids);
    const after = chunks(ids.filter((id) => id !== ids[2500]));
    const changed = before.filter((chunk) => !after.includes(chunk));
    expect(changed.length).toBeLessThanOrEqual(2);
    expect(Math.max(...before.map((chunk) => chunk.split(',').length))).toBeLessThanOrEqual(64);
    expect(before.length).toBeGreaterThan(5000 / 64);
  });
});

describe('the upper-casing of name searches', () => {
  const fixture = new URL('../../../shared/fixtures/upper-case-map.json', import.meta.url);
  it.skipIf(!sharedFixtureExists(fixture))('is the shared table, pair for pair', () => {
    const shared = (JSON.parse(readFileSync(fixture, 'utf8')) as { pairs: [number, number][] }).pairs.flat();
    expect(UPPER_CASE_PAIRS).toEqual(shared);
  });

  it('upper-cases ASCII without its tables as the table does: a to z only', () => {
    const ascii = Array.from({ length: 128 }, (_, unit) => String.fromCharCode(unit)).join('');
    const listed = new Map<number, number>();
    for (let i = 0; i < UPPER_CASE_PAIRS.length; i += 2) listed.set(UPPER_CASE_PAIRS[i]!, UPPER_CASE_PAIRS[i + 1]!);
    expect(searchText(ascii)).toBe(Array.from(ascii, (char) => String.fromCharCode(listed.get(char.charCodeAt(0)) ?? char.charCodeAt(0))).join(''));
    expect(searchText(`${ascii}é`)).toBe(`${searchText(ascii)}É`);
  });

  it('maps one code point at a time, leaving the unlisted ones', () => {
    expect(searchText('straße ıi ǅ ﬁ µ 𐐨')).toBe('STRAßE II Ǆ ﬁ Μ 𐐀');
  });
});
