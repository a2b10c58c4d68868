import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanCheckout, packCheckout } from '../support/clean-checkout.ts';
import { sourceProgram } from '../support/edge-programs.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { freePort } from '../support/real-servers.ts';
import { spawnAsync } from '../support/spawn-async.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The package as a user gets it: `npm pack` of a clean copy of the checkout, installed with npm into
 * an empty folder, then `npx lda-mirror` there, as a user of a static-site generator runs it. Only
 * the tarball and its dependencies are installed: no TypeScript, no tsx. npm compiles better-sqlite3
 * from source during the install (minutes, hence the timeouts).
 */
const INSTALL_TIMEOUT = 15 * 60_000;
const { version: VERSION } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

const temp = tempFolder('mirror-pack-');
const project = path.join(temp.path, 'project');
const env = { ...process.env, FORCE_COLOR: '0' };
const npx = (args: string[]) => spawnAsync('npx', args, { cwd: project, env });
let port: number;
let preview: ChildProcess | undefined;

beforeAll(async () => {
  const tarball = await packCheckout(cleanCheckout(path.join(temp.path, 'checkout')), path.join(temp.path, 'packed'));
  mkdirSync(project);
  for (const args of [['init', '-y'], ['install', tarball]]) {
    const result = await spawnAsync('npm', args, { cwd: project, env });
    if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  }
  copyFileSync(path.join(REPO_ROOT, 'test/conformance-sets/lda-real/input.ndjson'), path.join(project, 'records.ndjson'));
  port = await freePort();
}, INSTALL_TIMEOUT);

afterAll(() => {
  // npx runs the command as a child of its own: the whole process group goes.
  if (preview?.pid !== undefined && preview.exitCode === null) process.kill(-preview.pid, 'SIGTERM');
  temp.remove();
});

describe('the packed package, installed into an empty folder', () => {
  it('holds the compiled command and the edge programs, bundled, and installs without tsx, TypeScript or esbuild', () => {
    const installed = path.join(project, 'node_modules/lda-clients-mirror');
    for (const file of ['lib/cli.js', 'lib/index.js', 'lib/index.d.ts', 'lib/produce/produce-worker.js']) {
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    }
    // Each as the sources make it (the global setup bundled them from this checkout).
    for (const name of ['worker', 'fetch-handler', 'cloudfront-function'] as const) {
      expect(readFileSync(path.join(installed, `lib/hosts/programs/${name}.js`), 'utf8'), name).toBe(sourceProgram(name));
    }
    expect(existsSync(path.join(installed, 'src'))).toBe(false);
    for (const tool of ['tsx', 'typescript', 'esbuild']) expect(existsSync(path.join(project, 'node_modules', tool)), tool).toBe(false);
  });

  it('answers --version, and --help for itself and every command, under both names', async () => {
    const version = await npx(['lda-mirror', '--version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
    for (const args of [['lda-clients-mirror', '--help'], ...['build', 'preview', 'check', 'emit', 'sync', 'nightly'].map((command) => ['lda-mirror', command, '--help'])]) {
      const help = await npx(args);
      expect(help.status, `${args.join(' ')}: ${help.stderr}`).toBe(0);
      expect(help.stdout, args.join(' ')).toMatch(/^Usage: lda-mirror /);
    }
  }, 120_000);

  it('gives the commands as functions to `import` from the package', async () => {
    const script = "const m = await import('lda-clients-mirror'); console.log(['build', 'preview', 'check', 'emit', 'sync'].map((name) => typeof m[name]).join(' '));";
    const imported = await spawnAsync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env });
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout.trim()).toBe('function function function function function');
  });

  it('builds the records of the folder, previews them over HTTP, and emits the nginx configuration', async () => {
    const base = `http://127.0.0.1:${port}`;
    const built = await npx(['lda-mirror', 'build', '--input', 'records.ndjson', '--out', 'site', '--base-url', base]);
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toContain('74 read from 1 file(s)');

    preview = spawn('npx', ['lda-mirror', 'preview', '--dir', 'site', '--port', String(port)], { cwd: project, env, detached: true });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      preview!.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      preview!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Previewing site at')) resolve();
      });
      preview!.on('exit', (code) => reject(new Error(`the preview stopped (exit code ${code}) before serving: ${output}`)));
    });
    for (const target of ['/api/v1/clients/', '/api/v1/clients/?ordering=-id&page=2']) {
      const response = await fetch(`${base}${target}`);
      expect(response.status, target).toBe(200);
      expect(response.headers.get('content-type'), target).toBe('application/json');
      const page = (await response.json()) as { count: number; next: string | null; results: unknown[] };
      expect(page.count, target).toBe(74);
      expect(page.results.length, target).toBeGreaterThan(0);
      expect(page.next, target).toMatch(new RegExp(`^${base}/api/v1/clients/\\?`));
    }

    const emitted = await npx(['lda-mirror', 'emit', 'nginx', '--dir', 'site', '--out', 'nginx.conf']);
    expect(emitted.status, emitted.stderr).toBe(0);
    const conf = readFileSync(path.join(project, 'nginx.conf'), 'utf8');
    expect(conf).toMatch(/^# Generated by lda-clients-mirror .*: 74 clients, 3 pages a list, base URL http:\/\/127\.0\.0\.1:\d+\./);
    expect(conf).toContain('location');
    // The hosts that run code get the programs the package carries prebuilt: it has no esbuild to bundle them.
    const programs = { cloudflare: ['worker.js', 'worker'], cloudfront: ['function.js', 'cloudfront-function'], 'netlify-edge': ['netlify/edge-functions/lda-mirror.js', 'fetch-handler'], 'vercel-edge': ['middleware.js', 'fetch-handler'] } as const;
    for (const [host, [file, program]] of Object.entries(programs)) {
      const emittedHost = await npx(['lda-mirror', 'emit', host, '--dir', 'site', '--out', host]);
      expect(emittedHost.status, `${host}: ${emittedHost.stderr}`).toBe(0);
      expect(readFileSync(path.join(project, host, file), 'utf8').endsWith(sourceProgram(program)), host).toBe(true);
    }
  }, 120_000);
});
