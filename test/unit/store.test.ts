import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILTERS, FILTER_NAMES, ORDERINGS, type Ordering } from '../../src/contract.ts';
import { filterCodes } from '../../src/ingest/read-client-rows.ts';
import { clientFields, registrantFields } from '../../src/ingest/record-fields.ts';
import { validateClient } from '../../src/ingest/validate-record.ts';
import { RecordStore } from '../../src/store/record-store.ts';
import { clientRecord } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

let temp: ReturnType<typeof tempFolder>;
let store: RecordStore;
beforeEach(() => {
  temp = tempFolder();
  store = RecordStore.create(path.join(temp.path, 'store.sqlite'));
});
afterEach(() => {
  store.destroy();
  temp.remove();
});

function load(records: ReturnType<typeof clientRecord>[]): void {
  add(records);
  store.index(FILTER_NAMES);
}

function add(records: ReturnType<typeof clientRecord>[]): void {
  store.transaction(() => {
    for (const record of records) {
      const result = validateClient(record, { file: 't', line: 1 });
      if (!result.ok) throw new Error('invalid test record');
      const { client } = result;
      store.addRegistrant(client.registrantId, client.registrantUpdated, registrantFields(client.registrant));
      store.addClient(client.id, client.name, client.effectiveDate, client.registrantId, clientFields(client.record), filterCodes(client.record));
    }
  });
}

const ids = (ordering: Ordering) => [...store.clientsInOrder(ordering)].map((client) => client.id);

