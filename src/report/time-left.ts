/** Pages done, requests a minute and time left, for the progress line of a walk paced at `rate` requests a minute. */
export function trackTimeLeft(total: number, rate: number) {
  const started = Date.now();
  return {
    describe(done: number): string {
      const minutes = (Date.now() - started) / 60_000;
      const perMinute = minutes > 0 ? done / minutes : 0;
      const pace = Math.min(rate, perMinute > 0 ? perMinute : rate);
      const left = ((total - done) / pace) * 60;
      return `${perMinute.toFixed(1)} requests/min, about ${formatDuration(left)} left`;
    },
  };
}

/** `45 s`, `12 min`, `2 h 3 min`: a time in round words, for a time left, a wait or a summary. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}
