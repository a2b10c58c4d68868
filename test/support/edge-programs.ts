import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { EdgeProgram } from '../../src/hosts/program-bundler.ts';

/** An edge program as the global setup bundled it from the sources at the start of the run. */
export function sourceProgram(name: EdgeProgram): string {
  return readFileSync(path.join(inject('edgePrograms'), `${name}.js`), 'utf8');
}
