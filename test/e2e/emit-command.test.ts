import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { HOSTS } from '../../src/hosts/hosts.ts';
import { isLocalBaseUrl } from '../../src/hosts/local-base-url.ts';
import { readWranglerConfig } from '../../src/preview/workerd-preview.ts';
import { hostTable } from '../../src/hosts/host-table.ts';
import { parseListen } from '../../src/hosts/write-host-files.ts';
import { REPO_ROOT, runCli } from '../support/cli.ts';
import { CONFORMANCE_BASE_URL, setFolder } from '../support/conformance.ts';
import { buildConformanceSet } from '../support/conformance-build.ts';
import { spawnAsync } from '../support/spawn-async.ts';
import { tempFolder } from '../support/temp-folder.ts';

/** `npm run emit` as a user runs it: help, mistakes named, files written whole. */
describe('npm run emit', () => {
  const temp = tempFolder();
  const site = path.join(temp.path, 'site');

  beforeAll(async () => {
    await buildConformanceSet('lda-real', site);
  }, 60_000);
  afterAll(() => temp.remove());

  it('--help lists every host with what it writes', () => {
    const result = runCli(['emit', '--help']);
    expect(result.status).toBe(0);
    for (const host of HOSTS) expect(result.stdout).toContain(`  ${host.name} `);
  });

  it('names an unknown host and lists the known ones (exit 2)', () => {
    const result = runCli(['emit', 'iis', '--dir', site, '--out', path.join(temp.path, 'x')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown host "iis"');
    expect(result.stderr).toContain('nginx');
  });

  it('asks for --out (exit 2)', () => {
    const result = runCli(['emit', 'nginx', '--dir', site]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--out is required');
  });

  it('rejects a --listen it cannot read, naming it (exit 2)', () => {
    const result = runCli(['emit', 'nginx', '--dir', site, '--out', path.join(temp.path, 'n.conf'), '--listen', 'localhost:99999']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--listen: "localhost:99999"');
  });

  it('says when the folder holds no build', () => {
    const empty = path.join(temp.path, 'empty');
    mkdirSync(empty);
    const result = runCli(['emit', 'nginx', '--dir', empty, '--out', path.join(temp.path, 'n.conf')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${empty} holds no rewrite-map.json`);
  });

  it('writes the configuration whole, with nothing left beside it', () => {
    const out = path.join(temp.path, 'conf', 'mirror.conf');
    const result = runCli(['emit', 'nginx', '--dir', site, '--out', out, '--listen', '127.0.0.1:8099']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`wrote ${out}`);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('listen 127.0.0.1:8099;');
    expect(text).toContain(`root '${site}';`);
    expect(readdirSync(path.dirname(out))).toEqual(['mirror.conf']);
    expect(existsSync(`${out}.tmp`)).toBe(false);
  });

  it('writes into the built folder for the hosts that publish with it, and npm run check still passes', () => {
    for (const host of HOSTS.filter((candidate) => candidate.publishedWithSite)) {
      const out = host.files.length === 1 ? path.join(site, host.files[0]!) : site;
      const result = runCli(['emit', host.name, '--dir', site, '--out', out]);
      expect(result.status, result.stderr).toBe(0);
      for (const file of host.files) expect(existsSync(path.join(site, file)), `${host.name}: ${file}`).toBe(true);
    }
    const check = runCli(['check', '--dir', site]);
    expect(check.stdout + check.stderr).toContain('no problem');
    expect(check.status).toBe(0);
  });

  it('reads --listen as port, address:port or [ipv6]:port', () => {
    expect(parseListen('8080')).toEqual({ address: '0.0.0.0', port: 8080 });
    expect(parseListen('127.0.0.1:81')).toEqual({ address: '127.0.0.1', port: 81 });
    expect(parseListen('[::1]:8443')).toEqual({ address: '[::1]', port: 8443 });
    expect(parseListen('0')).toBeUndefined();
    expect(parseListen('host:')).toBeUndefined();
  });
});

describe('the base URL an emit bakes in', () => {
  const temp = tempFolder();
  const local = path.join(temp.path, 'local');
  const published = path.join(temp.path, 'published');

  beforeAll(async () => {
    await build(resolveBuildOptions({ input: [path.join(setFolder('lda-real'), 'input.ndjson')], out: local, baseUrl: 'http://localhost:3000' }));
    await buildConformanceSet('lda-real', published);
  }, 60_000);
  afterAll(() => temp.remove());

  it.each(HOSTS.map((host) => [host.name, host] as const))('%s: refuses a loopback base URL unless told, and names the one it bakes in', (name, host) => {
    // One file: --out names it; several: --out is their folder.
    const out = (folder: string) => path.join(temp.path, folder, name, host.files.length === 1 ? host.files[0]! : '');
    const refused = runCli(['emit', name, '--dir', local, '--out', out('refused')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('has the base URL http://localhost:3000, which leads');
    expect(refused.stderr).toContain('--allow-local-base-url');
    expect(existsSync(path.join(temp.path, 'refused'))).toBe(false);
    const told = runCli(['emit', name, '--dir', local, '--out', out('told'), '--allow-local-base-url']);
    expect(told.status, told.stderr).toBe(0);
    expect(told.stdout).toContain(`${name}: base URL http://localhost:3000 (every url, next and previous starts with it)`);
    const publishedRun = runCli(['emit', name, '--dir', published, '--out', out('published')]);
    expect(publishedRun.status, publishedRun.stderr).toBe(0);
    expect(publishedRun.stdout).toContain(`${name}: base URL ${CONFORMANCE_BASE_URL} (`);
  });

  it('knows every loopback spelling, and nothing else', () => {
    for (const url of ['http://localhost:3000', 'http://LOCALHOST', 'http://api.localhost', 'http://127.0.0.1:8080', 'http://127.1.2.3', 'http://[::1]:3000', 'http://0.0.0.0:3000', 'http://[::]']) {
      expect(isLocalBaseUrl(url), url).toBe(true);
    }
    for (const url of ['https://lda-mirror.example.org', 'http://mirror.test', 'http://10.0.0.1', 'http://128.0.0.1', 'http://localhost.example.org', 'http://[2001:db8::1]']) {
      expect(isLocalBaseUrl(url), url).toBe(false);
    }
  });

  it('a Worker folder copied elsewhere deploys: every path of wrangler.jsonc resolves inside the copy', async () => {
    const emitted = path.join(temp.path, 'worker');
    expect(runCli(['emit', 'cloudflare', '--dir', published, '--out', emitted]).status).toBe(0);
    // Moved away from the build, which is then removed: nothing may still point at either place.
    const copy = path.join(temp.path, 'elsewhere', 'worker');
    cpSync(emitted, copy, { recursive: true });
    rmSync(emitted, { recursive: true });
    rmSync(published, { recursive: true });
    const configFile = path.join(copy, 'wrangler.jsonc');
    const wrangler = wranglerBin();
    if (wrangler !== undefined) {
      const dryRun = await spawnAsync(wrangler, ['deploy', '--dry-run', '--config', configFile], { cwd: os.tmpdir() });
      expect(dryRun.status, dryRun.stderr).toBe(0);
    }
    // Without wrangler (not a dependency), what its dry run reads: the paths it resolves from the config's folder.
    const config = readWranglerConfig(configFile);
    expect(path.isAbsolute(config.main)).toBe(false);
    expect(path.isAbsolute(config.assets.directory)).toBe(false);
    expect(readFileSync(path.resolve(copy, config.main), 'utf8')).toContain('export');
    expect(existsSync(path.resolve(copy, config.assets.directory, 'manifest.json'))).toBe(true);
    expect(readFileSync(configFile, 'utf8')).not.toContain(temp.path);
  });
});

/** wrangler, when a `npm install wrangler` put it beside the project; undefined otherwise. */
function wranglerBin(): string | undefined {
  const bin = path.join(REPO_ROOT, 'node_modules', '.bin', 'wrangler');
  return existsSync(bin) ? bin : undefined;
}

describe('the host table of docs/hosts.md', () => {
  it('is the table the adapters declare (each cell backed by the behaviour tests)', () => {
    const hosts = readFileSync(path.join(REPO_ROOT, 'docs/hosts.md'), 'utf8');
    const marked = /<!-- host-table -->\n([\s\S]*?)\n<!-- \/host-table -->/.exec(hosts);
    expect(marked, 'docs/hosts.md must hold the table between <!-- host-table --> and <!-- /host-table -->').not.toBeNull();
    const table = hostTable(HOSTS);
    expect(marked![1], `docs/hosts.md must hold, between its markers, as is:\n\n${table}\n`).toBe(table);
  });
});
