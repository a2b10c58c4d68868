import { closeSync, createReadStream, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The sync's folder for one list: `clients.ndjson` (or `registrants.ndjson`), the records of the last
 * complete sync of that list (what the build reads), and `.sync/` (`.sync-registrants/`), the pages of
 * a sync in progress with what it set out to do. Every file is written
 * beside its place and renamed over it, so a sync killed at any moment leaves whole files, and the
 * next run carries on from the pages already saved. The build ignores `.sync/` (a dot folder).
 */
export const RECORDS_FILE = 'clients.ndjson';
const WORK_FOLDER = '.sync';

/** Where a list's records and its sync in progress are kept in the folder. */
export interface ListFiles {
  recordsFile: string;
  workFolder: string;
}

export const CLIENT_FILES: ListFiles = { recordsFile: RECORDS_FILE, workFolder: WORK_FOLDER };
/** The build reads a file of this name as registrants (ingest/registrant-file.ts). */
export const REGISTRANT_FILES: ListFiles = { recordsFile: 'registrants.ndjson', workFolder: '.sync-registrants' };
const STATE_FILE = 'state.json';

/** What a sync in progress is doing; a run that wants something else starts over. */
export interface SyncPlan {
  upstream: string;
  mode: 'full' | 'incremental';
  ordering: string;
}

interface SavedState extends SyncPlan {
  version: 1;
  /** The upstream count when the sync started, and page size it was walking with. */
  count: number;
  /** Pages saved so far, each with its number of records. */
  pages: Record<string, number>;
  /** Incremental: the walk reached known ids and has nothing more to fetch. */
  walkDone?: boolean;
}

export class SyncFolder {
  readonly recordsFile: string;
  private readonly work: string;
  private state: SavedState | undefined;

  constructor(
    readonly folder: string,
    files: ListFiles = CLIENT_FILES,
  ) {
    this.recordsFile = path.join(folder, files.recordsFile);
    this.work = path.join(folder, files.workFolder);
    mkdirSync(folder, { recursive: true });
  }

  /** Pages already saved by an interrupted run of the same plan; starts afresh otherwise. */
  resume(plan: SyncPlan): { pages: Map<number, number>; walkDone: boolean } {
    this.removeLeftovers();
    const saved = this.readState();
    if (saved && saved.upstream === plan.upstream && saved.mode === plan.mode && saved.ordering === plan.ordering) {
      this.state = saved;
      return { pages: new Map(Object.entries(saved.pages).map(([page, size]) => [Number(page), size])), walkDone: saved.walkDone === true };
    }
    rmSync(this.work, { recursive: true, force: true });
    mkdirSync(this.work, { recursive: true });
    this.state = { version: 1, ...plan, count: 0, pages: {} };
    this.writeState();
    return { pages: new Map(), walkDone: false };
  }

  /** Saves one page's records (JSON lines), then records the page as done. */
  savePage(page: number, lines: string[], count: number): void {
    writeAtomically(this.pageFile(page), lines.length === 0 ? '' : `${lines.join('\n')}\n`);
    const state = this.requireState();
    state.count = count;
    state.pages[page] = lines.length;
    this.writeState();
  }

  markWalkDone(): void {
    this.requireState().walkDone = true;
    this.writeState();
  }

  /** The saved pages' lines, page by page in page order. */
  *savedLines(): Generator<string> {
    const pages = Object.keys(this.requireState().pages).map(Number).sort((a, b) => a - b);
    for (const page of pages) yield* this.pageLines(page);
  }

  pageLines(page: number): string[] {
    return readFileSync(this.pageFile(page), 'utf8').split('\n').filter((line) => line !== '');
  }

  /**
   * A new `clients.ndjson`, written line by line beside the current one: `commit` renames it over the
   * current one and forgets the sync in progress, `discard` drops it (the current one stays).
   */
  newRecordsFile(): RecordsWriter {
    return new RecordsWriter(`${this.recordsFile}.${process.pid}.tmp`, () => {
      renameSync(`${this.recordsFile}.${process.pid}.tmp`, this.recordsFile);
      rmSync(this.work, { recursive: true, force: true });
      this.state = undefined;
    });
  }

  hasRecords(): boolean {
    return existsSync(this.recordsFile);
  }

  /** The lines of the last complete sync, streamed (the file can be large). */
  async *recordLines(): AsyncGenerator<string> {
    const lines = createInterface({ input: createReadStream(this.recordsFile, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) if (line.trim() !== '') yield line;
  }

  /** The last record of the last complete sync, read from the end of the file (it can be large). */
  lastRecordLine(): string | undefined {
    const fd = openSync(this.recordsFile, 'r');
    try {
      let end = fstatSync(fd).size;
      let tail = Buffer.alloc(0);
      while (end > 0) {
        const size = Math.min(64 * 1024, end);
        const chunk = Buffer.alloc(size);
        readSync(fd, chunk, 0, size, end - size);
        end -= size;
        tail = Buffer.concat([chunk, tail]);
        const lines = tail.toString('utf8').split('\n').filter((line) => line.trim() !== '');
        // A whole line is known once a newline precedes it, or the file's start is reached.
        if (lines.length > 1 || (end === 0 && lines.length === 1)) return lines.at(-1);
      }
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /** Half-written files of a killed run: never read, removed before a run starts. */
  removeLeftovers(): void {
    for (const folder of [this.folder, this.work]) {
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder)) if (/\.[0-9]+\.tmp$/.test(name)) rmSync(path.join(folder, name), { force: true });
    }
  }

  private pageFile(page: number): string {
    return path.join(this.work, `page-${String(page).padStart(6, '0')}.ndjson`);
  }

  private readState(): SavedState | undefined {
    try {
      const state = JSON.parse(readFileSync(path.join(this.work, STATE_FILE), 'utf8')) as SavedState;
      return state.version === 1 ? state : undefined;
    } catch {
      return undefined;
    }
  }

  private writeState(): void {
    writeAtomically(path.join(this.work, STATE_FILE), `${JSON.stringify(this.requireState())}\n`);
  }

  private requireState(): SavedState {
    if (this.state === undefined) throw new Error('sync folder used before resume()');
    return this.state;
  }
}

/** Lines to a file through a buffer, so a large records file never sits in memory whole. */
export class RecordsWriter {
  private readonly fd: number;
  private buffer: string[] = [];
  private buffered = 0;
  lines = 0;

  constructor(
    private readonly file: string,
    private readonly onCommit: () => void,
  ) {
    this.fd = openSync(file, 'w');
  }

  write(line: string): void {
    this.buffer.push(line, '\n');
    this.buffered += line.length + 1;
    this.lines++;
    if (this.buffered >= 1 << 20) this.flush();
  }

  commit(): void {
    this.flush();
    closeSync(this.fd);
    this.onCommit();
  }

  discard(): void {
    closeSync(this.fd);
    rmSync(this.file, { force: true });
  }

  private flush(): void {
    if (this.buffered === 0) return;
    writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
    this.buffered = 0;
  }
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
