import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadDeadline } from '../../src/bundle/read-deadline.ts';
import { BundleFileError } from '../../src/bundle/content-names.ts';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('the deadline of one answer\'s reads', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names the file of a read still in flight when the time is up, and lets the others through', async () => {
    const deadline = new ReadDeadline(50);
    const fast = deadline.within(after(5, 'a'), 'bundle/a');
    const hanging = deadline.within(new Promise<never>(() => {}), 'bundle/b');
    await expect(fast).resolves.toBe('a');
    const error = await hanging.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BundleFileError);
    expect([(error as BundleFileError).file, (error as BundleFileError).problem, (error as Error).message]).toEqual(['bundle/b', 'late', 'bundle/b: not read within 0.05 s']);
  });

  it('sets one timer for the reads in flight together, and a new one for the next wave, which has the whole time again', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const deadline = new ReadDeadline(60);
    const wave = Array.from({ length: 20 }, (_, i) => deadline.within(Promise.resolve(i), `bundle/${i}`));
    expect(await Promise.all(wave)).toHaveLength(20);
    const set = timers.mock.calls.length;
    expect(set).toBe(1);
    await after(40, null);
    // 40 ms after the first wave began: a new wave, 40 ms long, is not late.
    await expect(deadline.within(after(40, 'late wave'), 'bundle/x')).resolves.toBe('late wave');
  });

  it('passes a read\'s own failure on as it is', async () => {
    const deadline = new ReadDeadline(50);
    await expect(deadline.within(Promise.reject(new Error('gone')), 'bundle/a')).rejects.toThrow('gone');
  });

  it('sets no timer with no limit (a Worker\'s global scope refuses one)', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    await expect(new ReadDeadline(Infinity).within(Promise.resolve(1), 'bundle/a')).resolves.toBe(1);
    expect(timers).not.toHaveBeenCalled();
  });
});
