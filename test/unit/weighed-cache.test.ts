import { describe, expect, it } from 'vitest';
import { PageCache } from '../../src/answer/page-cache.ts';
import { ResultCache } from '../../src/answer/result-cache.ts';
import { WeighedCache } from '../../src/bundle/weighed-cache.ts';

/** What an instance keeps, by bytes (issue 39 point 3): the files of its bundle, and the results of its latest searches. */
describe('the weighed cache', () => {
  it('lets the least recently used go past its budget, keeping the newest whatever it weighs', () => {
    const cache = new WeighedCache<string>(100);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C', 40);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.bytes]).toEqual(['A', undefined, 'C', 80]);
    cache.set('d', 'D', 500);
    expect([cache.get('a'), cache.get('c'), cache.get('d'), cache.bytes]).toEqual([undefined, undefined, 'D', 500]);
    cache.set('d', 'D2', 10);
    expect([cache.get('d'), cache.bytes, cache.size]).toEqual(['D2', 10, 1]);
  });
});

describe('the result cache', () => {
  it('weighs an entry by what it holds, its key and the entry, within its budget', () => {
    const results = new ResultCache<string>(64 * 1024);
    for (let i = 0; i < 1000; i++) results.set(`search ${i}`, `order ${i}`, 1000);
    expect(results.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(results.get('search 999')).toBe('order 999');
    expect(results.get('search 0')).toBeUndefined();
  });

  it('keeps results that match nothing in their own share: any number of them never pushes out one that matched', () => {
    const results = new ResultCache<string>(64 * 1024);
    results.set('matched', 'order', 20_000);
    const matched = results.bytes;
    for (let i = 0; i < 100_000; i++) results.set(`nothing ${i}`, 'empty', 0, true);
    expect(results.get('matched')).toBe('order');
    expect(results.bytes - matched).toBeLessThanOrEqual(64 * 1024 / 8);
    expect(results.get('nothing 99999')).toBe('empty');
    expect(results.get('nothing 0')).toBeUndefined();
  });

  it('keeps nothing with no budget', () => {
    const results = new ResultCache<string>(0);
    results.set('a', 'A', 0);
    results.set('b', 'B', 0, true);
    expect([results.get('a'), results.get('b'), results.bytes]).toEqual([undefined, undefined, 0]);
  });
});

describe('the page cache', () => {
  it('keeps the pages of lists that match something, by list and query, weighing key and body at two bytes a character', () => {
    const pages = new PageCache(64 * 1024);
    pages.set('client', 'client_name=A', 3, '{"count":3}');
    pages.set('client', 'client_name=B', 0, '{"count":0}');
    expect([pages.get('client', 'client_name=A'), pages.get('registrant', 'client_name=A'), pages.get('client', 'client_name=B')]).toEqual(['{"count":3}', undefined, undefined]);
    expect(pages.bytes).toBeGreaterThanOrEqual(2 * ('client?client_name=A'.length + '{"count":3}'.length));
    for (let i = 0; i < 1000; i++) pages.set('client', `page=${i}`, 1, 'x'.repeat(1000));
    expect(pages.bytes).toBeLessThanOrEqual(64 * 1024);
    expect([pages.get('client', 'page=999'), pages.get('client', 'page=0')]).toEqual(['x'.repeat(1000), undefined]);
  });
});
