import type { OrderField, OrderFragment } from '../bundle/order-fragments.ts';
import type { OrderFragments } from './paged-order.ts';

/** Consecutive entries of a field's order, from the start of a group to the end of one. */
export interface Run {
  /** The place of the first entry. */
  first: number;
  /** The places of its groups: [start, end). */
  start: number;
  end: number;
  clients: Uint32Array;
  starts: Uint8Array;
  others: Uint16Array | Uint32Array;
  ranked: Uint16Array | Uint32Array;
}

/**
 * The entries of places [start, end), widened to whole groups: from the start of the group holding
 * `start` (in an earlier fragment, maybe) to the end of the group holding `end - 1` (in a later one).
 * The fragments of [start, end) are read at once; a group running past them reads one more at a time.
 */
export async function groupsAround(source: OrderFragments, field: OrderField, start: number, end: number): Promise<Run> {
  const { places } = source;
  let before = Math.floor(start / places);
  let after = Math.floor((end - 1) / places);
  const read = (k: number) => source.fragment(field, k);
  const fragments = await Promise.all(Array.from({ length: after - before + 1 }, (_, i) => read(before + i)));
  let groupStart = start;
  for (;;) {
    const fragment = fragments[0]!;
    let local = groupStart - fragment.first;
    while (local > 0 && fragment.starts[local] !== 1) local--;
    groupStart = fragment.first + local;
    if (fragment.starts[local] === 1) break;
    fragments.unshift(await read(--before));
    groupStart--;
  }
  let groupEnd = end;
  for (;;) {
    const fragment = fragments.at(-1)!;
    let local = groupEnd - fragment.first;
    while (local < fragment.clients.length && fragment.starts[local] !== 1) local++;
    groupEnd = fragment.first + local;
    if (local < fragment.clients.length || !fragment.runsOn) break;
    fragments.push(await read(++after));
  }
  return { ...joined(fragments, groupStart, groupEnd), start: groupStart, end: groupEnd };
}

/**
 * Fragments side by side as one run of entries: views of the one fragment, when it is one; else a
 * copy of places [start, end) alone (whole groups), not of every fragment they touch (a group running
 * over an edge would copy two fragments of 8,192 places each, 150 KB, for the few places it holds).
 */
function joined(fragments: readonly OrderFragment[], start: number, end: number): Omit<Run, 'start' | 'end'> {
  if (fragments.length === 1) return fragments[0]!;
  const length = end - start;
  const run = {
    first: start,
    clients: new Uint32Array(length),
    starts: new Uint8Array(length),
    others: new Uint32Array(length),
    ranked: new Uint32Array(length),
  };
  let offset = 0;
  for (const fragment of fragments) {
    const from = Math.max(0, start - fragment.first);
    const to = Math.min(fragment.clients.length, end - fragment.first);
    if (from >= to) continue;
    run.clients.set(fragment.clients.subarray(from, to), offset);
    run.starts.set(fragment.starts.subarray(from, to), offset);
    run.others.set(fragment.others.subarray(from, to), offset);
    run.ranked.set(fragment.ranked.subarray(from, to), offset);
    offset += to - from;
  }
  return run;
}
