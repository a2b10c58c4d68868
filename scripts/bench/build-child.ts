/** One build in its own process, so that its CPU time and peak memory are its own. */
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { reportChild } from './child-stats.ts';

const [input, out, formats] = process.argv.slice(2);
// The check (npm run check) reads the whole tree again; it is not part of the measured build.
await reportChild(() =>
  build(resolveBuildOptions({ input: [input!], out: out!, baseUrl: 'https://lda-mirror.example.org', formats, skipCheck: true })),
);
