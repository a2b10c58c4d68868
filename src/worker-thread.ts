import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on a module of src/, named without its extension
 * (`new URL('./produce-worker', import.meta.url)`). The compiled package starts the `.js` directly;
 * from the TypeScript sources (tsx, vitest) the thread first registers tsx (start-worker.mjs).
 */
export function startWorker(module: URL, options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`${module.href}.js`), options);
  return new Worker(new URL('./start-worker.mjs', import.meta.url), { ...options, argv: [`${module.href}.ts`] });
}
