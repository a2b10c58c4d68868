/**
 * The pieces of names that the most names hold, by one rule for the bench's first requests
 * (scripts/bench/first-requests.ts, first-registrant-requests.ts) and the programs' warm-up requests (warm-up/warm-up-bundle.ts): so that
 * the warm-up asks what the bench measures.
 */

/** The words of a name (in search text: upper case), three characters or more. */
export const wordsOf = (name: string): string[] => name.split(/[^A-Z0-9]+/).filter((part) => part.length >= 3);

/** The pairs of letters a name holds. */
export const pairsOf = (name: string): string[] =>
  Array.from({ length: Math.max(0, name.length - 1) }, (_, i) => name.slice(i, i + 2)).filter((two) => /^[A-Z]{2}$/.test(two));

/** The piece that the most items hold (each item counted once per piece); ties to the first in code-unit order. */
export function commonest<T>(items: readonly T[], pieces: (item: T) => string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) for (const piece of new Set(pieces(item))) counts.set(piece, (counts.get(piece) ?? 0) + 1);
  let best = '';
  let bestCount = -1;
  for (const [piece, count] of counts) {
    if (count > bestCount || (count === bestCount && piece < best)) [best, bestCount] = [piece, count];
  }
  return best;
}
