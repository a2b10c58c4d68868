import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A stand-in `aws` command for the deploy tests. Put `bin` first on the PATH of the command under
 * test. Every call is logged (its arguments, one line), and it answers as the AWS CLI does, from
 * state kept in a file between calls (so a test may run the command under spawnSync):
 *
 * - S3: `s3 cp <folder> s3://mirror-bucket/[prefix] --recursive` and `s3 cp <file> s3://mirror-bucket/<key>`
 *   copy into a local "bucket" folder; `s3 rm s3://mirror-bucket/<key>` deletes from it.
 * - CloudFront Functions: one function, `lda-mirror`, with its DEVELOPMENT and LIVE stages, as the
 *   previous workflow left it (runtime 2.0, no key value store). `describe-function [--stage]`,
 *   `update-function` (the whole config, from `file://` or inline JSON, and the code, from `fileb://`;
 *   `--if-match` must be the DEVELOPMENT ETag; a store it associates must exist and be READY) and
 *   `publish-function` (DEVELOPMENT to LIVE, `--if-match` the DEVELOPMENT ETag).
 * - Key value stores: `create-key-value-store --name --import-source SourceType=S3,SourceARN=arn:aws:s3:::mirror-bucket/<key>`
 *   reads the import file from the bucket and answers PROVISIONING; the first `describe-key-value-store`
 *   still says PROVISIONING, the next READY, or PROVISIONING_FAILED when the file is missing or not
 *   an import file (its format and limits). `list-key-value-stores`; `delete-key-value-store --if-match`
 *   needs the store's ETag and refuses a store that either stage of the function is associated with.
 * - `create-invalidation`.
 *
 * Errors are the CLI's: a message on stderr and exit code 254 (252 for a command line it would not
 * parse, an option it does not know or a required one missing). `--query` takes the JMESPath this
 * workflow uses (fields, `[n]`, `[]`, multi-select lists) and refuses the rest; `--output text` prints
 * as the CLI does (`None` for nothing). What AWS leaves undocumented, the fake decides strictly: an
 * association with a store that is not READY is refused, so the test shows that the workflow waits.
 *
 * `bin` also holds a `sleep` that returns at once, so that a step polling a store does not wait.
 */
export interface FakeAws {
  bin: string;
  bucket: string;
  /** The calls since the last `reset()`, one line each (the arguments). */
  calls(): string[];
  /** Forgets the calls, not the state: AWS keeps its resources between steps. */
  reset(): void;
  /** The function and the stores as the calls left them. */
  cloudfront(): FakeCloudFront;
}

export interface FakeFunctionConfig {
  Comment: string;
  Runtime: string;
  KeyValueStoreAssociations?: { Quantity: number; Items?: { KeyValueStoreARN: string }[] };
}

export interface FakeFunctionStage {
  etag: string;
  config: FakeFunctionConfig;
  /** The code, as text. */
  code: string;
}

export interface FakeStore {
  Name: string;
  Id: string;
  Comment: string;
  ARN: string;
  Status: 'PROVISIONING' | 'READY' | 'PROVISIONING_FAILED';
  LastModifiedTime: string;
  etag: string;
  /** The pairs imported, once READY. */
  data?: { key: string; value: string }[];
  failureReason?: string;
}

export interface FakeCloudFront {
  function: { name: string; development: FakeFunctionStage; live: FakeFunctionStage };
  /** In the order they were created. */
  stores: FakeStore[];
  invalidations: { distributionId: string; paths: string[] }[];
}

export const FAKE_BUCKET = 'mirror-bucket';
export const FAKE_FUNCTION = 'lda-mirror';
export const FAKE_ACCOUNT = '123456789012';

