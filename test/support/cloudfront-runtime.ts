import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import type { Exchange, Probe } from './host-behaviours.ts';

/**
 * CloudFront in front of S3, as far as the CloudFront host needs it, evaluated here from the emitted
 * files as AWS documents the parts:
 *
 * - the function runs in a `node:vm` context that holds only the built-ins the cloudfront-js-2.0
 *   runtime documents ("JavaScript runtime 2.0 features for CloudFront Functions": no `Map`, `Set`,
 *   `URLSearchParams`, `Object.hasOwn`, `Array.from`, `eval`...), in strict mode as the runtime is;
 * - its first line may import the runtime's module as "Helper methods for key value stores" writes it,
 *   `import cf from 'cloudfront';` (and nothing else: the runtime has no other modules). `cf.kvs()` is
 *   the key value store that function-config.json associates with the function, filled from the
 *   emitted import file as CloudFront imports one ("File format for key-value pairs": `{"data":
 *   [{"key", "value"}]}`, no key twice, 5 MB, keys of 512 characters, values of 1,024). Its `get`
 *   returns a promise, rejected for a key the store does not have ("the get() method will return an
 *   error"), also for a key longer than a key may be (the documentation does not say; no such key is
 *   in the store); `exists` and `meta` as documented;
 * - its event is built as CloudFront builds a viewer-request event ("CloudFront Functions event
 *   structure"): `uri` the path as sent, still percent-encoded; `querystring` one field a name, names
 *   and values as sent (not decoded), a repeated name's values in `multiValue`, the first also in
 *   `value`; `rawQueryString()` the query as sent without `?`, `undefined` without `?` ("General
 *   helper methods"). With `raw: false` the method is missing, as in the console's test tool, which
 *   returns "" for it. The handler may be async (runtime 2.0): its promise is awaited;
 * - a method outside the behavior's AllowedMethods never reaches the function: CloudFront answers
 *   403 itself ("This distribution is not configured to allow the HTTP request method...");
 * - a returned request goes to S3: the key is the decoded URI; the object's Content-Type is its
 *   metadata (the deploy uploads every file with `--content-type application/json`); a missing key is
 *   S3's 403 (no ListBucket for CloudFront's origin access), which the distribution's custom error
 *   responses replace; the response headers policy's custom headers are added to what S3 serves.
 */
export interface CloudFrontFiles {
  /** function.js as emitted. */
  code: string;
  /** key-value-store.json as emitted: the store's import file. */
  storeImport: string;
  /** function-config.json as emitted. */
  functionConfig: { Runtime: string; KeyValueStoreAssociations?: { Quantity: number; Items: { KeyValueStoreARN: string }[] } };
  /** response-headers-policy.json as emitted. */
  policy: { CustomHeadersConfig: { Items: { Header: string; Value: string; Override: boolean }[] } };
  /** distribution-config.json as emitted. */
  distribution: {
    DefaultCacheBehavior: { AllowedMethods: { Items: string[] } };
    CustomErrorResponses: { Items: { ErrorCode: number; ResponsePagePath: string; ResponseCode: string }[] };
  };
}

export function readCloudFrontFiles(folder: string): CloudFrontFiles {
  const text = (name: string) => readFileSync(path.join(folder, name), 'utf8');
  return {
    code: text('function.js'),
    storeImport: text('key-value-store.json'),
    functionConfig: JSON.parse(text('function-config.json')) as CloudFrontFiles['functionConfig'],
    policy: JSON.parse(text('response-headers-policy.json')) as CloudFrontFiles['policy'],
    distribution: JSON.parse(text('distribution-config.json')) as CloudFrontFiles['distribution'],
  };
}

/** The documented limits of an import file and its pairs. */
const IMPORT_LIMITS = { fileBytes: 5 * 1024 * 1024, keyCharacters: 512, valueCharacters: 1024 };

