/**
 * One build in its own process, so that its CPU time and peak memory are its own. It runs the
 * compiled program (lib/, what `lda-mirror build` runs once installed; the bench compiles it first),
 * not the TypeScript through tsx, whose loader every render thread would load again.
 */
import type * as Library from '../../src/index.ts';
import { reportChild } from './child-stats.ts';

const [input, out, formats, filters] = process.argv.slice(2);
const program = new URL('../../lib/index.js', import.meta.url).href;
const { build } = (await import(program)) as typeof Library;
// The build as a user runs it (lda-mirror build): its check included, the previous build deleted by a process of its own.
await reportChild(() => build({ input: [input!], out: out!, baseUrl: 'https://lda-mirror.example.org', formats, filters, removePrevious: 'background' }));