export function installFakeAws(folder: string): FakeAws {
  const bin = path.join(folder, 'bin');
  const bucket = path.join(folder, 'bucket');
  const log = path.join(folder, 'aws-calls.log');
  const state = path.join(folder, 'aws-state.json');
  mkdirSync(bin, { recursive: true });
  mkdirSync(bucket, { recursive: true });
  writeFileSync(log, '');
  const before: FakeFunctionStage = {
    etag: '',
    config: { Comment: 'lda-clients-mirror router', Runtime: 'cloudfront-js-2.0' },
    code: '// the router with the map in its code, as the workflow published it before the key value store\n',
  };
  const initial: FakeCloudFront & { counters: Record<string, number> } = {
    function: { name: FAKE_FUNCTION, development: { ...before, etag: 'DEV-ETAG-1' }, live: { ...before, etag: 'LIVE-ETAG-1' } },
    stores: [],
    invalidations: [],
    counters: { development: 1, live: 1, store: 0, invalidation: 0 },
  };
  writeFileSync(state, `${JSON.stringify(initial, null, 2)}\n`);
  const config = { log, state, bucket, bucketName: FAKE_BUCKET, account: FAKE_ACCOUNT };
  writeFileSync(path.join(bin, 'aws'), `#!/usr/bin/env node\n'use strict';\nconst CONFIG = ${JSON.stringify(config)};\n${FAKE_AWS_PROGRAM}`);
  chmodSync(path.join(bin, 'aws'), 0o755);
  writeFileSync(path.join(bin, 'sleep'), '#!/bin/sh\n# fake-aws: the workflow polls a store; the fake answers at once, so nothing to wait for.\nexit 0\n');
  chmodSync(path.join(bin, 'sleep'), 0o755);
  return {
    bin,
    bucket,
    calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    reset: () => writeFileSync(log, ''),
    cloudfront: () => JSON.parse(readFileSync(state, 'utf8')) as FakeCloudFront,
  };
}

/**
 * The program of bin/aws (CommonJS, run by node), after `const CONFIG = {log, state, bucket,
 * bucketName, account}`. Plain JavaScript in a raw string: no backquotes and no dollar-brace in it.
 */
