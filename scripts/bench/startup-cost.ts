import { median } from './median-interval.ts';
import { cpuNanoseconds, startWorkerdIsolate } from './workerd-isolate.ts';

/**
 * What the Worker's warm-up (src/answer/warm-up.ts) costs where it runs: at startup, the global scope,
 * which Workers limit apart from a request (1 s to parse and run it). The CPU of a workerd process from
 * its start to ready (miniflare's own small workers included, alike on both sides), with the Worker as
 * deployed and with the same Worker bundled without the warm-up, alternately, `isolates` each.
 */
export interface StartupCost {
  warmedMs: number[];
  coldMs: number[];
}

export async function measureStartupCost(options: { built: string; warmed: string; cold: string; isolates: number }): Promise<StartupCost> {
  const cost: StartupCost = { warmedMs: [], coldMs: [] };
  for (let i = 0; i < options.isolates; i++) {
    for (const [script, into] of [[options.warmed, cost.warmedMs], [options.cold, cost.coldMs]] as const) {
      const isolate = await startWorkerdIsolate({ built: options.built, script, mode: 'answer' });
      into.push(cpuNanoseconds(isolate.pid) / 1e6);
      await isolate.close();
    }
  }
  return cost;
}

export function startupLine(cost: StartupCost): string {
  const warmed = median(cost.warmedMs);
  const cold = median(cost.coldMs);
  return `Startup (scripts/bench/startup-cost.ts): a workerd process's CPU from its start to ready, median of ${cost.warmedMs.length}: ${warmed.toFixed(1)} ms with the Worker as deployed, ${cold.toFixed(1)} ms with it bundled without the warm-up: the warm-up adds ${(warmed - cold).toFixed(1)} ms of CPU to startup, which Workers limit apart from a request's CPU (1 s to parse and run the global scope).`;
}
