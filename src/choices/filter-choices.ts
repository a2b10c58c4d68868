import { readFileSync } from 'node:fs';
import { FILTERS, type FilterName } from '../contract.ts';

/**
 * The values the live service accepts for its state and country filters (contract section 8): copies
 * of its own lists, src/choices/lda-states.json and lda-countries.json (a test keeps them equal to
 * the shared fixtures). Read beside this module, so the compiled package carries them too.
 */
const CHOICE_FILES = { states: 'lda-states.json', countries: 'lda-countries.json' } as const;

const loaded = new Map<string, string[]>();

function choiceList(kind: keyof typeof CHOICE_FILES): string[] {
  let values = loaded.get(kind);
  if (values === undefined) {
    const entries = JSON.parse(readFileSync(new URL(`./${CHOICE_FILES[kind]}`, import.meta.url), 'utf8')) as { value: string }[];
    values = entries.map((entry) => entry.value);
    loaded.set(kind, values);
  }
  return values;
}

/** The values a choice filter accepts, in the list's order; undefined for a number filter. */
export function filterChoices(name: FilterName): string[] | undefined {
  const kind = FILTERS[name].values;
  return kind === 'number' ? undefined : choiceList(kind);
}
