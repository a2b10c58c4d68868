import type { QueryBundle } from '../bundle/query-bundle.ts';
import { selectClients } from './client-selection.ts';
import type { Criteria } from './filter-form.ts';
import { orderAll, orderSelected, type OrderFragments } from './fragment-order.ts';
import { clientText, type PagedRecords } from './list-answer.ts';
import type { RecordKind } from './list-resource.ts';
import type { SortTerm } from './ordering-terms.ts';
import { orderRegistrants, registrantText } from './registrant-list.ts';

/**
 * Where the records of each kind of list are kept in the query bundle, behind one interface: the
 * records a request's criteria select, in the order of its terms (read page by page as asked, and
 * weighed for the result cache), and the body of one of them. The lists themselves are descriptions
 * (list-resource.ts): clients, a hundred thousand and more, are found through the segments' key
 * indexes and ordered through the order fragments; registrants, a few tens of thousands, in columns.
 */
export interface ListEngine {
  ordered(bundle: QueryBundle, criteria: Criteria, terms: readonly SortTerm[], pause: () => Promise<void>): Promise<OrderedRecords>;
  text(bundle: QueryBundle, index: number, base: string, suffix: string): Promise<string>;
}

export interface OrderedRecords extends PagedRecords {
  /** What it holds now, in bytes: the result cache's weight. */
  readonly bytes: number;
}

export const LIST_ENGINES: Readonly<Record<RecordKind, ListEngine>> = {
  client: {
    async ordered(bundle, criteria, terms, pause) {
      const selected = await selectClients(bundle, criteria, pause);
      const order = selected === undefined ? orderAll(orderFragments(bundle), terms) : orderSelected(orderFragments(bundle), selected, terms);
      // Each page reads through its own answer's view: one view a slice, the same fragment read once in it.
      return {
        count: order.count,
        get bytes() {
          return order.bytes;
        },
        slice: (from, to, view) => order.slice(from, to, (field, k) => view.orderFragment(field, k)),
      };
    },
    text: clientText,
  },
  registrant: {
    async ordered(bundle, criteria, terms) {
      const order = await orderRegistrants(bundle, criteria, terms);
      // An order of places in memory: four bytes a registrant.
      return { count: order.count, slice: (from, to) => order.slice(from, to), bytes: 4 * order.count };
    },
    text: registrantText,
  },
};

/**
 * The bundle's order fragments, for an order kept by the result cache and read again by later
 * requests' pages, none of which may wait on a read of another: every page's reads go through the
 * view its slice is given, never through the view of the answer that made the order.
 */
function orderFragments(bundle: QueryBundle): OrderFragments {
  const { clients, orders } = bundle.manifest;
  return {
    total: clients,
    places: orders.places,
    nullDates: orders.nullDates,
    fragment: () => Promise.reject(new Error('an order read without the view of the answer asking (list-engines.ts)')),
    // Reads nothing: what every view of the bundle holds already.
    heldPlaces: (field) => bundle.heldOrderPlaces(field),
  };
}
