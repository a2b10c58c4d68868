import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTS } from '../../src/hosts/hosts.ts';
import { hostTable } from '../../src/hosts/host-table.ts';
import { parseListen } from '../../src/hosts/write-host-files.ts';
import { REPO_ROOT, runCli } from '../support/cli.ts';
import { buildConformanceSet } from '../support/conformance-build.ts';
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

describe('the host table of docs/hosts.md', () => {
  it('is the table the adapters declare (each cell backed by the behaviour tests)', () => {
    const hosts = readFileSync(path.join(REPO_ROOT, 'docs/hosts.md'), 'utf8');
    const marked = /<!-- host-table -->\n([\s\S]*?)\n<!-- \/host-table -->/.exec(hosts);
    expect(marked, 'docs/hosts.md must hold the table between <!-- host-table --> and <!-- /host-table -->').not.toBeNull();
    const table = hostTable(HOSTS);
    expect(marked![1], `docs/hosts.md must hold, between its markers, as is:\n\n${table}\n`).toBe(table);
  });
});
