import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanCheckout } from '../support/clean-checkout.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { CONFORMANCE_BASE_URL } from '../support/conformance.ts';
import { buildConformanceSet } from '../support/conformance-build.ts';
import { FAKE_BUCKET, FAKE_FUNCTION, installFakeAws, type FakeStore } from '../support/fake-aws.ts';
import { snapshot } from '../support/folder-snapshot.ts';
import { spawnAsync } from '../support/spawn-async.ts';
import { startTestUpstream, type TestUpstream } from '../support/test-upstream.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * .github/workflows/nightly.yml, its steps run as written (with `bash -eo pipefail`, as GitHub runs
 * them under `shell: bash`) in a workspace that is a clean copy of the checkout (node_modules linked
 * in place of `npm ci`), against a test upstream serving the lda-real set, and a stand-in `aws` that
 * keeps a local "bucket", a CloudFront Function with its two stages and the key value stores
 * (test/support/fake-aws.ts). Each night is a run of its own (GITHUB_RUN_ID); what a step appends to
 * $GITHUB_ENV reaches the steps after it in the same run, as on GitHub. "Install the command" packs
 * the workspace and installs the package globally, with npm's prefix in a temporary folder: the steps
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
  defaults?: { run?: { shell?: string } };
  jobs: { mirror: { steps: Step[] } };
};
const steps = workflow.jobs.mirror.steps;
const { version: VERSION } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
const step = (name: string): string => {
  const found = steps.find((candidate) => candidate.name === name);
  if (found?.run === undefined) throw new Error(`the workflow has no step "${name}" with a run script`);
  return found.run;
};

const EMIT = 'Emit the CloudFront Function and its key value store';
const CREATE_STORE = "Create this build's key value store";
const PUBLISH = 'Point the CloudFront Function at the new store and publish it';
const INVALIDATE = 'Invalidate the changed API paths';
const DELETE_OLD_STORES = 'Delete the key value stores before the previous one';
const DEPLOY_WORKER = 'Deploy the Cloudflare Worker (only the changed assets upload)';

const temp = tempFolder('mirror-workflow-');
const aws = installFakeAws(temp.path);
const workspace = path.join(temp.path, 'workspace');
/** Where `npm install --global` puts the package and its commands (npm's prefix). */
const globalPrefix = path.join(temp.path, 'global');
const runnerTemp = path.join(temp.path, 'runner-temp');
const githubEnvFile = path.join(temp.path, 'github-env');
const emitted = path.join(workspace, 'mirror/cloudfront');
let upstream: TestUpstream;

