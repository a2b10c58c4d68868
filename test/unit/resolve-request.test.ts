import { describe, expect, it } from 'vitest';
import { createRewriteMap } from '../../src/plan/rewrite-map-builder.ts';
import { resolveRequest } from '../../src/routing/resolve-request.ts';

const map = createRewriteMap({ baseUrl: 'http://mirror.test', formats: ['', 'api', 'json'], clients: 1000, registrants: 10, filters: [] });
const get = (target: string, method = 'GET') => resolveRequest(map, method, target);
const file = (target: string) => {
  const answer = get(target);
  return answer.kind === 'file' ? answer.file : `${answer.status} ${answer.kind === 'error' ? answer.body : answer.location}`;
};

describe('page parameter', () => {
  it.each([
    ['/api/v1/clients/', 'api/v1/clients/index.json'],
    ['/api/v1/clients/?page=', 'api/v1/clients/index.json'],
    ['/api/v1/clients/?page=1', 'api/v1/clients/index.json'],
    ['/api/v1/clients/?page=02', 'api/v1/clients/page=2.json'],
    ['/api/v1/clients/?page=40', 'api/v1/clients/page=40.json'],
    ['/api/v1/clients/?page=last', 'api/v1/clients/page=40.json'],
  ])('%s is %s', (target, expected) => expect(file(target)).toBe(expected));

  it.each(['0', '-1', 'abc', '2.5', '41', '+2', ' 2', 'LAST', '1e1', '99999999999999999999999'])('page=%s is Invalid page.', (page) => {
    expect(file(`/api/v1/clients/?page=${encodeURIComponent(page)}`)).toBe('404 {"detail":"Invalid page."}');
  });
});

describe('query values', () => {
  it('are URL-decoded, names included', () => {
    expect(file('/api/v1/clients/?ordering=%2Did&%70age=%33')).toBe('api/v1/clients/ordering=-id/page=3.json');
  });

  it('count with their last value when repeated', () => {
    expect(file('/api/v1/clients/?page=2&page=3&format=xml&format=json')).toBe('api/v1/clients/format=json/page=3.json');
  });

  it('ignore unknown parameters and page_size of 25 or more, 0, negatives and non-integers', () => {
    for (const extra of ['utm_source=x', 'page_size=25', 'page_size=100', 'page_size=0', 'page_size=-5', 'page_size=ten']) {
      expect(file(`/api/v1/clients/?ordering=-name&${extra}&page=2`)).toBe('api/v1/clients/ordering=-name/page=2.json');
    }
  });

  it('treat an empty format or ordering as absent', () => {
    expect(file('/api/v1/clients/?format=&ordering=')).toBe('api/v1/clients/index.json');
  });
});

