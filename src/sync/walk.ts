/**
 * What the two walks of the list (full-sync.ts, incremental-sync.ts) share with the sync that runs
 * them: where they report, what they give back, and how they fail.
 */
export interface SyncProgress {
  stage(name: string): void;
  update(text: string): void;
}

export interface WalkResult {
  records: number;
  added: number;
  pagesFetched: number;
  pagesResumed: number;
}

export class SyncError extends Error {}