/** The workflow run the steps belong to: its id and attempt, and what its steps put in $GITHUB_ENV. */
let run = { id: '1000', attempt: '1', env: {} as Record<string, string> };
const startRun = (id: string, attempt = '1') => (run = { id, attempt, env: {} });

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
  writeFileSync(githubEnvFile, '');
  const result = await spawnAsync('bash', ['-eo', 'pipefail', '-c', step(name)], {
    cwd: workspace,
    env: {
      ...process.env,
      PATH: `${path.join(globalPrefix, 'bin')}:${aws.bin}:${process.env.PATH}`,
      npm_config_prefix: globalPrefix,
      RUNNER_TEMP: runnerTemp,
      GITHUB_ENV: githubEnvFile,
      GITHUB_RUN_ID: run.id,
      GITHUB_RUN_ATTEMPT: run.attempt,
      UPSTREAM: upstream.url,
      BASE_URL: CONFORMANCE_BASE_URL,
      BUCKET: FAKE_BUCKET,
      DISTRIBUTION_ID: 'E2EXAMPLE',
      FUNCTION_NAME: FAKE_FUNCTION,
      FULL: '',
      LDA_API_KEY: 'workflow-key',
      FORCE_COLOR: '0',
      ...run.env,
      ...env,
    },
  });
  // NAME=value lines (the workflow writes no multi-line values).
  for (const line of readFileSync(githubEnvFile, 'utf8').split('\n').filter(Boolean)) {
    const equals = line.indexOf('=');
    if (equals < 1) throw new Error(`${name} wrote "${line}" to $GITHUB_ENV, not NAME=value`);
    run.env[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return { ...result, calls: aws.calls() };
}

const storeName = () => `${FAKE_FUNCTION}-${run.id}-${run.attempt}`;
const storeNamed = (name: string): FakeStore | undefined => aws.cloudfront().stores.find((store) => store.Name === name);
const liveStoreArn = () => aws.cloudfront().function.live.config.KeyValueStoreAssociations?.Items?.[0]?.KeyValueStoreARN;
const describeForDeletion = (name: string) => `cloudfront describe-key-value-store --name ${name} --query [KeyValueStore.ARN, ETag] --output text`;

/**
 * Emits, creates this run's store and publishes the function with it, as the three steps do, checking
 * every call: the store holds the emitted import file, and the LIVE function is the emitted code
 * associated with the new store. Returns the store.
 */
async function deployToCloudFront(): Promise<FakeStore> {
  const liveBefore = liveStoreArn();
  const emit = await runStep(EMIT);
  expect(emit.status, emit.stderr).toBe(0);
  expect(emit.calls).toEqual([]);

  const create = await runStep(CREATE_STORE);
  expect(create.status, create.stderr).toBe(0);
  const name = storeName();
  const describeStatus = `cloudfront describe-key-value-store --name ${name} --query KeyValueStore.Status --output text`;
  expect(create.calls).toEqual([
    `s3 cp mirror/cloudfront/key-value-store.json s3://${FAKE_BUCKET}/_deploy/key-value-store.json --content-type application/json --only-show-errors`,
    `cloudfront create-key-value-store --name ${name} --comment map and page counts for ${FAKE_FUNCTION}, run ${run.id} --import-source SourceType=S3,SourceARN=arn:aws:s3:::${FAKE_BUCKET}/_deploy/key-value-store.json --query KeyValueStore.ARN --output text`,
    // PROVISIONING, so it waits and asks again: READY.
    describeStatus,
    describeStatus,
  ]);
  const store = storeNamed(name)!;
  expect(store.Status).toBe('READY');
  expect(store.data).toEqual(JSON.parse(readFileSync(path.join(emitted, 'key-value-store.json'), 'utf8')).data);
  expect(run.env).toMatchObject({ STORE_NAME: name, STORE_ARN: store.ARN });
  // Until the function is published with it, the edges keep the store they had.
  expect(liveStoreArn()).toBe(liveBefore);

  const before = aws.cloudfront().function;
  const publish = await runStep(PUBLISH);
  expect(publish.status, publish.stderr).toBe(0);
  const after = aws.cloudfront().function;
  expect(publish.calls).toEqual([
    `cloudfront describe-function --name ${FAKE_FUNCTION} --stage LIVE --output text --query FunctionSummary.FunctionConfig.KeyValueStoreAssociations.Items[0].KeyValueStoreARN`,
    `cloudfront describe-function --name ${FAKE_FUNCTION} --query ETag --output text`,
    `cloudfront update-function --name ${FAKE_FUNCTION} --if-match ${before.development.etag} --function-config file://mirror/cloudfront/function-config.json --function-code fileb://mirror/cloudfront/function.js --query ETag --output text`,
    `cloudfront publish-function --name ${FAKE_FUNCTION} --if-match ${after.development.etag} --query FunctionSummary.Status --output text`,
  ]);
  expect(run.env.PREVIOUS_STORE_ARN).toBe(liveBefore ?? 'None');
  // function-config.json as emitted, with the store's ARN in place of the placeholder.
  const config = readFileSync(path.join(emitted, 'function-config.json'), 'utf8');
  expect(config).not.toContain('KEY-VALUE-STORE-ARN');
  expect(after.live.config).toEqual(JSON.parse(config));
  expect(after.live.config).toMatchObject({
    Runtime: 'cloudfront-js-2.0',
    KeyValueStoreAssociations: { Quantity: 1, Items: [{ KeyValueStoreARN: store.ARN }] },
  });
  expect(after.live.code).toBe(readFileSync(path.join(emitted, 'function.js'), 'utf8'));
  return store;
}

describe('.github/workflows/nightly.yml', () => {
  const site = path.join(workspace, 'mirror/site');
  const stores: FakeStore[] = [];

  it('runs the command installed from the package the checkout packs', async () => {
    const found = await spawnAsync('bash', ['-c', 'command -v lda-mirror && lda-mirror --version'], {
      cwd: workspace,
      env: { ...process.env, PATH: `${path.join(globalPrefix, 'bin')}:${process.env.PATH}` },
    });
    expect(found.stdout.split('\n')).toEqual([path.join(globalPrefix, 'bin/lda-mirror'), VERSION, '']);
  });

  it('runs its steps with pipefail, as this test does', () => {
    expect(workflow.defaults?.run?.shell).toBe('bash');
  });

  it('runs the nightly with the key from the secret, and deploys the change it printed', async () => {
    startRun('1001');
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

    // The function as the previous workflow left it has no store: this first run gives it one.
    expect(liveStoreArn()).toBeUndefined();
    stores.push(await deployToCloudFront());

    const invalidate = await runStep(INVALIDATE);
    expect(invalidate.calls).toEqual(['cloudfront create-invalidation --distribution-id E2EXAMPLE --paths /api/v1/*']);

    // No other store yet: nothing to delete.
    const cleanup = await runStep(DELETE_OLD_STORES);
    expect(cleanup.status, cleanup.stderr).toBe(0);
    expect(cleanup.calls).toEqual(['cloudfront list-key-value-stores --query KeyValueStoreList.Items[].Name --output text']);
    expect(aws.cloudfront().stores.map((store) => store.Name)).toEqual([`${FAKE_FUNCTION}-1001-1`]);
  }, 120_000);

  it('deploys the Cloudflare Worker with the query bundle alone as its assets, through wrangler', async () => {
    // A stand-in `npx` that records what it was asked to run and the assets that wrangler would upload.
    const bin = path.join(temp.path, 'fake-npx');
    mkdirSync(bin, { recursive: true });
    const log = path.join(temp.path, 'npx.log');
    writeFileSync(path.join(bin, 'npx'), `#!/usr/bin/env bash\necho "$*" > ${JSON.stringify(log)}\n`, { mode: 0o755 });
    const deploy = await runStep(DEPLOY_WORKER, { PATH: `${bin}:${path.join(globalPrefix, 'bin')}:${aws.bin}:${process.env.PATH}` });
    expect(deploy.status, deploy.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('--yes wrangler@4 deploy --config mirror/cloudflare/wrangler.jsonc\n');
    const config = JSON.parse(readFileSync(path.join(workspace, 'mirror/cloudflare/wrangler.jsonc'), 'utf8').split('\n').filter((line) => !line.startsWith('//')).join('\n')) as { assets: { directory: string } };
    expect(config.assets.directory).toBe(path.join(site, 'bundle/'));
    expect(Object.keys(snapshot(config.assets.directory).files)).toContain('manifest.json');
    expect(deploy.calls).toEqual([]);
  });

  it('the next night without change uploads nothing, invalidates nothing, and keeps the previous store', async () => {
    startRun('1002');
    const nightly = await runStep('Sync, build, check');
    expect(nightly.status, nightly.stderr).toBe(0);
    expect(nightly.stdout).toContain('Change for deploy: 0 file(s) to upload');
    expect((await runStep('Upload the change list, delete what is gone')).calls).toEqual([]);

    stores.push(await deployToCloudFront());
    expect(run.env.PREVIOUS_STORE_ARN).toBe(stores[0]!.ARN);

    const invalidate = await runStep(INVALIDATE);
    expect(invalidate.calls).toEqual([]);
    expect(invalidate.stdout).toContain('nothing changed: no invalidation');

    // Edges may still read last night's store until the publish reaches them: it stays.
    const cleanup = await runStep(DELETE_OLD_STORES);
    expect(cleanup.status, cleanup.stderr).toBe(0);
    expect(cleanup.calls).toEqual([
      'cloudfront list-key-value-stores --query KeyValueStoreList.Items[].Name --output text',
      describeForDeletion(`${FAKE_FUNCTION}-1001-1`),
    ]);
    expect(aws.cloudfront().stores.map((store) => store.Name)).toEqual([`${FAKE_FUNCTION}-1001-1`, `${FAKE_FUNCTION}-1002-1`]);
  }, 120_000);

  it('syncs in full on the weekly schedule and when asked', async () => {
    startRun('1003');
    expect(workflow.env.FULL).toContain("github.event.schedule == '30 7 * * 0'");
    expect(workflow.env.FULL).toContain('inputs.full');
    const full = await runStep('Sync, build, check', { FULL: '--full' });
    expect(full.status, full.stderr).toBe(0);
    expect(full.stdout).toMatch(/sync: 74 records in .* \(full\)/);
  }, 120_000);

  it('the third deploy deletes the store from two builds back', async () => {
    // The same run as the full sync.
    expect((await runStep('Upload the change list, delete what is gone')).status).toBe(0);
    stores.push(await deployToCloudFront());
    expect(run.env.PREVIOUS_STORE_ARN).toBe(stores[1]!.ARN);

    const cleanup = await runStep(DELETE_OLD_STORES);
    expect(cleanup.status, cleanup.stderr).toBe(0);
    expect(cleanup.calls).toEqual([
      'cloudfront list-key-value-stores --query KeyValueStoreList.Items[].Name --output text',
      describeForDeletion(`${FAKE_FUNCTION}-1001-1`),
      `cloudfront delete-key-value-store --name ${FAKE_FUNCTION}-1001-1 --if-match ${stores[0]!.etag}`,
      describeForDeletion(`${FAKE_FUNCTION}-1002-1`),
    ]);
    expect(cleanup.stdout).toBe(`deleted key value store ${FAKE_FUNCTION}-1001-1\n`);
    expect(aws.cloudfront().stores.map((store) => store.Name)).toEqual([`${FAKE_FUNCTION}-1002-1`, `${FAKE_FUNCTION}-1003-1`]);
  }, 120_000);

  it('a store that fails to import stops the deploy before the function changes; the re-run deletes it', async () => {
    startRun('1004');
    expect((await runStep(EMIT)).status).toBe(0);
    writeFileSync(path.join(emitted, 'key-value-store.json'), '{"data":{"map":"1"}}\n');
    const failed = await runStep(CREATE_STORE);
    expect(failed.status).not.toBe(0);
    expect(failed.stdout).toContain(`::error::key value store ${FAKE_FUNCTION}-1004-1 is PROVISIONING_FAILED, not READY`);
    expect(run.env).toEqual({});
    expect(storeNamed(`${FAKE_FUNCTION}-1004-1`)?.Status).toBe('PROVISIONING_FAILED');
    // GitHub runs no step after a failed one; the publish step would not run without the store anyway.
    const publish = await runStep(PUBLISH);
    expect(publish.status).not.toBe(0);
    expect(publish.calls).toEqual([]);
    expect(liveStoreArn()).toBe(stores[2]!.ARN);

    startRun('1004', '2');
    stores.push(await deployToCloudFront());
    const cleanup = await runStep(DELETE_OLD_STORES);
    expect(cleanup.status, cleanup.stderr).toBe(0);
    expect(cleanup.stdout).toBe(`deleted key value store ${FAKE_FUNCTION}-1002-1\ndeleted key value store ${FAKE_FUNCTION}-1004-1\n`);
    expect(aws.cloudfront().stores.map((store) => store.Name)).toEqual([`${FAKE_FUNCTION}-1003-1`, `${FAKE_FUNCTION}-1004-2`]);
  }, 120_000);
});
