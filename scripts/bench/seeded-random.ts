/**
 * A seeded source of whole numbers (mulberry32): the bench's picks are the same every run, so that
 * two runs ask the same requests. (The linear generator used before lost bits past 2^53 and its low
 * bits repeat: 284 distinct pages of 2,000 at 30,000 records.)
 */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed | 0;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
  };
}
