import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import { edgeProgram } from '../../src/hosts/edge-programs.ts';
import { warmUpBundle } from '../../src/warm-up/warm-up-bundle.ts';

/**
 * The Worker's warm-up (answer/warm-up.ts) runs in workerd's global scope, where timers and
 * asynchronous I/O are refused. A warm-up that failed there would only be logged (it must never stop
 * the Worker), and every first answer would pay for the code's first run again with no answer wrong.
 * So: the Worker as emitted, in workerd, over a bundle (the warm-up's own, written out), starts,
 * answers, and logs nothing (a warm-up request answered other than 200 is logged: tried, it fails this).
 */
describe('the Worker warmed up at startup, in workerd', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'lda-warm-up-runtime-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('runs the warm-up without a refusal or error, then answers', async () => {
    const bundle = path.join(folder, 'bundle');
    for (const [name, base64] of Object.entries(warmUpBundle().files)) {
      mkdirSync(path.dirname(path.join(bundle, name)), { recursive: true });
      writeFileSync(path.join(bundle, name), Buffer.from(base64, 'base64'));
    }
    const output: string[] = [];
    const mf = new Miniflare({
      modules: [{ type: 'ESModule', path: path.join(folder, 'worker.js'), contents: edgeProgram('worker') }],
      modulesRoot: folder,
      compatibilityDate: '2025-06-01',
      assets: { directory: bundle, binding: 'ASSETS', routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true }, assetConfig: { html_handling: 'none', not_found_handling: 'none' } },
      handleRuntimeStdio(stdout: Readable, stderr: Readable) {
        stdout.on('data', (chunk: Buffer) => output.push(String(chunk)));
        stderr.on('data', (chunk: Buffer) => output.push(String(chunk)));
      },
    });
    try {
      const response = await mf.dispatchFetch('http://localhost/api/v1/clients/');
      expect(response.status).toBe(200);
      expect(((await response.json()) as { count: number }).count).toBe(24);
    } finally {
      await mf.dispose();
    }
    expect(output.join('')).not.toMatch(/lda-mirror|Disallowed|Uncaught/);
  });
});
