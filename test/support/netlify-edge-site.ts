import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { EDGE_FUNCTION_FILE, PUBLISH_FOLDER } from '../../src/hosts/netlify-edge/netlify-edge.ts';
import type { RunningHost } from './host-suite.ts';

/** The Deno binary of the `deno` npm package (its platform package ships it: nothing is downloaded). */
const DENO: string = (createRequire(import.meta.url)('deno/install_api.cjs') as { runInstall(): string }).runInstall();
const HARNESS = fileURLToPath(new URL('../support/netlify-edge-server.mjs', import.meta.url));

/** The emitted site in `site`, served by the harness in Deno on a random port. */
export function startSite(site: string): Promise<RunningHost> {
  const args = ['run', '--no-config', '--no-lock', '--no-prompt', '--cached-only', '--allow-net=127.0.0.1', `--allow-read=${site}`, HARNESS, site, PUBLISH_FOLDER, EDGE_FUNCTION_FILE];
  const child = spawn(DENO, args, { cwd: site, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n')[0]!;
      if (stdout.includes('\n')) {
        const { url } = JSON.parse(line) as { url: string };
        resolve({
          url,
          stop: async () => {
            child.kill();
            await exited;
          },
        });
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`deno exited (${code}) before listening:\n${stderr}`)));
  });
}

