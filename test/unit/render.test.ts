import { describe, expect, it } from 'vitest';
import { assemblePage, clientBody, formatSuffix, pageHead, registrantBody } from '../../src/render/bodies.ts';
import { jsonText } from '../../src/json-text.ts';
import { listUrl, pageLinkJson } from '../../src/render/links.ts';
import { clientFields, registrantFields } from '../../src/ingest/record-fields.ts';

const base = 'http://mirror.test';

describe('JSON text', () => {
  it('writes non-ASCII raw and escapes U+2028 and U+2029', () => {
    expect(jsonText('Société\u2028Générale\u2029 中文')).toBe('"Société\\u2028Générale\\u2029 中文"');
  });

  it('writes control characters as short escapes or lower-case \\u00XX', () => {
    expect(jsonText('a\tb\nc\rd\be\ff\u0001g\u001fh"i\\j\u007f')).toBe('"a\\tb\\nc\\rd\\be\\ff\\u0001g\\u001fh\\"i\\\\j\u007f"');
  });

  it('is compact: no space after colons and commas', () => {
    expect(jsonText({ a: [1, null, true], b: 'x' })).toBe('{"a":[1,null,true],"b":"x"}');
  });
});

describe('record fields', () => {
  it('keeps the contract key order whatever the input order, and writes missing keys as null', () => {
    const fields = clientFields({ effective_date: '2024-01-01', name: 'ACME', client_id: 7, state: 'TX', extra: 'dropped' });
    expect(fields).toBe(
      '"client_id":7,"name":"ACME","general_description":null,"client_government_entity":null,' +
        '"client_self_select":null,"state":"TX","state_display":null,"country":null,"country_display":null,' +
        '"ppb_state":null,"ppb_state_display":null,"ppb_country":null,"ppb_country_display":null,' +
        '"effective_date":"2024-01-01"',
    );
  });

  it('writes registrant strings byte for byte, microseconds and offset included', () => {
    const fields = registrantFields({ dt_updated: '2025-07-24T11:34:51.894845-04:00', city: null, name: ' Mixed Case ' });
    expect(fields).toContain('"name":" Mixed Case "');
    expect(fields).toContain('"city":null');
    expect(fields.endsWith('"dt_updated":"2025-07-24T11:34:51.894845-04:00"')).toBe(true);
    expect(fields.startsWith('"house_registrant_id":null,')).toBe(true);
  });
});

describe('bodies', () => {
  const client = { id: 5, fields: '"client_id":5,"name":"A"', registrantId: 9, registrantFields: '"name":"R"' };

  it('embeds the registrant and ends every url with the format', () => {
    expect(clientBody(base, formatSuffix('api'), client)).toBe(
      '{"id":5,"url":"http://mirror.test/api/v1/clients/5/?format=api","client_id":5,"name":"A",' +
        '"registrant":{"id":9,"url":"http://mirror.test/api/v1/registrants/9/?format=api","name":"R"}}',
    );
  });

  it('has no query string in urls without a format', () => {
    expect(registrantBody(base, formatSuffix(''), 9, '"name":"R"')).toBe(
      '{"id":9,"url":"http://mirror.test/api/v1/registrants/9/","name":"R"}',
    );
  });

  it('writes an empty data set as one empty page', () => {
    expect(assemblePage({ head: pageHead(0, 'null', 'null'), results: [] })).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
  });
});

describe('links', () => {
  it('previous link of page 2 drops page', () => {
    expect(listUrl(base, undefined, '', '-id', 1)).toBe('http://mirror.test/api/v1/clients/?ordering=-id');
    expect(listUrl(base, undefined, '', '', 1)).toBe('http://mirror.test/api/v1/clients/');
  });

  it('sorts keys: format, ordering, page', () => {
    expect(listUrl(base, undefined, 'json', '-effective_date', 3)).toBe(
      'http://mirror.test/api/v1/clients/?format=json&ordering=-effective_date&page=3',
    );
  });

  it('carries the filter in use among the sorted keys (contract section 8)', () => {
    expect(listUrl(base, { name: 'client_state', value: 'TX' }, '', '-id', 3)).toBe('http://mirror.test/api/v1/clients/?client_state=TX&ordering=-id&page=3');
    expect(listUrl(base, { name: 'registrant_id', value: '7' }, '', '', 2)).toBe('http://mirror.test/api/v1/clients/?page=2&registrant_id=7');
    expect(listUrl(base, { name: 'client_ppb_country', value: 'US' }, 'api', '-name', 1)).toBe(
      'http://mirror.test/api/v1/clients/?client_ppb_country=US&format=api&ordering=-name',
    );
    expect(listUrl(base, { name: 'registrant_id', value: '7' }, 'json', '', 1)).toBe('http://mirror.test/api/v1/clients/?format=json&registrant_id=7');
  });

  it('is null past either end', () => {
    expect(pageLinkJson(base, undefined, 'api', '', 0, 4)).toBe('null');
    expect(pageLinkJson(base, undefined, 'api', '', 5, 4)).toBe('null');
    expect(pageLinkJson(base, undefined, 'api', '', 4, 4)).toBe('"http://mirror.test/api/v1/clients/?format=api&page=4"');
  });
});
