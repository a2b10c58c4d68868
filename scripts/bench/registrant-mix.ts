import { LIST_PATH, REGISTRANT_PATH_PREFIX as REGISTRANTS_PATH } from '../../src/contract.ts';
import { searchText } from '../../src/bundle/search-text.ts';
import { servedRegistrants } from './first-registrant-requests.ts';
import type { InputClient } from './input-clients.ts';
import { seededRandom } from './seeded-random.ts';

/**
 * The requests real programs send about registrants (issue 40), for the memory sequence's warm-up:
 * the R package lobby's `lob_list_registrants(registrant_name = ...)` and the Ruby client, which also
 * sends `country`, each following `next` (page 1, 2 and the last); and a script that looks a firm up
 * by name, then reads its record and lists its clients (`registrant_id`). Drawn from the bench's
 * input, seeded: a piece of a registrant's name, 3 to 12 characters in a random case; its country a
 * third of the time; an ordering of none, `name`, `-dt_updated` or `id`; `page_size` 25 or 100.
 */
const ORDERINGS = ['', 'name', '-dt_updated', 'id'];
const PAGE_SIZES = [25, 100];
const MAX_PAGE_SIZE = 25;

export function registrantMix(clients: readonly InputClient[], size = 500, seed = 40): string[] {
  const registrants = servedRegistrants(clients);
  const names = registrants.map((registrant) => searchText(registrant.name));
  const random = seededRandom(seed);
  const targets: string[] = [];
  while (targets.length < size) {
    const r = random(registrants.length);
    const registrant = registrants[r]!;
    const name = names[r]!;
    const length = Math.min(name.length, 3 + random(10));
    const piece = name.slice(random(name.length - length + 1)).slice(0, length).trim();
    if (piece.length === 0) continue;
    const typed = Array.from(piece, (point) => (random(2) === 0 ? point.toLowerCase() : point)).join('');
    const country = random(3) === 0 && typeof registrant.country === 'string' ? registrant.country : undefined;
    const count = names.filter((other, i) => other.includes(piece) && (country === undefined || registrants[i]!.country === country)).length;
    const pageSize = PAGE_SIZES[random(PAGE_SIZES.length)]!;
    const ordering = ORDERINGS[random(ORDERINGS.length)]!;
    const last = Math.max(1, Math.ceil(count / Math.min(pageSize, MAX_PAGE_SIZE)));
    for (const page of new Set([1, 2, last].filter((page) => page <= last))) {
      const query = [`registrant_name=${encodeURIComponent(typed)}`];
      if (country !== undefined) query.push(`country=${country}`);
      if (ordering !== '') query.push(`ordering=${ordering}`);
      if (page > 1) query.push(`page=${page}`);
      query.push(`page_size=${pageSize}`);
      targets.push(`${REGISTRANTS_PATH}?${query.join('&')}`);
    }
    // The firm found: its record, then its clients, first and last page.
    targets.push(`${REGISTRANTS_PATH}${registrant.id}/`, `${LIST_PATH}?registrant_id=${registrant.id}`, `${LIST_PATH}?registrant_id=${registrant.id}&page=last`);
  }
  return targets.slice(0, size);
}
