import { seededRandom } from './seeded-random.ts';

/**
 * How far a difference of two medians can be trusted: a bootstrap interval. Each side's measures (one
 * a fresh isolate) are drawn again with replacement, as many as there are, `rounds` times; the
 * difference of the two medians is taken each time, and the interval holds the middle `level` of
 * those differences. Seeded, so that the same measures give the same interval. The first answers'
 * CPU moves by several ms from one isolate to the next (BENCHMARKS.md), so a figure near the 5 ms
 * target says little without it.
 */
export function medianDifferenceInterval(a: readonly number[], b: readonly number[], { rounds = 2000, level = 0.9, seed = 39 } = {}): { low: number; high: number } {
  if (a.length === 0 || b.length === 0) throw new RangeError('Expected measures on both sides');
  const random = seededRandom(seed);
  const resampledMedian = (values: readonly number[]) => median(Array.from(values, () => values[random(values.length)]!));
  const differences = Float64Array.from({ length: rounds }, () => resampledMedian(a) - resampledMedian(b)).sort();
  const cut = Math.floor(((1 - level) / 2) * rounds);
  return { low: differences[cut]!, high: differences[rounds - 1 - cut]! };
}

export function median(numbers: readonly number[]): number {
  const sorted = [...numbers].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