/** The store as CloudFront would hold it after importing the file; throws where CloudFront would refuse it. */
export function importStore(file: string): Map<string, string> {
  if (Buffer.byteLength(file) > IMPORT_LIMITS.fileBytes) throw new Error(`import file of ${Buffer.byteLength(file)} bytes, over 5 MB`);
  const parsed = JSON.parse(file) as { data?: unknown };
  if (!Array.isArray(parsed.data)) throw new Error('import file without a "data" array');
  const store = new Map<string, string>();
  for (const pair of parsed.data as { key?: unknown; value?: unknown }[]) {
    const { key, value } = pair;
    if (typeof key !== 'string' || typeof value !== 'string' || Object.keys(pair).length !== 2) throw new Error(`not a key-value pair: ${JSON.stringify(pair)}`);
    if (store.has(key)) throw new Error(`duplicate key ${JSON.stringify(key)}`);
    if (key.length === 0 || key.length > IMPORT_LIMITS.keyCharacters) throw new Error(`key of ${key.length} characters: ${key.slice(0, 40)}`);
    if (value.length > IMPORT_LIMITS.valueCharacters) throw new Error(`value of ${value.length} characters under ${key}`);
    store.set(key, value);
  }
  return store;
}

/** How often the store was read, for the tests that look at the cost of a request. */
export interface StoreReads {
  gets: number;
}

type Handler = (event: unknown) => FunctionResult | Promise<FunctionResult>;
interface FunctionResult {
  statusCode?: number;
  headers?: Record<string, { value: string }>;
  body?: { encoding: string; data: string } | string;
  uri?: string;
}

/** Built-ins the runtime documents, by object; everything else is removed from the context. */
const DOCUMENTED = {
  globals: [
    'Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'Date', 'Promise', 'RegExp', 'JSON', 'Math',
    'Error', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'InternalError',
    'ArrayBuffer', 'DataView', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array',
    'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'TextEncoder', 'TextDecoder', 'console',
    'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'isFinite', 'isNaN', 'parseFloat', 'parseInt',
    'atob', 'btoa', 'globalThis', 'NaN', 'Infinity', 'undefined',
  ],
  Object: [
    'create', 'defineProperties', 'defineProperty', 'freeze', 'getOwnPropertyDescriptor', 'getOwnPropertyDescriptors',
    'getOwnPropertyNames', 'getPrototypeOf', 'isExtensible', 'isFrozen', 'isSealed', 'keys', 'preventExtensions', 'seal',
    'assign', 'entries', 'values', 'is', 'setPrototypeOf',
  ],
  'Object.prototype': ['hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toString', 'valueOf', '__proto__'],
  String: ['fromCharCode', 'fromCodePoint'],
  'String.prototype': [
    'charAt', 'concat', 'indexOf', 'lastIndexOf', 'match', 'replace', 'search', 'slice', 'split', 'substr', 'substring',
    'toLowerCase', 'trim', 'toUpperCase', 'codePointAt', 'endsWith', 'includes', 'repeat', 'startsWith', 'padStart',
    'padEnd', 'trimStart', 'trimEnd', 'replaceAll', 'toString', 'valueOf',
  ],
  Array: ['isArray', 'of'],
  'Array.prototype': [
    'concat', 'every', 'filter', 'forEach', 'indexOf', 'join', 'lastIndexOf', 'map', 'pop', 'push', 'reduce', 'reduceRight',
    'reverse', 'shift', 'slice', 'some', 'sort', 'splice', 'unshift', 'copyWithin', 'fill', 'find', 'findIndex', 'includes',
    'toString',
  ],
};

