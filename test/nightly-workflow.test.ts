import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanCheckout } from './support/clean-checkout.ts';
import { REPO_ROOT } from './support/cli.ts';
import { CONFORMANCE_BASE_URL } from './support/conformance.ts';
import { buildConformanceSet } from './support/conformance-build.ts';
import { FAKE_BUCKET, installFakeAws } from './support/fake-aws.ts';
import { snapshot } from './support/folder-snapshot.ts';
import { spawnAsync } from './support/spawn-async.ts';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.ts';
import { tempFolder } from './support/temp-folder.ts';

/**
 * .github/workflows/nightly.yml, its steps run as written (with bash, as GitHub runs them) in a
 * workspace that is a clean copy of the checkout (node_modules linked in place of `npm ci`), against
 * a test upstream serving the lda-real set, and a stand-in `aws` that keeps a local "bucket" and
 * answers CloudFront's calls with ETags (test/support/fake-aws.ts). "Install the command" packs the
 * workspace and installs the package globally, with npm's prefix in a temporary folder: the steps
 * after it run that installed `lda-mirror`, first on the PATH, as on GitHub. The install compiles
 * better-sqlite3 from source: minutes.
 */
interface Step {
  name?: string;
  uses?: string;
  run?: string;
}

const workflow = parse(readFileSync(path.join(REPO_ROOT, '.github/workflows/nightly.yml'), 'utf8')) as {
  env: Record<string, string>;
  jobs: { mirror: { steps: Step[] } };
};
const steps = workflow.jobs.mirror.steps;
const { version: VERSION } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
const step = (name: string): string => {
  const found = steps.find((candidate) => candidate.name === name);
  if (found?.run === undefined) throw new Error(`the workflow has no step "${name}" with a run script`);
  return found.run;
};

const temp = tempFolder('mirror-workflow-');
const aws = installFakeAws(temp.path);
const workspace = path.join(temp.path, 'workspace');
/** Where `npm install --global` puts the package and its commands (npm's prefix). */
const globalPrefix = path.join(temp.path, 'global');
const runnerTemp = path.join(temp.path, 'runner-temp');
let upstream: TestUpstream;

beforeAll(async () => {
  const upstreamSite = path.join(temp.path, 'upstream-site');
  await buildConformanceSet('lda-real', upstreamSite);
  upstream = await startTestUpstream(upstreamSite);
  cleanCheckout(workspace);
  mkdirSync(runnerTemp);
  const install = await runStep('Install the command');
  if (install.status !== 0) throw new Error(`Install the command failed:\n${install.stdout}${install.stderr}`);
}, 15 * 60_000);

afterAll(async () => {
  await upstream?.stop();
  temp.remove();
});

async function runStep(name: string, env: Record<string, string> = {}) {
  aws.reset();
  const result = await spawnAsync('bash', ['-eo', 'pipefail', '-c', step(name)], {
    cwd: workspace,
    env: {
      ...process.env,
      PATH: `${path.join(globalPrefix, 'bin')}:${aws.bin}:${process.env.PATH}`,
      npm_config_prefix: globalPrefix,
      RUNNER_TEMP: runnerTemp,
      UPSTREAM: upstream.url,
      BASE_URL: CONFORMANCE_BASE_URL,
      BUCKET: FAKE_BUCKET,
      DISTRIBUTION_ID: 'E2EXAMPLE',
      FUNCTION_NAME: 'lda-mirror',
      FULL: '',
      LDA_API_KEY: 'workflow-key',
      FORCE_COLOR: '0',
      ...env,
    },
  });
  return { ...result, calls: aws.calls() };
}

describe('.github/workflows/nightly.yml', () => {
  const site = path.join(workspace, 'mirror/site');

  it('runs the command installed from the package the checkout packs', async () => {
    const found = await spawnAsync('bash', ['-c', 'command -v lda-mirror && lda-mirror --version'], {
      cwd: workspace,
      env: { ...process.env, PATH: `${path.join(globalPrefix, 'bin')}:${process.env.PATH}` },
    });
    expect(found.stdout.split('\n')).toEqual([path.join(globalPrefix, 'bin/lda-mirror'), VERSION, '']);
  });

  it('runs the nightly with the key from the secret, and deploys the change it printed', async () => {
    expect(workflow.env.UPSTREAM).toBe('https://lda.senate.gov');
    const nightly = await runStep('Sync, build, check');
    expect(nightly.status, nightly.stderr).toBe(0);
    expect(nightly.stdout).toContain('sync: 74 records');
    expect(nightly.stdout).toMatch(/Change for deploy: [0-9,]+ file\(s\) to upload/);
    expect(new Set(upstream.log.map((request) => request.authorization))).toEqual(new Set(['Token workflow-key']));

    const upload = await runStep('Upload the change list, delete what is gone');
    expect(upload.status, upload.stderr).toBe(0);
    const published = Object.fromEntries(Object.entries(snapshot(site).files).filter(([file]) => !file.startsWith('_build/')));
    expect(snapshot(aws.bucket).files).toEqual(published);

    const functionUpdate = await runStep('Update the CloudFront Function');
    expect(functionUpdate.status, functionUpdate.stderr).toBe(0);
    expect(functionUpdate.calls).toEqual([
      'cloudfront describe-function --name lda-mirror --query ETag --output text',
      expect.stringMatching(/^cloudfront update-function --name lda-mirror --if-match ETAG-1 .*Runtime":"cloudfront-js-2\.0.* --function-code fileb:\/\/mirror\/cloudfront\/function\.js/),
      'cloudfront publish-function --name lda-mirror --if-match ETAG-2',
    ]);

    const invalidate = await runStep('Invalidate the changed API paths');
    expect(invalidate.calls).toEqual(['cloudfront create-invalidation --distribution-id E2EXAMPLE --paths /api/v1/*']);
  }, 120_000);

  it('the next night without change uploads nothing and invalidates nothing', async () => {
    const nightly = await runStep('Sync, build, check');
    expect(nightly.status, nightly.stderr).toBe(0);
    expect(nightly.stdout).toContain('Change for deploy: 0 file(s) to upload');
    expect((await runStep('Upload the change list, delete what is gone')).calls).toEqual([]);
    const invalidate = await runStep('Invalidate the changed API paths');
    expect(invalidate.calls).toEqual([]);
    expect(invalidate.stdout).toContain('nothing changed: no invalidation');
  }, 120_000);

  it('syncs in full on the weekly schedule and when asked', async () => {
    expect(workflow.env.FULL).toContain("github.event.schedule == '30 7 * * 0'");
    expect(workflow.env.FULL).toContain('inputs.full');
    const full = await runStep('Sync, build, check', { FULL: '--full' });
    expect(full.status, full.stderr).toBe(0);
    expect(full.stdout).toMatch(/sync: 74 records in .* \(full\)/);
  }, 120_000);
});