const FAKE_AWS_PROGRAM = String.raw`const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
fs.appendFileSync(CONFIG.log, args.join(' ') + '\n');

class CliError extends Error {
  constructor(exitCode, message) {
    super(message);
    this.exitCode = exitCode;
  }
}
/** A service error, printed as the CLI prints one. */
function serviceError(code, operation, message) {
  return new CliError(254, '\nAn error occurred (' + code + ') when calling the ' + operation + ' operation: ' + message);
}
function usageError(message) {
  return new CliError(252, 'usage: aws [options] <command> <subcommand> [<subcommand> ...] [parameters]\naws: error: ' + message);
}

const GLOBAL_OPTIONS = ['query', 'output', 'region', 'no-cli-pager'];
const FLAGS = new Set(['recursive', 'only-show-errors', 'no-cli-pager']);

/** Each command: its options, those required, how many positional arguments, what it does. */
const COMMANDS = {
  's3 cp': { options: ['recursive', 'content-type', 'only-show-errors'], positional: 2, run: s3Copy },
  's3 rm': { options: ['recursive', 'only-show-errors'], positional: 1, run: s3Remove },
  'cloudfront describe-function': { required: ['name'], options: ['stage'], run: describeFunction },
  'cloudfront update-function': { required: ['name', 'if-match', 'function-config', 'function-code'], run: updateFunction },
  'cloudfront publish-function': { required: ['name', 'if-match'], run: publishFunction },
  'cloudfront create-key-value-store': { required: ['name'], options: ['comment', 'import-source'], run: createStore },
  'cloudfront describe-key-value-store': { required: ['name'], run: describeStore },
  'cloudfront list-key-value-stores': { options: ['status'], run: listStores },
  'cloudfront delete-key-value-store': { required: ['name', 'if-match'], run: deleteStore },
  'cloudfront create-invalidation': { required: ['distribution-id', 'paths'], run: createInvalidation },
};

function parseCommandLine(tokens) {
  const command = COMMANDS[tokens[0] + ' ' + tokens[1]];
  if (command === undefined) throw usageError('the fake aws has no command "' + tokens.slice(0, 2).join(' ') + '"');
  const positional = [];
  const options = {};
  for (let at = 2; at < tokens.length; at++) {
    const token = tokens[at];
    if (!token.startsWith('--')) {
      positional.push(token);
      continue;
    }
    const equals = token.indexOf('=');
    const name = equals > 0 ? token.slice(2, equals) : token.slice(2);
    const known = GLOBAL_OPTIONS.concat(command.options || [], command.required || []);
    if (!known.includes(name)) throw usageError('Unknown options: ' + token);
    if (equals > 0) options[name] = token.slice(equals + 1);
    else if (FLAGS.has(name)) options[name] = true;
    else if (at + 1 < tokens.length) options[name] = tokens[++at];
    else throw usageError('argument ' + token + ': expected one argument');
  }
  const missing = (command.required || []).filter((name) => options[name] === undefined);
  if (missing.length > 0) throw usageError('the following arguments are required: ' + missing.map((name) => '--' + name).join(', '));
  if (positional.length !== (command.positional || 0)) throw usageError('Unknown options: ' + positional.join(', '));
  return { command, positional, options };
}

// ---- state

const state = JSON.parse(fs.readFileSync(CONFIG.state, 'utf8'));
function save() {
  fs.writeFileSync(CONFIG.state, JSON.stringify(state, null, 2) + '\n');
}
function nextEtag(kind) {
  state.counters[kind] += 1;
  return kind === 'store' ? 'STORE-ETAG-' + state.counters.store : (kind === 'live' ? 'LIVE-ETAG-' : 'DEV-ETAG-') + state.counters[kind];
}
function now() {
  return new Date().toISOString();
}

// ---- S3

/** The local path of s3://<bucket>/<key>; only the fake bucket exists. */
function bucketPath(url, operation) {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (match === null) throw usageError('not an s3:// address: ' + url);
  if (match[1] !== CONFIG.bucketName) throw new CliError(1, operation + ' failed: ' + url + ' An error occurred (NoSuchBucket): The specified bucket does not exist');
  return { key: match[2], file: path.join(CONFIG.bucket, match[2]) };
}

function s3Copy(positional, options) {
  const [from, to] = positional;
  const target = bucketPath(to, 'upload');
  if (options.recursive) {
    if (!fs.statSync(from).isDirectory()) throw new CliError(1, 'upload failed: ' + from + ' is not a folder');
    fs.cpSync(from, target.file, { recursive: true });
  } else {
    if (!fs.existsSync(from) || fs.statSync(from).isDirectory()) throw new CliError(255, '\nThe user-provided path ' + from + ' does not exist.');
    const file = target.key === '' || target.key.endsWith('/') ? path.join(target.file, path.basename(from)) : target.file;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(from, file);
  }
}

function s3Remove(positional, options) {
  fs.rmSync(bucketPath(positional[0], 'delete').file, { force: true, recursive: Boolean(options.recursive) });
}

// ---- CloudFront Functions

function theFunction(name, operation) {
  if (name !== state.function.name) throw serviceError('NoSuchFunctionExists', operation, 'The function does not exist.');
  return state.function;
}

function functionSummary(fn, stage) {
  const version = stage === 'LIVE' ? fn.live : fn.development;
  return {
    Name: fn.name,
    Status: stage === 'LIVE' ? 'DEPLOYED' : 'UNPUBLISHED',
    FunctionConfig: version.config,
    FunctionMetadata: {
      FunctionARN: 'arn:aws:cloudfront::' + CONFIG.account + ':function/' + fn.name,
      Stage: stage,
      LastModifiedTime: now(),
    },
  };
}

function describeFunction(positional, options) {
  const stage = options.stage || 'DEVELOPMENT';
  if (stage !== 'DEVELOPMENT' && stage !== 'LIVE') throw serviceError('InvalidArgument', 'DescribeFunction', 'Stage must be DEVELOPMENT or LIVE.');
  const fn = theFunction(options.name, 'DescribeFunction');
  return { ETag: (stage === 'LIVE' ? fn.live : fn.development).etag, FunctionSummary: functionSummary(fn, stage) };
}

/** A structure argument: file://, or JSON. (The CLI's shorthand is not needed for these.) */
function structure(text, option) {
  const json = text.startsWith('file://') ? fs.readFileSync(text.slice('file://'.length), 'utf8') : text;
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new CliError(252, '\nError parsing parameter \'--' + option + '\': Invalid JSON: ' + error.message);
  }
}

function updateFunction(positional, options) {
  const fn = theFunction(options.name, 'UpdateFunction');
  if (options['if-match'] !== fn.development.etag) throw serviceError('PreconditionFailed', 'UpdateFunction', 'The request failed because it didn\'t meet the preconditions in one or more request-header fields.');
  const config = structure(options['function-config'], 'function-config');
  if (typeof config.Comment !== 'string' || typeof config.Runtime !== 'string') throw new CliError(252, '\nParameter validation failed:\nMissing required parameter in FunctionConfig: "Comment" or "Runtime"');
  if (config.Runtime !== 'cloudfront-js-1.0' && config.Runtime !== 'cloudfront-js-2.0') throw serviceError('InvalidArgument', 'UpdateFunction', 'Runtime ' + config.Runtime + ' is not valid.');
  const associations = config.KeyValueStoreAssociations;
  if (associations !== undefined) {
    const items = associations.Items || [];
    if (associations.Quantity !== items.length) throw serviceError('InvalidArgument', 'UpdateFunction', 'KeyValueStoreAssociations: Quantity does not match Items.');
    if (items.length > 1) throw serviceError('InvalidArgument', 'UpdateFunction', 'A function can have only one key value store.');
    if (items.length > 0 && config.Runtime !== 'cloudfront-js-2.0') throw serviceError('InvalidArgument', 'UpdateFunction', 'Key value stores need runtime cloudfront-js-2.0.');
    for (const item of items) {
      const store = state.stores.find((candidate) => candidate.ARN === item.KeyValueStoreARN);
      if (store === undefined) throw serviceError('InvalidArgument', 'UpdateFunction', 'The key value store ' + item.KeyValueStoreARN + ' does not exist.');
      if (store.Status !== 'READY') throw serviceError('InvalidArgument', 'UpdateFunction', 'The key value store ' + store.Name + ' is ' + store.Status + ', not READY.');
    }
  }
  const code = options['function-code'];
  if (!code.startsWith('fileb://')) throw usageError('--function-code: the fake reads the code from fileb:// only');
  const bytes = fs.readFileSync(code.slice('fileb://'.length));
  if (bytes.length > 10240) throw serviceError('FunctionSizeLimitExceeded', 'UpdateFunction', 'The function is too large: ' + bytes.length + ' bytes, over 10240.');
  fn.development = { etag: nextEtag('development'), config: config, code: bytes.toString('utf8') };
  return { ETag: fn.development.etag, FunctionSummary: functionSummary(fn, 'DEVELOPMENT') };
}

function publishFunction(positional, options) {
  const fn = theFunction(options.name, 'PublishFunction');
  if (options['if-match'] !== fn.development.etag) throw serviceError('PreconditionFailed', 'PublishFunction', 'The request failed because it didn\'t meet the preconditions in one or more request-header fields.');
  fn.live = { etag: nextEtag('live'), config: fn.development.config, code: fn.development.code };
  return { FunctionSummary: functionSummary(fn, 'LIVE') };
}

// ---- Key value stores

function storeView(store) {
  return { Name: store.Name, Id: store.Id, Comment: store.Comment, ARN: store.ARN, Status: store.Status, LastModifiedTime: store.LastModifiedTime };
}

function theStore(name, operation) {
  const store = state.stores.find((candidate) => candidate.Name === name);
  if (store === undefined) throw serviceError('EntityNotFound', operation, 'The key value store entity was not found.');
  return store;
}

/** --import-source: the CLI's shorthand (SourceType=S3,SourceARN=...) or JSON. */
function importSource(text) {
  if (text.trim().startsWith('{')) return structure(text, 'import-source');
  const source = {};
  for (const part of text.split(',')) {
    const equals = part.indexOf('=');
    if (equals < 0) throw new CliError(252, '\nError parsing parameter \'--import-source\': Expected: \'=\', received: \'EOF\' for input: ' + text);
    source[part.slice(0, equals)] = part.slice(equals + 1);
  }
  return source;
}

/** The pairs of an import file ("File format for key-value pairs"), or why CloudFront would refuse it. */
function readImportFile(source) {
  if (source.SourceType !== 'S3') return { failure: 'SourceType must be S3' };
  const match = /^arn:aws:s3:::([^/]+)\/(.+)$/.exec(source.SourceARN || '');
  if (match === null) return { failure: 'SourceARN is not the ARN of an S3 object: ' + source.SourceARN };
  if (match[1] !== CONFIG.bucketName) return { failure: 'no bucket ' + match[1] };
  const file = path.join(CONFIG.bucket, match[2]);
  if (!fs.existsSync(file)) return { failure: 'no object ' + match[2] + ' in ' + match[1] };
  const text = fs.readFileSync(file, 'utf8');
  if (Buffer.byteLength(text) > 5000000) return { failure: 'the import file is over 5 MB' };
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { failure: 'the import file is not JSON' };
  }
  if (parsed === null || !Array.isArray(parsed.data)) return { failure: 'the import file has no "data" array' };
  const keys = new Set();
  for (const pair of parsed.data) {
    if (pair === null || typeof pair.key !== 'string' || typeof pair.value !== 'string' || pair.key === '') return { failure: 'a pair without a string key and value' };
    if (keys.has(pair.key)) return { failure: 'the key ' + pair.key + ' twice' };
    keys.add(pair.key);
    if (Buffer.byteLength(pair.key) > 512 || Buffer.byteLength(pair.value) > 1024) return { failure: 'the key ' + pair.key + ' or its value is over the limits' };
  }
  return { data: parsed.data.map((pair) => ({ key: pair.key, value: pair.value })) };
}

function createStore(positional, options) {
  const name = options.name;
  if (!/^[a-zA-Z0-9-_]{1,64}$/.test(name)) throw serviceError('InvalidArgument', 'CreateKeyValueStore', 'The name ' + name + ' does not match [a-zA-Z0-9-_]{1,64}.');
  if (state.stores.some((store) => store.Name === name)) throw serviceError('EntityAlreadyExists', 'CreateKeyValueStore', 'The key value store ' + name + ' already exists.');
  const comment = options.comment === undefined ? '' : options.comment;
  if (comment.length > 128) throw serviceError('InvalidArgument', 'CreateKeyValueStore', 'The comment is over 128 characters.');
  const imported = options['import-source'] === undefined ? { data: [] } : readImportFile(importSource(options['import-source']));
  state.counters.store += 1;
  const id = 'fake-kvs-' + String(state.counters.store).padStart(4, '0');
  const store = {
    Name: name,
    Id: id,
    Comment: comment,
    ARN: 'arn:aws:cloudfront::' + CONFIG.account + ':key-value-store/' + id,
    Status: 'PROVISIONING',
    LastModifiedTime: now(),
    etag: 'STORE-ETAG-' + state.counters.store,
    // The import runs in the background: one describe still sees it provisioning.
    provisioningReads: 1,
    pending: imported,
  };
  state.stores.push(store);
  return { ETag: store.etag, Location: 'https://cloudfront.amazonaws.com/2020-05-31/key-value-store/' + name, KeyValueStore: storeView(store) };
}

function describeStore(positional, options) {
  const store = theStore(options.name, 'DescribeKeyValueStore');
  if (store.Status === 'PROVISIONING') {
    if (store.provisioningReads > 0) store.provisioningReads -= 1;
    else {
      if (store.pending.failure !== undefined) {
        store.Status = 'PROVISIONING_FAILED';
        store.failureReason = store.pending.failure;
      } else {
        store.Status = 'READY';
        store.data = store.pending.data;
      }
      delete store.pending;
      delete store.provisioningReads;
      store.LastModifiedTime = now();
    }
  }
  return { ETag: store.etag, KeyValueStore: storeView(store) };
}

function listStores(positional, options) {
  const stores = state.stores.filter((store) => options.status === undefined || store.Status === options.status);
  return { KeyValueStoreList: { MaxItems: 100, Quantity: stores.length, Items: stores.map(storeView) } };
}

function deleteStore(positional, options) {
  const store = theStore(options.name, 'DeleteKeyValueStore');
  if (options['if-match'] !== store.etag) throw serviceError('PreconditionFailed', 'DeleteKeyValueStore', 'The request failed because it didn\'t meet the preconditions in one or more request-header fields.');
  const associated = [state.function.development, state.function.live].some((stage) => {
    const associations = stage.config.KeyValueStoreAssociations;
    return associations !== undefined && (associations.Items || []).some((item) => item.KeyValueStoreARN === store.ARN);
  });
  if (associated) throw serviceError('CannotDeleteEntityWhileInUse', 'DeleteKeyValueStore', 'The key value store is associated with a function.');
  state.stores = state.stores.filter((candidate) => candidate !== store);
  return undefined;
}

// ---- Invalidations

function createInvalidation(positional, options) {
  state.counters.invalidation += 1;
  const id = 'I' + String(state.counters.invalidation).padStart(4, '0');
  const paths = [options.paths];
  state.invalidations.push({ distributionId: options['distribution-id'], paths: paths });
  return {
    Location: 'https://cloudfront.amazonaws.com/2020-05-31/distribution/' + options['distribution-id'] + '/invalidation/' + id,
    Invalidation: { Id: id, Status: 'InProgress', CreateTime: now(), InvalidationBatch: { Paths: { Quantity: paths.length, Items: paths }, CallerReference: 'cli-' + id } },
  };
}

// ---- --query and --output

/** The JMESPath this workflow uses: fields, [n], [] (a projection), multi-select lists. */
function parseQuery(text) {
  const tokens = [];
  const pattern = /\s*([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[.\[\],])/y;
  let at = 0;
  while (at < text.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (match === null) {
      if (text.slice(at).trim() === '') break;
      throw usageError('--query ' + text + ': beyond the JMESPath the fake evaluates (at "' + text.slice(at) + '")');
    }
    tokens.push(match[1]);
    at = pattern.lastIndex;
  }
  let position = 0;
  const peek = () => tokens[position];
  const take = (expected) => {
    const token = tokens[position++];
    if (expected !== undefined && token !== expected) throw usageError('--query ' + text + ': expected ' + expected);
    return token;
  };
  function chain() {
    const steps = [];
    for (;;) {
      const token = peek();
      if (token === '[') {
        take('[');
        if (peek() === ']') steps.push({ flatten: true });
        else if (/^[0-9]+$/.test(peek())) steps.push({ index: Number(take()) });
        else {
          const list = [chain()];
          while (peek() === ',') {
            take(',');
            list.push(chain());
          }
          steps.push({ multi: list });
        }
        take(']');
      } else if (token !== undefined && /^[A-Za-z_]/.test(token)) {
        steps.push({ field: take() });
      } else throw usageError('--query ' + text + ': unexpected ' + (token === undefined ? 'end' : token));
      if (peek() === '.') take('.');
      else if (peek() !== '[') return steps;
    }
  }
  const steps = chain();
  if (position !== tokens.length) throw usageError('--query ' + text + ': unexpected ' + peek());
  return steps;
}

function evaluate(steps, value) {
  for (let at = 0; at < steps.length; at++) {
    const step = steps[at];
    if (value === null || value === undefined) return null;
    if (step.field !== undefined) value = typeof value === 'object' && !Array.isArray(value) ? value[step.field] : null;
    else if (step.index !== undefined) value = Array.isArray(value) ? value[step.index] : null;
    else if (step.multi !== undefined) value = step.multi.map((inner) => evaluate(inner, value));
    else {
      if (!Array.isArray(value)) return null;
      const rest = steps.slice(at + 1);
      return value
        .flatMap((item) => (Array.isArray(item) ? item : [item]))
        .map((item) => evaluate(rest, item))
        .filter((item) => item !== null && item !== undefined);
    }
  }
  return value === undefined ? null : value;
}

function scalarText(value) {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'object') throw usageError('--output text: the fake prints scalars and lists only');
  return String(value);
}

function textOutput(value) {
  if (!Array.isArray(value)) return scalarText(value);
  if (value.some(Array.isArray)) return value.map((row) => (Array.isArray(row) ? row.map(scalarText).join('\t') : scalarText(row))).join('\n');
  return value.map(scalarText).join('\t');
}

// ---- main

try {
  const { command, positional, options } = parseCommandLine(args);
  const query = options.query === undefined ? undefined : parseQuery(options.query);
  const output = options.output === undefined ? 'json' : options.output;
  if (output !== 'json' && output !== 'text') throw usageError('--output ' + output + ': the fake prints json or text');
  const result = command.run(positional, options);
  save();
  if (result !== undefined) {
    const value = query === undefined ? result : evaluate(query, result);
    process.stdout.write((output === 'text' ? textOutput(value) : JSON.stringify(value, null, 4)) + '\n');
  }
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  process.stderr.write(error.message + '\n');
  process.exit(error.exitCode);
}
`;
