import { describe, expect, it } from 'vitest';
import { BEHAVIOURS, type Behaviour } from '../../src/hosts/behaviours.ts';
import type { HostAdapter } from '../../src/hosts/host-adapter.ts';
import type { RewriteMap } from '../../src/plan/rewrite-map.ts';
import { BEHAVIOUR_PROBES, differences, expectedExchange, type Exchange, type Probe } from './host-behaviours.ts';

export interface HostUnderTest {
  map: RewriteMap;
  /** The built folder the host serves. */
  dir: string;
  /** Sends one request to the host (a real server, or the emitted rules evaluated) and returns its answer. */
  send(probe: Probe): Promise<Exchange>;
}

/**
 * One test per column of the README's host table: a behaviour the host claims answers every probe as
 * the preview does; a behaviour it lists as a gap must really differ on some probe, so a gap that
 * disappears (or a claim that breaks) fails here and the table gets fixed.
 */
export function behaviourSuite(host: HostAdapter, setUp: () => HostUnderTest): void {
  describe(`${host.name}: behaviours of the host table`, () => {
    it.each(Object.keys(BEHAVIOURS) as Behaviour[])('%s', async (behaviour) => {
      const { map, dir, send } = setUp();
      const problems: string[] = [];
      for (const probe of BEHAVIOUR_PROBES[behaviour]) {
        problems.push(...differences(behaviour, probe, expectedExchange(map, dir, probe), await send(probe)));
      }
      const gap = host.gaps[behaviour];
      if (gap === undefined) expect(problems).toEqual([]);
      else expect(problems, `${host.name} lists "${behaviour}" as a gap (${gap}) but answers like the preview`).not.toEqual([]);
    });
  });
}