/** Removes from the context every built-in the documentation does not list (run before the function). */
const RESTRICT = `(function (documented) {
  function keep(object, names, always) {
    Object.getOwnPropertyNames(object).forEach(function (name) {
      if (names.indexOf(name) < 0 && always.indexOf(name) < 0) delete object[name];
    });
  }
  keep(globalThis, documented.globals, []);
  keep(Object, documented.Object, ['length', 'name', 'prototype']);
  keep(Object.prototype, documented['Object.prototype'], ['constructor']);
  keep(String, documented.String, ['length', 'name', 'prototype']);
  keep(String.prototype, documented['String.prototype'], ['constructor', 'length']);
  keep(Array, documented.Array, ['length', 'name', 'prototype']);
  keep(Array.prototype, documented['Array.prototype'], ['constructor', 'length']);
  // No iteration protocol on arrays: a for...of or a spread left in the code fails here.
  delete Array.prototype[Symbol.iterator];
})(${JSON.stringify(DOCUMENTED)});`;

/** The runtime's module as a function's first line imports it. */
const CLOUDFRONT_IMPORT = "import cf from 'cloudfront';";

/**
 * Loads the emitted function.js as the runtime would and returns its `handler`; `store` is the key
 * value store associated with the function (none: `cf.kvs()` throws), `reads` counts its gets.
 */
export function loadFunction(code: string, store?: Map<string, string>, reads: StoreReads = { gets: 0 }): Handler {
  const context = vm.createContext({ TextEncoder, TextDecoder, console: { log: () => {} } });
  vm.runInContext(RESTRICT, context);
  let body = code;
  if (code.startsWith('import')) {
    if (!code.startsWith(`${CLOUDFRONT_IMPORT}\n`)) throw new Error(`the runtime has one module, imported as \`${CLOUDFRONT_IMPORT}\`: ${code.slice(0, 60)}`);
    // The import's binding, then the rest of the code on the lines it had.
    context.cf = cloudfrontModule(context, store, reads);
    body = `\n${code.slice(CLOUDFRONT_IMPORT.length + 1)}`;
  }
  // The runtime runs functions in strict mode, always.
  vm.runInContext(`"use strict";${body}\n;globalThis.__handler = handler;`, context, { filename: 'function.js' });
  return (context as { __handler: Handler }).__handler;
}

/** The `cloudfront` module's default export: `kvs()` and its helper methods, promises of the function's own realm. */
function cloudfrontModule(context: vm.Context, store: Map<string, string> | undefined, reads: StoreReads): object {
  // The realm's own built-ins live on its global, not on the object the context was made from.
  const RealmPromise = vm.runInContext('Promise', context) as PromiseConstructor;
  const RealmError = vm.runInContext('Error', context) as ErrorConstructor;
  const settle = <T>(work: () => T): Promise<T> =>
    new RealmPromise<T>((resolve, reject) => {
      try {
        resolve(work());
      } catch (error) {
        reject(new RealmError((error as Error).message));
      }
    });
  const value = (key: unknown): string => {
    reads.gets++;
    if (typeof key !== 'string' || key.length > IMPORT_LIMITS.keyCharacters || store?.has(key) !== true) throw new Error(`Key ${String(key)} not found`);
    return store.get(key)!;
  };
  return {
    kvs() {
      if (store === undefined) throw new Error('no key value store is associated with the function');
      const held = store;
      return {
        get: (key: unknown, options?: { format?: string }) =>
          settle(() => {
            const text = value(key);
            if (options?.format === 'json') return JSON.parse(text) as unknown;
            if (options?.format === 'bytes') return new TextEncoder().encode(text);
            return text;
          }),
        exists: (key: unknown) => settle(() => typeof key === 'string' && held.has(key)),
        meta: () => settle(() => ({ creationDateTime: '', lastUpdatedDateTime: '', keyCount: held.size })),
      };
    },
  };
}

