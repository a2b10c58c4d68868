/** One build in its own process, so that its CPU time and peak memory are its own. */
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { reportChild } from './child-stats.ts';

const [input, out, formats, filters] = process.argv.slice(2);
// The build as a user runs it: its check included.
await reportChild(() => build(resolveBuildOptions({ input: [input!], out: out!, baseUrl: 'https://lda-mirror.example.org', formats, filters })));
