import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTERS, FILTER_NAMES, LIST_PATH, ORDERINGS, type Format } from '../../src/contract.ts';
import { filterChoices } from '../../src/choices/filter-choices.ts';
import { filterCodes } from '../../src/ingest/read-client-rows.ts';
import { clientFields, registrantFields } from '../../src/ingest/record-fields.ts';
import { validateClient } from '../../src/ingest/validate-record.ts';
import { valueCounts } from '../../src/plan/filter-plans.ts';
import { lastPageFor } from '../../src/plan/page-count.ts';
import type { RewriteMap } from '../../src/plan/rewrite-map.ts';
import { createRewriteMap } from '../../src/plan/rewrite-map-builder.ts';
import { listPageFile } from '../../src/plan/site-layout.ts';
import { siteUnits, unitFolders, type SiteUnit } from '../../src/plan/site-units.ts';
import { assemblePage, listPageParts } from '../../src/render/bodies.ts';
import { unitFiles } from '../../src/render/site-files.ts';
import { RecordStore } from '../../src/store/record-store.ts';
import { clientRecord } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The lists of a filter with a choice list are cut from the unfiltered list's pass (one read of the
 * store per ordering); a filter by number is read value by value. Both must give the very files that
 * reading each filter value by value gives.
 */
const temp = tempFolder();
const store = RecordStore.create(path.join(temp.path, 'store.sqlite'));
const formats: Format[] = ['', 'api'];
let map: RewriteMap;

beforeAll(() => {
  // 400 clients: a state with many pages, states and countries with one short page, codes no choice list has, none at all.
  const states = ['TX', 'TX', 'TX', 'CA', 'AL', null, 'ZZ', 'NY', 'TX', 'CA', 'GU'];
  const countries = ['US', 'US', 'US', 'US', 'CA', 'GB', null, 'XX', 'US', 'FR', 'JP', 'US', 'US'];
  store.transaction(() => {
    for (let id = 1; id <= 400; id++) {
      const record = clientRecord(
        id,
        {
          name: `CLIENT ${(id * 7919) % 97} ${id % 3 === 0 ? 'É' : ''}`,
          state: states[id % states.length],
          country: countries[(id * 3) % countries.length],
          ppb_state: id % 4 === 0 ? null : states[(id * 5) % states.length],
          ppb_country: countries[(id * 7) % countries.length],
          effective_date: id % 9 === 0 ? null : `20${10 + (id % 13)}-0${1 + (id % 9)}-1${id % 10}`,
        },
        { id: 900 + (id % 6), name: `REGISTRANT ${id % 6}` },
      );
      const result = validateClient(record, { file: 't', line: id });
      if (!result.ok) throw new Error('invalid test record');
      const { client } = result;
      store.addRegistrant(client.registrantId, client.registrantUpdated, registrantFields(client.registrant));
      store.addClient(client.id, client.name, client.effectiveDate, client.registrantId, clientFields(client.record), filterCodes(client.record));
    }
  });
  store.index(FILTER_NAMES);
  const filters = FILTER_NAMES.map((name) => {
    const choices = filterChoices(name);
    const lastPages: Record<string, number> = {};
    for (const [value, count] of valueCounts(store, name, choices)) if (lastPageFor(count) > 1) lastPages[value] = lastPageFor(count);
    return { name, choices, lastPages };
  });
  const counts = store.counts();
  map = createRewriteMap({ baseUrl: 'https://m.example.org', formats, clients: counts.clients, registrants: counts.registrants, filters });
});
afterAll(() => {
  store.destroy();
  temp.remove();
});

/** The files of a unit, by path, as the bytes' text. */
function filesOf(unit: SiteUnit): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of unitFiles(store, map, formats, unit, { choices: { states: filterChoices('client_state')!, countries: filterChoices('client_country')! } })) {
    expect(files.has(file.path), file.path).toBe(false);
    files.set(file.path, file.body ?? (file.page === undefined ? new TextDecoder().decode(file.data) : assemblePage(listPageParts(file.page))));
  }
  return files;
}

describe('the units of the site', () => {
  it('cut the lists of the choice filters from the unfiltered list, and read registrant_id value by value', () => {
    const units = siteUnits(map);
    const choiceFilters = FILTER_NAMES.filter((name) => FILTERS[name].values !== 'number');
    expect(units.filter((unit) => unit.kind === 'list')).toEqual(ORDERINGS.map((ordering) => ({ kind: 'list', ordering, filters: choiceFilters })));
    expect(units.filter((unit) => unit.kind === 'filtered')).toEqual(ORDERINGS.map((ordering) => ({ kind: 'filtered', filter: 'registrant_id', ordering })));
  });

  it('name, before rendering, the folders of their files: each unit\'s exactly, the fixed unit\'s none', () => {
    const units = siteUnits(map, store.clientIdBounds(3));
    expect(units.filter((unit) => unit.kind === 'clients')).toHaveLength(3);
    for (const unit of units) {
      const folders = [...unitFolders(store, map, formats, unit)];
      expect(new Set(folders).size, JSON.stringify(unit)).toBe(folders.length);
      const filesIn = new Set([...filesOf(unit).keys()].map((file) => file.slice(0, file.lastIndexOf('/') + 1)));
      if (unit.kind === 'fixed') expect(folders).toEqual([]);
      else expect(folders.sort(), JSON.stringify(unit)).toEqual([...filesIn].sort());
    }
  });

  it.each(ORDERINGS)('give, in one pass in ordering "%s", the files of every value of each choice filter read value by value', (ordering) => {
    const choiceFilters = FILTER_NAMES.filter((name) => FILTERS[name].values !== 'number');
    const expected = filesOf({ kind: 'list', ordering });
    for (const filter of choiceFilters) {
      const byValue = filesOf({ kind: 'filtered', filter, ordering });
      expect(byValue.size).toBeGreaterThan(formats.length);
      for (const [file, text] of byValue) expected.set(file, text);
    }
    const onePass = filesOf({ kind: 'list', ordering, filters: choiceFilters });
    expect([...onePass.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [file, text] of onePass) expect(text, file).toBe(expected.get(file));
    // Texas has pages beyond the first; codes that no choice list has (ZZ, XX) have no lists.
    expect(onePass.has(listPageFile(LIST_PATH, { name: 'client_state', value: 'TX' }, 'api', ordering, 2))).toBe(true);
    expect([...onePass.keys()].some((file) => /=(ZZ|XX)\//.test(file))).toBe(false);
  });
});
