import { BundleFileError } from './content-names.ts';

/**
 * The deadline of one answer's reads (query-bundle.ts): a read that has not answered `ms` after the
 * reads in flight with it began is a BundleFileError naming its file, a 500, never a request left
 * hanging. One timer for the reads in flight together, not one a read: an answer reads its files in
 * waves of up to 30 at once, and each timer set and cleared is work on the request's CPU, in a fresh
 * Worker as much as the rest of a read's own. The timer is cleared once no read is in flight; the
 * next read sets a new one. Infinity sets none (a Worker's global scope refuses timers: the warm-up).
 */
export class ReadDeadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private late: Promise<never> | undefined;
  private inFlight = 0;

  constructor(private readonly ms: number) {}

  async within<T>(reading: Promise<T>, file: string): Promise<T> {
    if (this.ms === Infinity) return reading;
    const late = (this.late ??= this.start());
    this.inFlight++;
    try {
      return await Promise.race([reading, late]);
    } catch (error) {
      if (error === LATE) throw new BundleFileError(file, 'late', `not read within ${this.ms / 1000} s`);
      throw error;
    } finally {
      if (--this.inFlight === 0) {
        clearTimeout(this.timer);
        this.late = undefined;
      }
    }
  }

  private start(): Promise<never> {
    const late = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => reject(LATE), this.ms);
    });
    // Raced by every read in flight; handled here too, for a timer that fires as the last read ends.
    late.catch(() => {});
    return late;
  }
}

/** What the timer rejects with: each read turns it into the error that names its own file. */
const LATE = Symbol('late');
