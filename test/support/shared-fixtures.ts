import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Whether a file or folder of `../shared` (the contract, the conformance sets, the live service's lists)
 * sits beside the repository, for the tests that hold a copy to its original. A clone elsewhere has no
 * `../shared`, and those tests are skipped there; in CI (`CI` set) it must be there, so its absence
 * fails the run, naming it, instead of passing by skipping.
 */
export function sharedFixtureExists(where: string | URL): boolean {
  if (existsSync(where)) return true;
  const name = where instanceof URL ? fileURLToPath(where) : where;
  if (process.env['CI']) throw new Error(`${name} is missing: in CI the shared fixtures (../shared) must sit beside the repository`);
  return false;
}
