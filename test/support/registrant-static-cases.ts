import { createAnswerer } from '../../src/answer/answerer.ts';
import { bundleFolderReader } from '../../src/built-folder.ts';
import type { ConformanceCase } from './conformance.ts';

/**
 * The registrants list where only files are served (contract section 10), as cases written from the
 * contract: the unfiltered list in ascending id, with section 3's page spellings and the formats, and
 * the 400 of section 6 naming the parameter for anything else. There is no static registrants set
 * in the shared conformance material, so the bodies are the answerer's over the same build (the
 * build's renderer, composed where code runs), for the canonical spelling of each request.
 */
export interface RegistrantCase extends ConformanceCase {
  /** The expected body (an `exact` case), or the parameter a `detail400` case must name. */
  expected: string;
}

export async function registrantStaticCases(dir: string, lastPage: number): Promise<RegistrantCase[]> {
  const answerer = createAnswerer(bundleFolderReader(dir));
  const pages: [target: string, canonical: string][] = [
    ['/api/v1/registrants/', '/api/v1/registrants/'],
    ['/api/v1/registrants/?page=', '/api/v1/registrants/'],
    ['/api/v1/registrants/?page=1', '/api/v1/registrants/'],
    ['/api/v1/registrants/?page=2', '/api/v1/registrants/?page=2'],
    ['/api/v1/registrants/?page=002', '/api/v1/registrants/?page=2'],
    ['/api/v1/registrants/?page=last', `/api/v1/registrants/?page=${lastPage}`],
    ['/api/v1/registrants/?format=json&page=2', '/api/v1/registrants/?format=json&page=2'],
    ['/api/v1/registrants/?format=api&page=last', `/api/v1/registrants/?format=api&page=${lastPage}`],
    ['/api/v1/registrants/?page_size=25', '/api/v1/registrants/'],
  ];
  const cases: RegistrantCase[] = [];
  for (const [target, canonical] of pages) {
    const answer = await answerer.answer('GET', canonical);
    if (answer.status !== 200) throw new Error(`the answerer answers ${canonical} with ${answer.status}`);
    cases.push({ id: cases.length + 1, method: 'GET', target, kind: 'exact', status: 200, expected: answer.body });
  }
  cases.push({ id: cases.length + 1, method: 'GET', target: `/api/v1/registrants/?page=${lastPage + 1}`, kind: 'exact', status: 404, expected: '{"detail":"Invalid page."}' });
  const rejected: [param: string, value: string][] = [
    ['ordering', 'name'],
    ['ordering', '-id'],
    ['page_size', '10'],
    ['registrant_name', 'strategies'],
    ['state', 'DC'],
    ['country', 'US'],
    ['ppb_country', 'US'],
    ['id', '5'],
    ['dt_updated_after', '2020-01-01'],
    ['dt_updated_before', '2020-01-01T12:00:00Z'],
  ];
  for (const [param, value] of rejected) {
    cases.push({ id: cases.length + 1, method: 'GET', target: `/api/v1/registrants/?${param}=${encodeURIComponent(value)}`, kind: 'detail400', status: 400, expected: param });
  }
  return cases;
}
