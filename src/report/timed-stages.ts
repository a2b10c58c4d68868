import { performance } from 'node:perf_hooks';
import type { Progress } from './progress.ts';

/** Wraps progress to time each stage, for the summary. */
export function timedStages(reporter: Progress): { progress: Progress; stages(): Record<string, number> } {
  const seconds: Record<string, number> = {};
  let current: { name: string; start: number } | undefined;
  const close = () => {
    if (current) seconds[current.name] = (performance.now() - current.start) / 1000;
    current = undefined;
  };
  return {
    progress: {
      stage(name) {
        close();
        current = { name, start: performance.now() };
        reporter.stage(name);
      },
      update: (text) => reporter.update(text),
      end() {
        close();
        reporter.end();
      },
    },
    stages: () => ({ ...seconds }),
  };
}
