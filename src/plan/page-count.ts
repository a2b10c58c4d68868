import { PAGE_SIZE } from '../contract.ts';

/** The number of the last page: an empty data set is still one (empty) page (contract section 3). */
export function lastPageFor(count: number): number {
  return Math.max(1, Math.ceil(count / PAGE_SIZE));
}
