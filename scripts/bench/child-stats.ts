/**
 * What a benchmark child reports when it ends: wall time of its work, CPU time (all threads) and peak
 * resident memory of its whole process. Printed as one JSON line on stdout for the parent.
 */
export interface ChildStats {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  result: unknown;
}

export async function reportChild(work: () => Promise<unknown>): Promise<void> {
  const start = performance.now();
  const result = await work();
  const wallSeconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage();
  const stats: ChildStats = {
    wallSeconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    result,
  };
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}
