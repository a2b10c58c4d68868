/**
 * One build in its own process, so that its CPU time and peak memory are its own. It runs the
 * compiled program (lib/, what `lda-mirror build` runs once installed; the bench compiles it first),
 * and the bench runs it compiled too, by node alone, without tsx's loader.
 *
 *   node build-child.mjs <lib/index.js> <input> <out> <formats> <filters>
 */
import { pathToFileURL } from 'node:url';
import type * as Library from '../../src/index.ts';
import { reportChild } from './child-stats.ts';

const [program, input, out, formats, filters] = process.argv.slice(2);
const { build } = (await import(pathToFileURL(program!).href)) as typeof Library;
// The build as a user runs it (lda-mirror build): its check included, the previous build deleted by a process of its own.
await reportChild(() => build({ input: [input!], out: out!, baseUrl: 'https://lda-mirror.example.org', formats, filters, removePrevious: 'background' }));
