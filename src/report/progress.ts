/**
 * Progress of a long job. On a terminal: one line rewritten in place, a bar with the count, the rate
 * and the time left when the total is known. Elsewhere (CI, a log file): plain lines, one when a stage
 * starts and at most one every few seconds, so logs stay readable.
 */
export interface Progress {
  stage(name: string): void;
  /** Where the stage is: free text, or a count of things done (of a total, when it is known). */
  update(status: string | Count): void;
  /** Clears the progress line before the summary is printed. */
  end(): void;
}

/** Things done in a stage: `done` of `total` `unit` (records, files), and what is being done now. */
export interface Count {
  done: number;
  total?: number;
  unit: string;
  detail?: string;
}

/** One report of a stage, for a listener: the stage alone when it starts, then its counts or text. */
export interface ProgressEvent {
  stage: string;
  done?: number;
  total?: number;
  unit?: string;
  detail?: string;
  /** The update in words, as a log line says it. */
  text?: string;
}

/** Where progress goes: process.stderr, or anything with `write` (a test's fake terminal). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export const silentProgress: Progress = { stage() {}, update() {}, end() {} };

/** Progress as events, for a caller of the library that shows it its own way. */
export function progressEvents(listener: (event: ProgressEvent) => void): Progress {
  let stageName = '';
  return {
    stage(name) {
      stageName = name;
      listener({ stage: name });
    },
    update(status) {
      listener(typeof status === 'string' ? { stage: stageName, text: status } : { stage: stageName, ...status, text: describeCount(status) });
    },
    end() {},
  };
}

export function terminalProgress(stream: ProgressStream = process.stderr, now: () => number = Date.now): Progress {
  const live = stream.isTTY === true;
  const interval = live ? 100 : 5000;
  let stageName = '';
  let stageStart = 0;
  let last = 0;
  const width = () => (stream.columns || 100) - 1;
  const print = (text: string) => {
    const line = `${stageName}: ${text}`;
    if (live) stream.write(`\r\x1b[2K${line.slice(0, width())}`);
    else stream.write(`${line}\n`);
  };
  return {
    stage(name) {
      stageName = name;
      stageStart = now();
      last = stageStart;
      print('started');
    },
    update(status) {
      const time = now();
      if (time - last < interval) return;
      last = time;
      const seconds = (time - stageStart) / 1000;
      if (typeof status === 'string') print(`${status} (${seconds.toFixed(1)} s)`);
      else if (live) print(countLine(status, seconds, width() - stageName.length - 2));
      else print(`${describeCount(status)} (${seconds.toFixed(1)} s)`);
    },
    end() {
      if (live) stream.write('\r\x1b[2K');
    },
  };
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');

/** A count in words, for a log line: `12,000 records, data/clients.ndjson`. */
function describeCount(count: Count): string {
  return `${n(count.done)} ${count.unit}${count.detail ? `, ${count.detail}` : ''}`;
}

const BAR_WIDTH = { min: 10, max: 30 };

/**
 * A count on a terminal: `[######----]  41%  12,300/30,000 files  5,100 files/s  3 s left`, or
 * without a total `12,300 records  5,100 records/s  data/clients.ndjson`. The bar takes what room the
 * words leave, and is dropped on a terminal too narrow for it.
 */
function countLine(count: Count, seconds: number, room: number): string {
  const rate = seconds > 0 ? count.done / seconds : 0;
  const rateText = rate > 0 ? `${n(rate)} ${count.unit}/s` : '';
  if (count.total === undefined || count.total <= 0) {
    return [`${n(count.done)} ${count.unit}`, rateText, count.detail, `${seconds.toFixed(1)} s`].filter(Boolean).join('  ');
  }
  const share = Math.min(1, count.done / count.total);
  const left = rate > 0 ? formatSeconds((count.total - Math.min(count.done, count.total)) / rate) : '?';
  const words = [`${String(Math.floor(share * 100)).padStart(3)}%`, `${n(count.done)}/${n(count.total)} ${count.unit}`, rateText, `${left} left`]
    .filter(Boolean)
    .join('  ');
  const barWidth = Math.min(BAR_WIDTH.max, room - words.length - 3);
  if (barWidth < BAR_WIDTH.min) return words;
  const filled = Math.floor(share * barWidth);
  return `[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${words}`;
}

/** `45 s`, `12 min 5 s`, `2 h 3 min`: as precise as a time left needs. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} min`;
}
