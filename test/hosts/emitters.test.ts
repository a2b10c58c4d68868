import { describe, expect, it } from 'vitest';
import { HOSTS } from '../../src/hosts/hosts.ts';
import type { RewriteMap, Step } from '../../src/plan/rewrite-map.ts';
import { createRewriteMap } from '../../src/plan/rewrite-map-builder.ts';
import { resolveRequest } from '../../src/routing/resolve-request.ts';

/**
 * Every host's configuration is a translation of the map's steps, so a step of a kind a host does not
 * know must stop the emit (or, where the host runs the router, the request) rather than be skipped:
 * a skipped step would serve files for requests the map rejects.
 */
const map = createRewriteMap({ baseUrl: 'https://m.example.org', formats: ['', 'api', 'json'], clients: 74, registrants: 62, filters: [] });
const unknown = { step: 'sort', param: 'sort' } as unknown as Step;
const withUnknownStep: RewriteMap = { ...map, routes: map.routes.map((route) => ({ ...route, steps: [...route.steps, unknown] })) };

/** Hosts that embed the router itself rather than translating the steps. */
const RUNS_THE_ROUTER = ['cloudfront'];
/** Hosts that translate the map's steps: not those that run the router, nor those that run the answerer (`exact`), which reads the bundle. */
const TRANSLATES_STEPS = HOSTS.filter((host) => !RUNS_THE_ROUTER.includes(host.name) && host.profile !== 'exact');

describe('a step of a kind the host does not know', () => {
  it.each(TRANSLATES_STEPS.map((host) => [host.name, host] as const))('stops the %s emit', (_name, host) => {
    expect(() => host.emit({ map: withUnknownStep, dir: '/srv/mirror', listen: { address: '127.0.0.1', port: 8080 } })).toThrow(/sort/);
  });

  it('stops the router, which the preview, the Worker and the Function run, instead of answering without it', () => {
    expect(() => resolveRequest(withUnknownStep, 'GET', '/api/v1/clients/')).toThrow(/unknown step sort/);
    expect(resolveRequest(map, 'GET', '/api/v1/clients/')).toMatchObject({ kind: 'file', file: 'api/v1/clients/index.json' });
  });
});
