/**
 * Spaces requests to at most `perMinute` a minute, however many run at once, and holds every request
 * back while the upstream has asked for a pause (a 429's Retry-After). Slots are handed out in call
 * order, so concurrent callers never burst.
 */
export class RateLimiter {
  private readonly interval: number;
  private nextSlot = 0;
  private heldUntil = 0;
  private lastSent = -Infinity;

  constructor(
    perMinute: number,
    private readonly clock: Clock = systemClock,
  ) {
    this.interval = 60_000 / perMinute;
  }

  /** Resolves when the caller may send its request. */
  async take(): Promise<void> {
    const now = this.clock.now();
    const start = Math.max(now, this.nextSlot, this.heldUntil);
    this.nextSlot = start + this.interval;
    await this.clock.sleep(start - now);
    // Timers that fire late (a busy event loop) fire together: the spacing holds between the requests
    // actually let go, and a pause asked for while this caller waited applies to it too.
    for (;;) {
      const ready = Math.max(this.lastSent + this.interval, this.heldUntil);
      const current = this.clock.now();
      if (current >= ready) break;
      await this.clock.sleep(ready - current);
    }
    this.lastSent = this.clock.now();
    this.nextSlot = Math.max(this.nextSlot, this.lastSent + this.interval);
  }

  /** No request starts before `time` (epoch milliseconds). */
  holdUntil(time: number): void {
    this.heldUntil = Math.max(this.heldUntil, time);
    this.nextSlot = Math.max(this.nextSlot, time);
  }
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => (ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))),
};
