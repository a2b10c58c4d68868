/**
 * Progress of a long job. On a terminal: one line rewritten in place. Elsewhere (CI, a log file):
 * plain lines, one when a stage starts and at most one every few seconds, so logs stay readable.
 */
export interface Progress {
  stage(name: string): void;
  update(text: string): void;
  /** Clears the progress line before the summary is printed. */
  end(): void;
}

export const silentProgress: Progress = { stage() {}, update() {}, end() {} };

export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const live = stream.isTTY === true;
  const interval = live ? 100 : 5000;
  let stageName = '';
  let stageStart = 0;
  let last = 0;
  const print = (text: string) => {
    const line = `${stageName}: ${text}`;
    if (live) stream.write(`\r\x1b[2K${line.slice(0, (stream.columns || 100) - 1)}`);
    else stream.write(`${line}\n`);
  };
  return {
    stage(name) {
      stageName = name;
      stageStart = Date.now();
      last = stageStart;
      print('started');
    },
    update(text) {
      const now = Date.now();
      if (now - last < interval) return;
      last = now;
      print(`${text} (${((now - stageStart) / 1000).toFixed(1)} s)`);
    },
    end() {
      if (live) stream.write('\r\x1b[2K');
    },
  };
}
