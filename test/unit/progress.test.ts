import { describe, expect, it } from 'vitest';
import { formatSeconds, progressEvents, terminalProgress, type ProgressEvent, type ProgressStream } from '../../src/report/progress.ts';

/** A stream that keeps what is written, as a terminal (`isTTY`, `columns`) or as a log file. */
function fakeStream(tty: boolean, columns = 100): ProgressStream & { text(): string } {
  const written: string[] = [];
  return { isTTY: tty, columns, write: (text: string) => written.push(text), text: () => written.join('') };
}

/** A clock the test moves by hand. */
function fakeClock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const BAR = /[█░[\]]/;

describe('progress on a terminal', () => {
  it('shows a bar with the count, the rate and the time left when the total is known', () => {
    const stream = fakeStream(true);
    const clock = fakeClock();
    const progress = terminalProgress(stream, clock.now);
    progress.stage('write');
    clock.advance(2000);
    progress.update({ done: 5000, total: 20_000, unit: 'files' });
    const line = stream.text().split('\r\x1b[2K').at(-1)!;
    expect(line).toMatch(/^write: \[█+░+\]/);
    expect(line).toContain(' 25%');
    expect(line).toContain('5,000/20,000 files');
    expect(line).toContain('2,500 files/s');
    expect(line).toContain('6 s left');
  });

  it('shows the count and the rate only when the total is unknown', () => {
    const stream = fakeStream(true);
    const clock = fakeClock();
    const progress = terminalProgress(stream, clock.now);
    progress.stage('read');
    clock.advance(4000);
    progress.update({ done: 12_000, unit: 'records', detail: 'data/clients.ndjson' });
    const line = stream.text().split('\r\x1b[2K').at(-1)!;
    expect(line).toBe('read: 12,000 records  3,000 records/s  data/clients.ndjson  4.0 s');
    expect(line).not.toMatch(BAR);
  });

  it('fits the line to the terminal, dropping the bar on one too narrow for it', () => {
    const stream = fakeStream(true, 60);
    const clock = fakeClock();
    const progress = terminalProgress(stream, clock.now);
    progress.stage('check');
    clock.advance(1000);
    progress.update({ done: 123_456, total: 520_000, unit: 'files' });
    const line = stream.text().split('\r\x1b[2K').at(-1)!;
    expect(line.length).toBeLessThan(60);
    expect(line).not.toMatch(BAR);
    expect(line).toContain('123,456/520,000 files');
  });

  it('rewrites one line at most ten times a second, and clears it at the end', () => {
    const stream = fakeStream(true);
    const clock = fakeClock();
    const progress = terminalProgress(stream, clock.now);
    progress.stage('write');
    for (let done = 1; done <= 100; done++) {
      clock.advance(10);
      progress.update({ done, total: 100, unit: 'files' });
    }
    progress.end();
    expect(stream.text()).not.toContain('\n');
    expect(stream.text().split('\r\x1b[2K').filter((line) => line.includes('files')).length).toBeLessThanOrEqual(10);
    expect(stream.text().endsWith('\r\x1b[2K')).toBe(true);
  });
});

describe('progress off a terminal (CI, a log file)', () => {
  it('writes plain lines: one when a stage starts, then at most one every five seconds, with no bar', () => {
    const stream = fakeStream(false);
    const clock = fakeClock();
    const progress = terminalProgress(stream, clock.now);
    progress.stage('write');
    for (let second = 1; second <= 12; second++) {
      clock.advance(1000);
      progress.update({ done: second * 1000, total: 12_000, unit: 'files' });
    }
    progress.stage('check');
    progress.end();
    expect(stream.text()).toBe(['write: started', 'write: 5,000 files (5.0 s)', 'write: 10,000 files (10.0 s)', 'check: started', ''].join('\n'));
    expect(stream.text()).not.toMatch(BAR);
    expect(stream.text()).not.toContain('\r');
    expect(stream.text()).not.toContain('\x1b');
  });

  it('writes free text as it is given', () => {
    const stream = fakeStream(false);
    const clock = fakeClock();
    const progress = terminalProgress(stream, clock.now);
    progress.stage('sync (full)');
    clock.advance(6000);
    progress.update('page 3/10, 75 records');
    expect(stream.text()).toBe('sync (full): started\nsync (full): page 3/10, 75 records (6.0 s)\n');
  });
});

describe('progress as events', () => {
  it('tells a listener each stage, then its counts with their total', () => {
    const events: ProgressEvent[] = [];
    const progress = progressEvents((event) => events.push(event));
    progress.stage('read');
    progress.update({ done: 10, unit: 'records', detail: 'a.ndjson' });
    progress.stage('write');
    progress.update({ done: 3, total: 9, unit: 'files' });
    expect(events).toEqual([
      { stage: 'read' },
      { stage: 'read', done: 10, unit: 'records', detail: 'a.ndjson', text: '10 records, a.ndjson' },
      { stage: 'write' },
      { stage: 'write', done: 3, total: 9, unit: 'files', text: '3 files' },
    ]);
  });
});

describe('formatSeconds', () => {
  it.each([
    [0.2, '1 s'],
    [59, '59 s'],
    [61, '1 min 1 s'],
    [3725, '1 h 2 min'],
    [Number.POSITIVE_INFINITY, '?'],
  ])('%s seconds reads %j', (seconds, text) => expect(formatSeconds(seconds)).toBe(text));
});
