import { describe, expect, it, vi } from 'vitest';
import { PageCache } from '../../src/answer/page-cache.ts';
import { warmUp, warmUpQuietly } from '../../src/answer/warm-up.ts';
import { warmUpBundle } from '../../src/warm-up/warm-up-bundle.ts';
import { answererDefines } from '../../src/hosts/program-bundler.ts';
import { LIST_PATH, REGISTRANT_PATH_PREFIX } from '../../src/contract.ts';

describe('the warm-up bundle the programs carry', () => {
  const bundle = warmUpBundle();

  it('is a query bundle of the sample clients, small beside a Worker', () => {
    expect(Object.keys(bundle.files)).toContain('manifest.json');
    expect(JSON.stringify(bundle).length).toBeLessThan(150_000);
  });

  it('asks one request of every kind the bench measures, of both lists', () => {
    const [list, deepName, deepDate, combined, record, registrant, word, whole, pair, byRegistrant, wordPage, registrants, ...registrantKinds] = bundle.targets;
    expect(list).toBe(LIST_PATH);
    expect([deepName, deepDate, combined]).toEqual([expect.stringContaining('ordering=-name&page=2'), expect.stringContaining('ordering=-effective_date&page=2'), expect.stringContaining('ordering=-effective_date,name&page=2')]);
    expect(record).toMatch(/^\/api\/v1\/clients\/\d+\/$/);
    expect(registrant).toMatch(/^\/api\/v1\/registrants\/\d+\/$/);
    expect([word, whole, pair, wordPage]).toEqual(Array(4).fill(expect.stringContaining('client_name=')));
    expect(byRegistrant).toMatch(/registrant_name=.+&client_state=[A-Z]{2}$/);
    expect(registrants).toBe(REGISTRANT_PATH_PREFIX);
    expect(registrantKinds.join(' ')).toMatch(/ordering=name,-dt_updated.*registrant_name=.*state=.*country=/);
  });

  it('is answered 200 for every request of every round, as the live service would answer a list of 24 clients', async () => {
    const statuses = await warmUp(bundle);
    expect(statuses.length).toBeGreaterThanOrEqual(bundle.targets.length);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('runs the answer anew in every round: no round is answered from a page the one before kept', async () => {
    const pages = vi.spyOn(PageCache.prototype, 'get');
    try {
      await warmUp(bundle);
      expect(pages).toHaveBeenCalled();
      expect(pages.mock.results.filter((result) => result.value !== undefined)).toEqual([]);
    } finally {
      pages.mockRestore();
    }
  });

  it('is the value the programs are bundled with', () => {
    expect(JSON.parse(answererDefines().LDA_WARM_UP!)).toEqual(bundle);
  });

  it('logs a damaged warm-up bundle for the platform, never throws it into startup', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const damaged = { ...bundle, files: { ...bundle.files, 'manifest.json': btoa('{') } };
      await expect(warmUpQuietly(damaged)).resolves.toBeUndefined();
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('lda-mirror: warm-up'));
    } finally {
      errors.mockRestore();
    }
  });
});
