import { encodeKeyIndex, type KeyFragmentFile } from './key-index.ts';

/**
 * The registrants' names as a key index of their own (bundle/key-index.ts): one segment of every
 * registrant listed, numbered by place in id order, with name keys only. `registrant_name`, on the
 * registrants list and on the clients, reads the fragments of its pattern's keys (a few of about
 * 16 KB) and intersects their lists, exactly, as a client name search does (answer/key-search.ts),
 * instead of reading every registrant's name (440 KB at 17,299 registrants) and searching them one by
 * one: a common word's matches cost a fresh isolate 25 ms of CPU that way. Cut into `fragments`, as
 * many as a segment of clients of the same count (plan/bundle-layout.ts).
 */
export function encodeRegistrantKeys(names: readonly string[], fragments: number): { fragments: KeyFragmentFile[]; maxNameBytes: number; words: string[] } {
  const none = names.map(() => null);
  return encodeKeyIndex({ names, values: { state: none, country: none, ppbState: none, ppbCountry: none, registrant: none } }, { fragments });
}
