import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { CONFORMANCE_BASE_URL, setFolder } from '../support/conformance.ts';
import { FAKE_BUCKET, installFakeAws } from '../support/fake-aws.ts';
import { snapshot } from '../support/folder-snapshot.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The nightly workflow's deploy step (scripts/deploy/s3-upload-change.sh) with a stand-in `aws` on
 * the PATH that copies into and deletes from a local folder as S3 would: after each deploy the
 * "bucket" must hold exactly the site, having received only the change.
 */
const temp = tempFolder('mirror-deploy-');
afterAll(() => temp.remove());

const aws = installFakeAws(temp.path);

function deploy(site: string) {
  aws.reset();
  const result = spawnSync('bash', ['scripts/deploy/s3-upload-change.sh', site, FAKE_BUCKET], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${aws.bin}:${process.env.PATH}` },
  });
  return { ...result, calls: aws.calls() };
}

/** The site as S3 should hold it: every file but the build's own bookkeeping. */
function published(site: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(site).files).filter(([file]) => !file.startsWith('_build/')));
}

function withoutLastClient(): string {
  const lines = readFileSync(path.join(setFolder('lda-real'), 'input.ndjson'), 'utf8').trim().split('\n');
  const file = path.join(temp.path, 'fewer.ndjson');
  writeFileSync(file, lines.slice(0, -1).join('\n'));
  return file;
}

describe('scripts/deploy/s3-upload-change.sh', () => {
  const site = path.join(temp.path, 'site');
  const buildFrom = (input: string) => build(resolveBuildOptions({ input: [input], out: site, baseUrl: CONFORMANCE_BASE_URL }));

  it('uploads a first build whole, as JSON', async () => {
    await buildFrom(path.join(setFolder('lda-real'), 'input.ndjson'));
    const result = deploy(site);
    expect(result.status, result.stderr).toBe(0);
    expect(result.calls).toHaveLength(1);
    expect(result.calls[0]).toMatch(/^s3 cp \S+ s3:\/\/mirror-bucket\/ --recursive --content-type application\/json/);
    expect(snapshot(aws.bucket).files).toEqual(published(site));
  });

  it('then uploads only what changed and deletes what is gone', async () => {
    await buildFrom(withoutLastClient());
    const changed = readFileSync(path.join(site, '_build/changed.txt'), 'utf8').trim().split('\n');
    const removed = readFileSync(path.join(site, '_build/removed.txt'), 'utf8').trim().split('\n').filter(Boolean);
    expect(removed.length).toBeGreaterThan(0);
    const result = deploy(site);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`uploaded ${changed.length} file(s) to s3://mirror-bucket, deleted ${removed.length}`);
    expect(result.calls.filter((call) => call.startsWith('s3 rm'))).toHaveLength(removed.length);
    expect(snapshot(aws.bucket).files).toEqual(published(site));
  });

  it('uploads nothing after a build without change', async () => {
    await buildFrom(withoutLastClient());
    const result = deploy(site);
    expect(result.status, result.stderr).toBe(0);
    expect(result.calls).toEqual([]);
    expect(result.stdout).toContain('uploaded 0 file(s)');
  });
});
