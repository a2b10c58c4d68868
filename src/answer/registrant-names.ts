import type { QueryBundle } from '../bundle/query-bundle.ts';
import { namesHolding } from './key-search.ts';

/**
 * `registrant_name`, on the registrants list and on the clients: the places (in id order, ascending)
 * of the registrants whose upper-cased name holds `pattern` (upper-cased UTF-8, search-text.ts), from
 * the registrants' key index (bundle/registrant-keys.ts) as a client name search finds clients: only
 * the fragments of the pattern's keys are read, and no name.
 */
export function registrantsNamed(bundle: QueryBundle, pattern: Uint8Array): Promise<Int32Array> {
  const keys = bundle.manifest.registrantKeys;
  return namesHolding((key) => bundle.registrantKeyFragment(key), pattern, keys.maxNameBytes, keys.firstKeys, keys.words);
}