/** The viewer-request event CloudFront builds for a request target sent as is. */
export function viewerRequestEvent(method: string, target: string, { raw = true } = {}): { version: string; context: object; viewer: object; request: Record<string, unknown> } {
  const queryStart = target.indexOf('?');
  const uri = queryStart < 0 ? target : target.slice(0, queryStart);
  const rawQuery = queryStart < 0 ? undefined : target.slice(queryStart + 1);
  const querystring: Record<string, { value: string; multiValue?: { value: string }[] }> = {};
  for (const piece of (rawQuery ?? '').split('&')) {
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    const name = equals < 0 ? piece : piece.slice(0, equals);
    const value = equals < 0 ? '' : piece.slice(equals + 1);
    const field = querystring[name];
    if (field === undefined) querystring[name] = { value };
    else (field.multiValue ??= [{ value: field.value }]).push({ value });
  }
  const request: Record<string, unknown> = { method, uri, querystring, headers: { host: { value: 'mirror.test' } }, cookies: {} };
  if (raw) request.rawQueryString = () => rawQuery;
  return { version: '1.0', context: { eventType: 'viewer-request' }, viewer: { ip: '192.0.2.1' }, request };
}

/** The key value store that function-config.json associates with the function, filled from the import file. */
export function associatedStore(files: CloudFrontFiles): Map<string, string> | undefined {
  const associations = files.functionConfig.KeyValueStoreAssociations;
  if (associations === undefined || associations.Quantity === 0) return undefined;
  // "You can associate only one key value store with a function", and only with runtime 2.0.
  if (associations.Quantity !== 1 || files.functionConfig.Runtime !== 'cloudfront-js-2.0') throw new Error('a key value store needs runtime 2.0, one a function');
  return importStore(files.storeImport);
}

/** One request through CloudFront: the function, then S3 for the file it chose. */
export async function sendThroughCloudFront(files: CloudFrontFiles, handler: Handler, dir: string, probe: Probe, { raw = true } = {}): Promise<Exchange> {
  const head = probe.method === 'HEAD';
  if (!files.distribution.DefaultCacheBehavior.AllowedMethods.Items.includes(probe.method)) {
    const body = 'This distribution is not configured to allow the HTTP request method that was used for this request.';
    return { status: 403, headers: { 'content-type': 'text/html' }, body: head ? Buffer.alloc(0) : Buffer.from(body) };
  }
  const result = await handler(viewerRequestEvent(probe.method, probe.target, { raw }));
  if (result.statusCode !== undefined) {
    const headers: Record<string, string> = {};
    for (const [name, { value }] of Object.entries(result.headers ?? {})) headers[name] = value;
    const data = typeof result.body === 'string' ? result.body : result.body?.data ?? '';
    return { status: result.statusCode, headers, body: head ? Buffer.alloc(0) : Buffer.from(data) };
  }
  return fromS3(files, dir, decodeURIComponent(result.uri!.slice(1)), head);
}

function fromS3(files: CloudFrontFiles, dir: string, key: string, head: boolean): Exchange {
  const file = path.join(dir, key);
  const exists = !path.relative(dir, file).startsWith('..') && statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  let status = 200;
  let bodyFile = file;
  if (!exists) {
    const custom = files.distribution.CustomErrorResponses.Items.find((item) => item.ErrorCode === 403);
    if (custom === undefined) return { status: 403, headers: { 'content-type': 'application/xml' }, body: Buffer.from('<Error><Code>AccessDenied</Code></Error>') };
    status = Number(custom.ResponseCode);
    bodyFile = path.join(dir, custom.ResponsePagePath.slice(1));
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const { Header, Value, Override } of files.policy.CustomHeadersConfig.Items) {
    if (Override || headers[Header.toLowerCase()] === undefined) headers[Header.toLowerCase()] = Value;
  }
  return { status, headers, body: head ? Buffer.alloc(0) : readFileSync(bodyFile) };
}

/**
 * Syntax the code uses beyond ES 5.1 (the runtime documents 5.1 and only some later features; the
 * emitted function keeps to 5.1), found by walking TypeScript's parse of it. Empty when there is none.
 * Allowed beyond it, as runtime 2.0 documents them and the function needs them: the runtime's module
 * imported on the first line, and `async` functions declared at the top with `await` inside them
 * ("async closures are not supported").
 */
