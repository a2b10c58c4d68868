import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_SETS, CONFORMANCE_ROOT, SHARED_CONFORMANCE_ROOT } from '../support/conformance.ts';
import { snapshot } from '../support/folder-snapshot.ts';
import { sharedFixtureExists } from '../support/shared-fixtures.ts';

/**
 * The repository carries a copy of the shared conformance sets (test/conformance-sets/) so that a clone
 * anywhere can run them. Where the shared original sits beside the repository, the copy must be
 * byte-identical to it: a changed set shows here, not as a silent difference. In CI the original must
 * be there (shared-fixtures.ts).
 */
describe('the copy of the conformance sets', () => {
  it.skipIf(!sharedFixtureExists(SHARED_CONFORMANCE_ROOT))('is byte-identical to ../shared/conformance', () => {
    expect(snapshot(CONFORMANCE_ROOT).files).toEqual(snapshot(SHARED_CONFORMANCE_ROOT).files);
  });

  it('holds every set', () => {
    for (const set of ALL_SETS) {
      for (const file of ['input.ndjson', 'cases.jsonl', 'bodies']) expect(existsSync(`${CONFORMANCE_ROOT}${set}/${file}`), `${set}/${file}`).toBe(true);
    }
  });
});

/** The choice lists of the state and country filters (contract section 8) are copies of the shared fixtures. */
describe('the copy of the filter choice lists', () => {
  const shared = new URL('../../../shared/fixtures/', import.meta.url);
  it.skipIf(!sharedFixtureExists(shared))('is byte-identical to ../shared/fixtures', () => {
    for (const name of ['lda-states.json', 'lda-countries.json']) {
      expect(readFileSync(new URL(`../../src/choices/${name}`, import.meta.url)), name).toEqual(readFileSync(new URL(name, shared)));
    }
  });
});

/** A copy with no original beside it passes by skipping only where no CI is. */
describe('a shared fixture that is missing', () => {
  afterEach(() => vi.unstubAllEnvs());
  const missing = new URL('../../../shared/no-such-fixture.json', import.meta.url);

  it('skips its test outside CI', () => {
    vi.stubEnv('CI', '');
    expect(sharedFixtureExists(missing)).toBe(false);
  });

  it('fails the run in CI, naming the file', () => {
    vi.stubEnv('CI', 'true');
    expect(() => sharedFixtureExists(missing)).toThrow(/shared\/no-such-fixture\.json is missing: in CI the shared fixtures/);
  });
});
