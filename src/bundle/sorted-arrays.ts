/** Searches of the ascending arrays of the query bundle (ids, keys, starts). */

/** Where `value` is in an ascending array (numbers, or strings by `<`), or -1. */
export function sortedIndexOf<T extends number | string>(values: ArrayLike<T>, value: T): number {
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

/** How many values of an ascending array are at most `value`: where it would go, after its equals (numbers, or strings by `<`: the key index's first keys). */
export function upperBound<T extends number | string>(values: ArrayLike<T>, value: T): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