export function syntaxBeyondEs5(code: string): string[] {
  const source = ts.createSourceFile('function.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found = new Set<string>();
  const forbiddenKinds = new Set([
    ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.ClassDeclaration, ts.SyntaxKind.ClassExpression, ts.SyntaxKind.ForOfStatement,
    ts.SyntaxKind.TemplateExpression, ts.SyntaxKind.NoSubstitutionTemplateLiteral, ts.SyntaxKind.TaggedTemplateExpression,
    ts.SyntaxKind.SpreadElement, ts.SyntaxKind.SpreadAssignment, ts.SyntaxKind.ObjectBindingPattern, ts.SyntaxKind.ArrayBindingPattern,
    ts.SyntaxKind.ComputedPropertyName, ts.SyntaxKind.ShorthandPropertyAssignment, ts.SyntaxKind.MethodDeclaration,
    ts.SyntaxKind.YieldExpression, ts.SyntaxKind.AwaitExpression, ts.SyntaxKind.BigIntLiteral, ts.SyntaxKind.ImportDeclaration,
    ts.SyntaxKind.ExportDeclaration, ts.SyntaxKind.ExportAssignment, ts.SyntaxKind.MetaProperty, ts.SyntaxKind.ImportKeyword,
  ]);
  const forbiddenOperators = new Set([
    ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.AsteriskAsteriskToken, ts.SyntaxKind.AsteriskAsteriskEqualsToken,
    ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken, ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ]);
  const topAsync = (node: ts.Node | undefined): boolean =>
    node !== undefined && ts.isFunctionDeclaration(node) && ts.isSourceFile(node.parent) && !node.asteriskToken &&
    node.modifiers?.length === 1 && node.modifiers[0]!.kind === ts.SyntaxKind.AsyncKeyword;
  const allowed = (node: ts.Node): boolean => {
    if (ts.isImportDeclaration(node)) return node === source.statements[0] && node.getText(source) === CLOUDFRONT_IMPORT;
    if (ts.isAwaitExpression(node)) return topAsync(ts.findAncestor(node.parent, ts.isFunctionLike));
    return topAsync(node);
  };
  const visit = (node: ts.Node): void => {
    const kind = ts.SyntaxKind[node.kind];
    if (allowed(node)) {
      ts.forEachChild(node, visit);
      return;
    }
    if (forbiddenKinds.has(node.kind)) found.add(kind);
    if (ts.isVariableDeclarationList(node) && node.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) found.add('let/const');
    if (ts.isParameter(node) && (node.initializer || node.dotDotDotToken)) found.add('default or rest parameter');
    if (ts.isBinaryExpression(node) && forbiddenOperators.has(node.operatorToken.kind)) found.add(ts.SyntaxKind[node.operatorToken.kind]);
    if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || ts.isCallExpression(node)) && node.questionDotToken) found.add('?.');
    if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)) && (node.asteriskToken || node.modifiers?.length)) found.add('generator or async function');
    if (ts.isCatchClause(node) && node.variableDeclaration === undefined) found.add('catch without a binding');
    if (ts.isRegularExpressionLiteral(node)) {
      const flags = node.text.slice(node.text.lastIndexOf('/') + 1);
      if (/[^gim]/.test(flags) || /\(\?<|\\[pPk]\{?/.test(node.text)) found.add(`regular expression ${node.text}`);
    }
    if (ts.isNumericLiteral(node) && /^0[boBO]|_/.test(node.getText(source))) found.add(`number ${node.getText(source)}`);
    if (ts.isStringLiteral(node) && /\\u\{/.test(node.getText(source))) found.add('\\u{...} escape');
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (/[\u2028\u2029]/.test(code)) found.add('raw U+2028/U+2029 (a line break inside an ES5 string)');
  // Syntax errors are kept on the source file (not in TypeScript's public types).
  const errors = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  if (errors.length > 0) found.add(`does not parse: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, ' ')}`);
  return [...found];
}
