import { describe, expect, it } from 'vitest';
import { median, medianDifferenceInterval } from '../../scripts/bench/median-interval.ts';
import { seededRandom } from '../../scripts/bench/seeded-random.ts';

/** Measures like the first answers' CPU: a level, and a spread of several ms from one isolate to the next. */
function isolates(count: number, level: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => level + random(1000) / 100);
}

describe("the first answers' bootstrap interval of a difference of medians", () => {
  it('holds the difference of the medians, and 0 when both sides are drawn alike', () => {
    const a = isolates(21, 20, 1);
    const b = isolates(21, 20, 2);
    const { low, high } = medianDifferenceInterval(a, b);
    expect(low).toBeLessThanOrEqual(median(a) - median(b));
    expect(high).toBeGreaterThanOrEqual(median(a) - median(b));
    expect(low).toBeLessThan(0);
    expect(high).toBeGreaterThan(0);
  });

  it('leaves 0 out where one side is 8 ms above the other, and narrows with more isolates', () => {
    const few = medianDifferenceInterval(isolates(11, 28, 3), isolates(11, 20, 4));
    const many = medianDifferenceInterval(isolates(61, 28, 3), isolates(61, 20, 4));
    expect(few.low).toBeGreaterThan(0);
    expect(many.low).toBeGreaterThan(0);
    expect(many.high - many.low).toBeLessThan(few.high - few.low);
    expect(many.low).toBeLessThan(8);
    expect(many.high).toBeGreaterThan(8);
  });

  it('gives the same interval for the same measures, and refuses a side without any', () => {
    const a = isolates(15, 25, 5);
    const b = isolates(15, 22, 6);
    expect(medianDifferenceInterval(a, b)).toEqual(medianDifferenceInterval(a, b));
    expect(() => medianDifferenceInterval([], b)).toThrow(RangeError);
  });

  it('takes the median of an even count as the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
  });
});