describe('errors', () => {
  it('an unknown format is Not found.', () => {
    expect(file('/api/v1/clients/?format=xml')).toBe('404 {"detail":"Not found."}');
  });

  it('an unsupported ordering names the value and what is supported', () => {
    expect(file('/api/v1/clients/?ordering=name')).toBe(
      '400 {"detail":"Unsupported ordering \\"name\\". Supported: -effective_date, -id, -name."}',
    );
  });

  it('echoed values are JSON-escaped and cut short', () => {
    const answer = get(`/api/v1/clients/?ordering=${encodeURIComponent('"\\\n')}${'x'.repeat(500)}`);
    expect(answer.kind === 'error' && JSON.parse(answer.body).detail).toMatch(/^Unsupported ordering ""\\\nx{97}\.\.\."/);
  });

  it('page_size from 1 to 24 is a 400 naming page_size', () => {
    expect(get('/api/v1/clients/?page_size=10')).toMatchObject({ status: 400, body: expect.stringContaining('page_size') });
  });

  it('a filter is a 400 naming it, unless empty', () => {
    expect(get('/api/v1/clients/?client_state=TX')).toMatchObject({ status: 400, body: expect.stringContaining('client_state') });
    expect(file('/api/v1/clients/?client_state=')).toBe('api/v1/clients/index.json');
  });

  it('any method but GET and HEAD is a 405 naming it', () => {
    expect(get('/api/v1/clients/', 'PUT')).toMatchObject({ status: 405, body: '{"detail":"Method \\"PUT\\" not allowed."}' });
    expect(get('/api/v1/clients/44400/', 'HEAD')).toMatchObject({ status: 200 });
  });

  it('the first problem in contract order answers: method, format, ordering, page_size, filters, page', () => {
    expect(get('/api/v1/clients/?format=xml&ordering=bad&page=0', 'POST').status).toBe(405);
    expect(get('/api/v1/clients/?format=xml&ordering=bad&page=0').status).toBe(404);
    expect(file('/api/v1/clients/?ordering=bad&page_size=3&page=0')).toContain('Unsupported ordering');
    expect(file('/api/v1/clients/?page_size=3&client_name=x&page=0')).toContain('page_size');
    expect(file('/api/v1/clients/?client_name=x&page=0')).toContain('client_name');
  });

  it('paths outside the API are Not found., whatever the method', () => {
    for (const target of ['/', '/api/v1/', '/api/v1/filings/', '/rewrite-map.json', '/api/v1/clients/index.json', '/api/v1/clients/format=api/page=2.json', '/api/v1/clients/44400/index.json', '/api/v1/clients/abc/']) {
      expect(file(target)).toBe('404 {"detail":"Not found."}');
    }
    expect(get('/etc/passwd', 'DELETE').status).toBe(404);
  });
});

describe('paths', () => {
  it('records keep only the format', () => {
    expect(file('/api/v1/clients/44400/?format=api&ordering=bogus')).toBe('api/v1/clients/44400/format=api.json');
    expect(file('/api/v1/registrants/9/')).toBe('api/v1/registrants/9/index.json');
    expect(file('/api/v1/registrants/9/?format=yaml')).toBe('404 {"detail":"Not found."}');
  });

  it('record ids lose leading zeros, as the live service reads them as integers', () => {
    expect(file('/api/v1/clients/0044400/')).toBe('api/v1/clients/44400/index.json');
    expect(file('/api/v1/clients/000/')).toBe('api/v1/clients/0/index.json');
  });

  it('repeated slashes are read as one, percent-encoded paths decoded', () => {
    expect(file('/api/v1/clients/44400//')).toBe('api/v1/clients/44400/index.json');
    expect(file('//api//v1/clients/?page=2')).toBe('api/v1/clients/page=2.json');
    expect(file('/api/v1/cli%65nts/%34%34400/')).toBe('api/v1/clients/44400/index.json');
  });

  it('a missing trailing slash is a 301 keeping the query', () => {
    expect(get('/api/v1/clients?ordering=-id&page=2')).toEqual({ kind: 'redirect', status: 301, location: '/api/v1/clients/?ordering=-id&page=2' });
    expect(get('/api/v1/clients/44400')).toEqual({ kind: 'redirect', status: 301, location: '/api/v1/clients/44400/' });
    expect(get('/api/v1/clients?')).toEqual({ kind: 'redirect', status: 301, location: '/api/v1/clients/?' });
  });

  it('malformed percent-encoding matches nothing', () => {
    expect(file('/api/v1/clients/%E0%A4%A/')).toBe('404 {"detail":"Not found."}');
  });
});

describe('formats not built', () => {
  const apiOnly = createRewriteMap({ baseUrl: 'http://mirror.test', formats: ['api'], clients: 3, registrants: 1, filters: [] });

  it('are Not found., the absent format included', () => {
    expect(resolveRequest(apiOnly, 'GET', '/api/v1/clients/')).toMatchObject({ status: 404, body: '{"detail":"Not found."}' });
    expect(resolveRequest(apiOnly, 'GET', '/api/v1/clients/?format=api')).toMatchObject({ file: 'api/v1/clients/format=api/index.json' });
  });

  it('an empty data set still has page 1 and nothing past it', () => {
    const empty = createRewriteMap({ baseUrl: 'http://mirror.test', formats: [''], clients: 0, registrants: 0, filters: [] });
    expect(resolveRequest(empty, 'GET', '/api/v1/clients/?page=last')).toMatchObject({ file: 'api/v1/clients/index.json' });
    expect(resolveRequest(empty, 'GET', '/api/v1/clients/?page=2')).toMatchObject({ status: 404 });
  });
});

describe('filters (contract section 8)', () => {
  const STATES = ['AL', 'TX', 'VA'];
  const COUNTRIES = ['US', 'CA', '00'];
  const filtered = createRewriteMap({
    baseUrl: 'http://mirror.test',
    formats: ['', 'api', 'json'],
    clients: 1000,
    registrants: 10,
    filters: [
      { name: 'registrant_id', choices: undefined, lastPages: { '7': 3 } },
      { name: 'client_state', choices: STATES, lastPages: { TX: 5 } },
      { name: 'client_country', choices: COUNTRIES, lastPages: {} },
    ],
  });
  const answer = (target: string) => {
    const found = resolveRequest(filtered, 'GET', target);
    if (found.kind === 'file') return `${found.file} (missing: ${found.missing.status} ${found.missing.body})`;
    return `${found.status} ${found.kind === 'error' ? found.body : found.location}`;
  };
  const EMPTY = '(missing: 200 {"count":0,"next":null,"previous":null,"results":[]})';
  const INVALID = '(missing: 404 {"detail":"Invalid page."})';

  it.each([
    ['?client_state=TX', `api/v1/clients/client_state=TX/index.json ${EMPTY}`],
    ['?client_state=TX&format=api&ordering=-id&page=2', `api/v1/clients/client_state=TX/format=api/ordering=-id/page=2.json ${INVALID}`],
    ['?client_state=TX&page=last', `api/v1/clients/client_state=TX/page=5.json ${INVALID}`],
    ['?client_state=VA&page=last', `api/v1/clients/client_state=VA/index.json ${EMPTY}`],
    ['?client_state=TX&page=6', '404 {"detail":"Invalid page."}'],
    ['?client_state=VA&page=2', '404 {"detail":"Invalid page."}'],
    ['?client_country=00', `api/v1/clients/client_country=00/index.json ${EMPTY}`],
    ['?client_state=&ordering=-id', `api/v1/clients/ordering=-id/index.json ${INVALID}`],
    ['?client_state=VA&client_state=TX&page=5', `api/v1/clients/client_state=TX/page=5.json ${INVALID}`],
  ])('%s is %s', (query, expected) => expect(answer(`/api/v1/clients/${query}`)).toBe(expected));

  it.each([
    ['7', 'registrant_id=7/page=3.json'],
    ['007', 'registrant_id=7/page=3.json'],
    ['%2B7', 'registrant_id=7/page=3.json'],
    ['7.9', 'registrant_id=7/page=3.json'],
    ['0.7e1', 'registrant_id=7/page=3.json'],
    ['70e-1', 'registrant_id=7/page=3.json'],
    ['%207%09', 'registrant_id=7/page=3.json'],
    ['7_0e-1', 'registrant_id=7/page=3.json'],
    ['%D9%A7', 'registrant_id=7/page=3.json'],
    ['8', 'registrant_id=8/index.json'],
    ['-0.5', 'registrant_id=0/index.json'],
    ['-8', 'registrant_id=-8/index.json'],
  ])('registrant_id=%s&page=last names %s', (value, file) => {
    expect(answer(`/api/v1/clients/?registrant_id=${value}&page=last`)).toMatch(new RegExp(`^api/v1/clients/${file.replace(/[.+]/g, '\\$&')} `));
  });

  it('a number too long to be an id is the empty list on page 1 and Invalid page. after it', () => {
    expect(answer('/api/v1/clients/?registrant_id=1e999999999')).toBe('200 {"count":0,"next":null,"previous":null,"results":[]}');
    expect(answer('/api/v1/clients/?registrant_id=12345678901234567890&page=last')).toBe('200 {"count":0,"next":null,"previous":null,"results":[]}');
    expect(answer('/api/v1/clients/?registrant_id=12345678901234567890&page=2')).toBe('404 {"detail":"Invalid page."}');
  });

  it.each(['abc', 'NaN', 'Infinity', '-inf', '0x10', '%20', '1e', '.', '+', '7%207', '1,5', '%C2%BD'])('registrant_id=%s is not a number', (value) => {
    expect(answer(`/api/v1/clients/?registrant_id=${value}&page=999`)).toBe('400 {"registrant_id":["Enter a number."]}');
  });

  it('an invalid choice is the live service\'s own body, the value echoed whole and JSON-escaped', () => {
    expect(answer('/api/v1/clients/?client_state=tx')).toBe('400 {"client_state":["Select a valid choice. tx is not one of the available choices."]}');
    expect(answer('/api/v1/clients/?client_country=%22U%5CS%22%0A%C3%A9')).toBe(
      '400 {"client_country":["Select a valid choice. \\"U\\\\S\\"\\né is not one of the available choices."]}',
    );
    const long = 'X'.repeat(300);
    expect(answer(`/api/v1/clients/?client_state=${long}`)).toContain(`${long} is not one`);
  });

  it('judges in the contract\'s order: format, ordering, then filters, then the value, then the page', () => {
    expect(answer('/api/v1/clients/?format=xml&client_state=ZZ')).toBe('404 {"detail":"Not found."}');
    expect(answer('/api/v1/clients/?ordering=name&client_state=ZZ')).toMatch(/^400 \{"detail":"Unsupported ordering/);
    expect(answer('/api/v1/clients/?client_name=X&client_state=ZZ')).toMatch(/^400 \{"detail":"Unsupported filter client_name/);
    expect(answer('/api/v1/clients/?client_state=ZZ&registrant_id=abc')).toMatch(/^400 \{"detail":"Filters registrant_id and client_state cannot be combined/);
    expect(answer('/api/v1/clients/?client_state=ZZ&page=abc')).toMatch(/^400 \{"client_state"/);
  });

  it('a filter not built, and the lookups no file can answer, say what to use instead', () => {
    expect(answer('/api/v1/clients/?client_ppb_state=TX')).toMatch(/client_ppb_state.*--filters registrant_id,client_state,client_country,client_ppb_state/);
    expect(answer('/api/v1/clients/?id=5')).toMatch(/Unsupported filter id.*\/api\/v1\/clients\/<id>\//);
    expect(answer('/api/v1/clients/?registrant_name=acme')).toMatch(/registrant_name.*registrant_id/);
  });

  it('an empty value is no filter at all', () => {
    expect(answer('/api/v1/clients/?client_name=&id=&registrant_id=&client_state=TX')).toMatch(/^api\/v1\/clients\/client_state=TX\/index.json/);
  });
});