describe('orderings', () => {
  it('none is ascending id, -id descending', () => {
    load([clientRecord(3), clientRecord(1), clientRecord(2)]);
    expect(ids('')).toEqual([1, 2, 3]);
    expect(ids('-id')).toEqual([3, 2, 1]);
  });

  it('-name compares by code point, not locale nor UTF-16, equal names by descending id', () => {
    load([
      clientRecord(1, { name: 'apple' }),
      clientRecord(2, { name: 'Zebra' }),
      clientRecord(3, { name: 'Émile' }),
      clientRecord(4, { name: 'Zebra' }),
      clientRecord(5, { name: '\u{1F600} smile' }), // astral: after U+FF5E in code points, before it in UTF-16
      clientRecord(6, { name: '\uFF5E wave' }),
    ]);
    expect(ids('-name')).toEqual([5, 6, 3, 1, 4, 2]);
  });

  it('cuts the clients into ranges of ids of about the same size, each client in one range', () => {
    load([5, 1, 9, 3, 7, 2, 8, 4, 6, 10].map((id) => clientRecord(id * 100)));
    const bounds = store.clientIdBounds(4);
    expect(bounds).toEqual([300, 600, 800]);
    const ranges = [null, ...bounds, null].slice(1).map((to, i) => [...store.clientsInIdRange([null, ...bounds][i]!, to)].map((client) => client.id));
    expect(ranges).toEqual([[100, 200], [300, 400, 500], [600, 700], [800, 900, 1000]]);
    expect(store.clientIdBounds(1)).toEqual([]);
    expect(store.clientIdBounds(40)).toEqual([200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  });

  it('says which clients are ASCII only, their registrant included (their bytes are then copied, not encoded)', () => {
    load([clientRecord(1), clientRecord(2, { name: 'Émile' }), clientRecord(3, {}, { id: 7, name: 'Régie' }), clientRecord(4, {}, { id: 8, name: '\u{1F600}' })]);
    expect([...store.clientsInOrder('')].map((client) => [client.id, client.ascii])).toEqual([[1, 1], [2, 0], [3, 0], [4, 0]]);
    expect([...store.clientsByFilter('client_state', '')].map((client) => client.ascii)).toEqual([1, 0, 0, 0]);
    expect([...store.registrants()].map((registrant) => [registrant.id, registrant.ascii])).toEqual([[7, 0], [8, 0], [900, 1]]);
  });

  it('-effective_date puts nulls first, then newest, equal dates by descending id', () => {
    load([
      clientRecord(1, { effective_date: '2020-01-01' }),
      clientRecord(2, { effective_date: null }),
      clientRecord(3, { effective_date: '2024-05-01' }),
      clientRecord(4, { effective_date: '2020-01-01' }),
      clientRecord(5, { effective_date: null }),
    ]);
    expect(ids('-effective_date')).toEqual([5, 2, 3, 4, 1]);
  });

  it('no ordering sorts in memory: each reads an index in order', () => {
    load([clientRecord(1)]);
    for (const ordering of ORDERINGS) expect(store.queryPlan(ordering).join(' ')).not.toMatch(/TEMP B-TREE/);
  });

  it('nor does any ordering within the values of a filter by number, read value by value', () => {
    load([clientRecord(1)]);
    for (const filter of FILTER_NAMES.filter((name) => FILTERS[name].values === 'number')) {
      for (const ordering of ORDERINGS) expect(store.queryPlan(ordering, filter).join(' '), `${filter} ${ordering}`).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('lists the clients of each value of a filter together, in the ordering within them', () => {
    load([
      clientRecord(1, { state: 'TX', name: 'B' }),
      clientRecord(2, { state: 'AL', name: 'C' }),
      clientRecord(3, { state: 'TX', name: 'A' }),
      clientRecord(4, { state: null }),
      clientRecord(5, { state: '' }),
    ]);
    const rows = [...store.clientsByFilter('client_state', '-name')].map((client) => [client.values[0], client.id]);
    expect(rows).toEqual([['AL', 2], ['TX', 1], ['TX', 3]]);
    expect(store.filterValueCounts('client_state')).toEqual([{ value: 'AL', count: 1 }, { value: 'TX', count: 2 }]);
    add([clientRecord(6, { state: 'TX' })]);
    expect(store.filterValueCounts('client_state')).toEqual([{ value: 'AL', count: 1 }, { value: 'TX', count: 3 }]);
  });
});

describe('duplicates', () => {
  it('a client id seen twice: the later copy wins and is counted', () => {
    load([clientRecord(1, { name: 'FIRST' }), clientRecord(2), clientRecord(1, { name: 'SECOND' })]);
    const [first] = store.clientsInOrder('');
    expect(first!.fields).toContain('"name":"SECOND"');
    expect(store.counts()).toMatchObject({ clients: 2, replacedClients: 1 });
  });

  it('a registrant with differing copies: the latest dt_updated, read with its offset, is served everywhere', () => {
    load([
      clientRecord(1, {}, { name: 'NEWEST', dt_updated: '2025-01-01T10:00:00.000001-05:00' }),
      clientRecord(2, {}, { name: 'OLDER', dt_updated: '2025-01-01T10:30:00.000000-04:00' }),
      clientRecord(3, {}, { name: 'NO STAMP', dt_updated: null }),
    ]);
    const names = [...store.clientsInOrder('')].map((client) => /"name":"([^"]+)"/.exec(client.registrantFields)![1]);
    expect(names).toEqual(['NEWEST', 'NEWEST', 'NEWEST']);
    expect(store.counts()).toMatchObject({ registrants: 1, conflictedRegistrants: 1 });
  });

  it('a registrant repeated among differing copies: each copy counts, the latest wins, a tie goes to the later', () => {
    const [earlier, later] = ['2025-01-01T10:00:00.000000-05:00', '2025-02-01T10:00:00.000000-05:00'];
    load([
      clientRecord(1, {}, { name: 'A', dt_updated: later }),
      clientRecord(2, {}, { name: 'A', dt_updated: later }),
      clientRecord(3, {}, { name: 'B', dt_updated: earlier }),
      clientRecord(4, {}, { name: 'A', dt_updated: later }),
      clientRecord(5, {}, { name: 'C', dt_updated: later }),
      clientRecord(6, {}, { name: 'C', dt_updated: later }),
    ]);
    const names = [...store.clientsInOrder('')].map((client) => /"name":"([^"]+)"/.exec(client.registrantFields)![1]);
    expect(names).toEqual(['C', 'C', 'C', 'C', 'C', 'C']);
    expect(store.counts()).toMatchObject({ registrants: 1, conflictedRegistrants: 1 });
  });

  it('a registrant stored after a pass over the clients is the one the next pass embeds', () => {
    load([clientRecord(1, {}, { id: 7, name: 'FIRST', dt_updated: '2025-01-01T10:00:00.000000-05:00' }), clientRecord(2, {}, { id: 8, name: 'OTHER' })]);
    const embedded = () => [...store.clientsInOrder('')].map((client) => [client.registrantId, /"name":"([^"]+)"/.exec(client.registrantFields)![1]]);
    expect(embedded()).toEqual([[7, 'FIRST'], [8, 'OTHER']]);
    add([clientRecord(3, {}, { id: 7, name: 'LATER', dt_updated: '2025-03-01T10:00:00.000000-05:00' })]);
    expect(embedded()).toEqual([[7, 'LATER'], [8, 'OTHER'], [7, 'LATER']]);
    expect([...store.clientsByFilter('registrant_id', '')].map((client) => client.registrantFields)).toEqual([...store.clientsInOrder('')].sort((a, b) => a.registrantId - b.registrantId).map((client) => client.registrantFields));
  });

  it('identical copies of a registrant are no conflict', () => {
    load([clientRecord(1), clientRecord(2)]);
    expect(store.counts()).toMatchObject({ registrants: 1, conflictedRegistrants: 0 });
  });
});
