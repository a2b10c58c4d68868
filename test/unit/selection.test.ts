import { describe, expect, it } from 'vitest';
import { buildLists, decodeLocals, bitmapOf } from '../../src/bundle/key-lists.ts';
import { bitmapSelection, joinedSelection, listedSelection, type Selection } from '../../src/answer/selection.ts';

/** A list of the key index made from ascending local indexes (a bitmap where that is smaller), framed by other bytes. */
function listOf(locals: number[]): { bytes: Uint8Array; from: number; to: number } {
  const [list] = buildLists(1, (add) => locals.forEach((local) => add(0, local, 0)));
  const bytes = new Uint8Array(list!.length + 8).fill(0xff);
  bytes.set(list!, 4);
  return { bytes, from: 4, to: 4 + list!.length };
}

/** The clients `each` visits, in its order. */
function everyOf(selection: Selection): number[] {
  const clients: number[] = [];
  selection.each((client) => clients.push(client));
  return clients;
}

describe('a selection kept as the bitmap it was read as', () => {
  it('counts, places and finds the same clients as the list decoded, at every place and client', () => {
    const random = (() => {
      let x = 39;
      return () => ((x = (Math.imul(x, 1103515245) + 12345) | 0) >>> 0) / 2 ** 32;
    })();
    for (const [first, length, share] of [[0, 5000, 0.45], [17, 3000, 0.17], [130, 700, 0.9], [5, 9, 1]] as const) {
      const locals = Array.from({ length }, (_, i) => first + i).filter((local) => local === first || random() < share);
      const { bytes, from, to } = listOf(locals);
      const bitmap = bitmapOf(bytes, from, to);
      expect(bitmap, `${length} clients from ${first}`).toBeDefined();
      expect(bitmap!.count).toBe(locals.length);
      const selection = bitmapSelection(bitmap!);
      expect([...decodeLocals(bytes, from, to, 'test.bin')]).toEqual(locals);
      expect(selection.count).toBe(locals.length);
      expect(Array.from({ length: selection.count }, (_, place) => selection.at(place))).toEqual(locals);
      // Asked from the last place back, and from the middle, in fresh selections: the runs are counted as far as each place needs.
      const backwards = bitmapSelection(bitmap!);
      expect(Array.from({ length: locals.length }, (_, i) => backwards.at(locals.length - 1 - i))).toEqual([...locals].reverse());
      const middle = bitmapSelection(bitmap!);
      const half = locals.length >> 1;
      expect([middle.at(half), middle.at(0), middle.at(locals.length - 1)]).toEqual([locals[half], locals[0], locals.at(-1)]);
      expect(() => middle.at(locals.length)).toThrow(RangeError);
      expect(everyOf(selection)).toEqual(locals);
      const held = new Set(locals);
      for (let client = -3; client < first + length + 20; client++) expect(selection.has(client), `client ${client}`).toBe(held.has(client));
    }
  });

  it('joined with arrays as segments, counts, places and finds as one ascending list', () => {
    const { bytes, from, to } = listOf(Array.from({ length: 400 }, (_, i) => i).filter((i) => i % 3 !== 1));
    const bitmap = bitmapOf(bytes, from, to)!;
    const parts = [bitmapSelection(bitmap), listedSelection(Int32Array.of(), 100), listedSelection(Int32Array.of(0, 7, 99), 100)];
    const joined = joinedSelection(parts, [0, 400, 500]);
    const expected = [...decodeLocals(bytes, from, to, 'test.bin'), 500, 507, 599];
    expect(joined.count).toBe(expected.length);
    expect(Array.from({ length: joined.count }, (_, place) => joined.at(place))).toEqual(expected);
    expect(everyOf(joined)).toEqual(expected);
    for (let client = 0; client < 600; client++) expect(joined.has(client), `client ${client}`).toBe(expected.includes(client));
  });
});
