/** Searches of the ascending arrays of the query bundle (ids, keys, starts). */

/** Where `value` is in an ascending array, or -1. */
export function sortedIndexOf(values: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = values[middle]!;
    if (at < value) low = middle + 1;
    else if (at > value) high = middle - 1;
    else return middle;
  }
  return -1;
}

/** How many values of an ascending array are at most `value`: where it would go, after its equals. */
export function upperBound(values: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
