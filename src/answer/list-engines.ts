import type { QueryBundle } from '../bundle/query-bundle.ts';
import { orderClients, type OrderedClients } from './client-order.ts';
import { selectClients } from './client-selection.ts';
import type { Criteria } from './filter-form.ts';
import { clientText } from './list-answer.ts';
import type { RecordKind } from './list-resource.ts';
import type { SortTerm } from './ordering-terms.ts';
import { orderRegistrants, registrantText } from './registrant-list.ts';

/**
 * Where the records of each kind of list are kept in the query bundle, behind one interface: the
 * records a request's criteria select, in the order of its terms, and the body of one of them. The
 * lists themselves are descriptions (list-resource.ts); clients, a hundred thousand and more, are
 * kept in index segments read segment by segment, registrants, a few tens of thousands, in columns.
 */
export interface ListEngine {
  ordered(bundle: QueryBundle, criteria: Criteria, terms: readonly SortTerm[], pause: () => Promise<void>): Promise<OrderedClients>;
  text(bundle: QueryBundle, index: number, base: string, suffix: string): Promise<string>;
}

export const LIST_ENGINES: Readonly<Record<RecordKind, ListEngine>> = {
  client: {
    ordered: async (bundle, criteria, terms, pause) => orderClients(bundle, await selectClients(bundle, criteria, pause), terms),
    text: clientText,
  },
  registrant: {
    ordered: (bundle, criteria, terms) => orderRegistrants(bundle, criteria, terms),
    text: registrantText,
  },
};
