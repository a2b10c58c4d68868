import { chmodSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BEHAVIOURS, type Behaviour, type Gaps } from '../../src/hosts/behaviours.ts';
import { loadMap } from '../../src/built-folder.ts';
import { registrantsRoute, type RewriteMap } from '../../src/plan/rewrite-map.ts';
import { caseBehaviours, isHeaderProblem } from './case-behaviours.ts';
import { EXACT_SETS, STATIC_SETS, checkCase, loadCases, parseDetail, type Profile } from './conformance.ts';
import { registrantStaticCases } from './registrant-static-cases.ts';
import { BEHAVIOUR_PROBES, differences, expectedExchange, type Exchange } from './host-behaviours.ts';
import { sendRaw } from './http.ts';
import { tempFolder } from './temp-folder.ts';

/**
 * The one suite every host runs (hono's `*.case.ts`): each public conformance set, built once per run
 * (test/global-setup.ts), served by the host, every case sent; then the behaviour probes behind the
 * host table of docs/hosts.md. A host's known failures are derived from the gaps it declares
 * (test/support/case-behaviours.ts); a case outside its gaps must pass, and a gap it declares must
 * really show on some probe.
 */
export interface HostDriver {
  name: string;
  /**
   * How the host answers: `static` (the default), as a host without code, by contract sections 3, 6
   * and 8, held to the static sets and the behaviour probes of the host table; `exact`, where code
   * runs, by section 9, held to the exact sets.
   */
  profile?: Profile;
  /** What the host cannot do (the adapter's `gaps`); the preview has none. */
  gaps: Gaps;
  /**
   * Serves a built set: emits the host's configuration (into `scratch`, a folder of its own, or into
   * `dir` itself for hosts that publish it with the site) and starts the host or its evaluator.
   */
  start(dir: string, scratch: string): Promise<RunningHost>;
  /** For hosts with gaps: the cases each set passed before, so that a host never loses one. */
  passesAtLeast?: Record<string, number>;
}

export interface RunningHost {
  /** An HTTP origin on loopback that answers as the host does. */
  url: string;
  stop(): Promise<void>;
}

/** A set as a host serves it, for a host's own tests beside the shared suite. */
export interface ServedSet {
  url: string;
  map: RewriteMap;
  dir: string;
  /** The host's own folder for this set, where `start` emitted its configuration. */
  scratch: string;
}

/**
 * Runs the shared suite for one host; `more` adds the host's own tests inside it, where the sets are
 * served (`served('lda-real')`).
 */
export function hostSuite(driver: HostDriver, more?: (served: (set: string) => ServedSet) => void): void {
  const sets: readonly string[] = driver.profile === 'exact' ? EXACT_SETS : STATIC_SETS;
  describe(`${driver.name}: the shared host suite`, () => {
    const temp = tempFolder(`mirror-${driver.name}-`);
    // Servers whose workers drop root (Apache as www-data) read their configuration here.
    chmodSync(temp.path, 0o755);
    const running = new Map<string, { host: RunningHost; map: RewriteMap; dir: string; scratch: string }>();

    beforeAll(async () => {
      const built = inject('builtSets');
      for (const set of sets) {
        const dir = built[set]!;
        const scratch = `${temp.path}/${set}`;
        mkdirSync(scratch, { recursive: true });
        running.set(set, { host: await driver.start(dir, scratch), map: await loadMap(dir), dir, scratch });
      }
    });

    afterAll(async () => {
      for (const { host } of running.values()) await host.stop();
      temp.remove();
    });

    describe.each(sets)('conformance set %s', (set) => {
      const cases = loadCases(set);
      let passed = 0;
      let ran = 0;
      it.each(cases.map((item) => [item.id, item.method, item.target, item] as const))('case %i: %s %s', async (_id, _m, _t, item) => {
        const problems = await checkCase(running.get(set)!.host.url, set, item);
        ran++;
        // A host that declares the headers gap is judged on status, body and Location alone.
        const unexplained = driver.gaps.headers === undefined ? problems : problems.filter((problem) => !isHeaderProblem(problem));
        if (unexplained.length === 0) passed++;
        const excuses = caseBehaviours(item).flatMap((behaviour) => driver.gaps[behaviour] ?? []);
        if (excuses.length > 0) return; // a declared gap: this host may answer otherwise
        expect(unexplained).toEqual([]);
      });

      it('passes at least as many cases as before', () => {
        const floor = driver.passesAtLeast?.[set];
        // Counted only when every case ran (not under `-t` picking a few).
        if (floor !== undefined && ran === cases.length) expect(passed, `${driver.name} passes ${passed} cases of ${set}`).toBeGreaterThanOrEqual(floor);
      });
    });

    // Contract section 10 where only files are served; no shared static set has registrant cases.
    describe.skipIf(driver.profile === 'exact')('the registrants list, unfiltered in ascending id (contract section 10)', () => {
      it('answers every page spelling and format with the list\'s bytes, and anything else with a 400 naming the parameter', async () => {
        const { host, map, dir } = running.get('synthetic-1k')!;
        const last = registrantsRoute(map)!.page.last;
        const problems: string[] = [];
        for (const item of await registrantStaticCases(dir, last)) {
          if (caseBehaviours(item).some((behaviour) => driver.gaps[behaviour] !== undefined)) continue; // a declared gap
          const response = await sendRaw(host.url, item.method, item.target);
          const body = response.body.toString('utf8');
          if (response.status !== item.status) problems.push(`${item.target}: status ${response.status}, expected ${item.status}`);
          else if (item.kind === 'detail400' && !(parseDetail(response.body) ?? '').includes(item.expected)) problems.push(`${item.target}: detail does not name ${item.expected}: ${body}`);
          else if (item.kind === 'exact' && body !== item.expected) problems.push(`${item.target}: body differs`);
        }
        expect(problems).toEqual([]);
      });
    });

    more?.((set) => {
      const { host, map, dir, scratch } = running.get(set)!;
      return { url: host.url, map, dir, scratch };
    });

    describe.skipIf(driver.profile === 'exact')('behaviours of the host table', () => {
      it.each(Object.keys(BEHAVIOURS) as Behaviour[])('%s', async (behaviour) => {
        const { host, map, dir } = running.get('lda-real')!;
        const problems: string[] = [];
        for (const probe of BEHAVIOUR_PROBES[behaviour]) {
          const actual: Exchange = await sendRaw(host.url, probe.method, probe.target);
          problems.push(...differences(behaviour, probe, expectedExchange(map, dir, probe), actual));
        }
        const gap = driver.gaps[behaviour];
        if (gap === undefined) expect(problems).toEqual([]);
        else expect(problems, `${driver.name} lists "${behaviour}" as a gap (${gap}) but answers like the preview`).not.toEqual([]);
      });
    });
  });
}

