import { describe, expect, it } from 'vitest';
import { createRewriteMap } from '../src/plan/rewrite-map.ts';
import { resolveRequest } from '../src/routing/resolve-request.ts';

const map = createRewriteMap({ baseUrl: 'http://mirror.test', formats: ['', 'api', 'json'], clients: 1000, registrants: 10 });
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
    for (const target of ['/', '/api/v1/', '/api/v1/registrants/', '/rewrite-map.json', '/api/v1/clients/index.json', '/api/v1/clients/format=api/page=2.json', '/api/v1/clients/44400/index.json', '/api/v1/clients/abc/']) {
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
  const apiOnly = createRewriteMap({ baseUrl: 'http://mirror.test', formats: ['api'], clients: 3, registrants: 1 });

  it('are Not found., the absent format included', () => {
    expect(resolveRequest(apiOnly, 'GET', '/api/v1/clients/')).toMatchObject({ status: 404, body: '{"detail":"Not found."}' });
    expect(resolveRequest(apiOnly, 'GET', '/api/v1/clients/?format=api')).toMatchObject({ file: 'api/v1/clients/format=api/index.json' });
  });

  it('an empty data set still has page 1 and nothing past it', () => {
    const empty = createRewriteMap({ baseUrl: 'http://mirror.test', formats: [''], clients: 0, registrants: 0 });
    expect(resolveRequest(empty, 'GET', '/api/v1/clients/?page=last')).toMatchObject({ file: 'api/v1/clients/index.json' });
    expect(resolveRequest(empty, 'GET', '/api/v1/clients/?page=2')).toMatchObject({ status: 404 });
  });
});
