import { describe, expect, it } from 'vitest';
import { BITMAP, GAPS, buildLists, decodeLocals } from '../../src/bundle/key-lists.ts';

/** Lists built from sets of local indexes, one buffer, each read back on its own between the others' bytes. */
function roundTrip(sets: readonly number[][]): { kinds: number[]; decoded: number[][] } {
  const lists = buildLists(sets.length, (add) => {
    // The build adds occurrences in local order across every key.
    const all = sets.flatMap((locals, id) => locals.map((local) => [local, id] as const)).sort((a, b) => a[0] - b[0]);
    for (const [local, id] of all) add(id, local, 0);
  });
  // Every list inside bytes of set bits, as in a fragment where other lists follow: no bit past its end is read.
  return {
    kinds: lists.map((list) => list[0]!),
    decoded: lists.map((list) => {
      const framed = new Uint8Array(list.length + 8).fill(0xff);
      framed.set(list, 3);
      return [...decodeLocals(framed, 3, 3 + list.length, 'test.bin')];
    }),
  };
}

describe('the lists of clients', () => {
  it('read back as written, as gaps or as bitmaps of every length, whatever bytes follow', () => {
    const sets: number[][] = [];
    for (let length = 1; length <= 70; length++) {
      // Dense (a bitmap): every client from `first` but a few; sparse (gaps), with gaps past one byte.
      const first = length * 3;
      sets.push(Array.from({ length: length * 8 }, (_, i) => first + i).filter((local) => local % 7 !== 0 || local === first));
      sets.push(Array.from({ length }, (_, i) => i * 200 + length));
    }
    sets.push([0], [31, 32, 33], [0, 7, 8, 15, 16, 23, 24, 31, 32, 63, 64]);
    const { kinds, decoded } = roundTrip(sets);
    expect(decoded).toEqual(sets);
    expect(kinds.filter((kind) => kind === BITMAP).length).toBeGreaterThan(60);
    expect(kinds.filter((kind) => kind === GAPS).length).toBeGreaterThan(60);
  });

  it('name a list of another kind', () => {
    expect(() => decodeLocals(Uint8Array.of(2, 0, 0), 0, 3, 'keys-1.bin')).toThrow(/keys-1.bin: a list of kind 2 where a list of clients was expected/);
  });
});
