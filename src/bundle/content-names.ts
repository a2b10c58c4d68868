import { sha256 } from './sha256.ts';

/** The folder of the query bundle in a built folder (bundle-manifest.ts says what it holds). */
export const BUNDLE_FOLDER = 'bundle/';

/**
 * Every file of the query bundle but its manifest is named by its content, as Pagefind names its
 * fragments: `<stem>.<hash>.bin`, the hash the first 16 hex digits of the bytes' SHA-256. So no name
 * ever holds other bytes: a reader that holds a manifest reads that build's files, or none (a newer
 * deploy has removed them: it reads the manifest again), never a newer build's under an older name;
 * and a file whose bytes do not match its name is damaged, found before it is answered from.
 *
 * `bundleFile` is the one way a bundle file gets its name: the build writes every file through it.
 */
export interface BundleFile {
  /** The path in the built folder: `bundle/<stem>.<hash>.bin`, or the manifest's. */
  path: string;
  data: Uint8Array;
}

export const HASH_DIGITS = 16;
const HASHED_NAME = /\.([0-9a-f]{16})\.bin$/;

/** A file of the bundle named by its content, from its stem (`clients/1`, `index/0-1024`, ...). */
export function bundleFile(stem: string, data: Uint8Array): BundleFile {
  return { path: `${BUNDLE_FOLDER}${hashedName(stem, hexOf(sha256(data)))}`, data };
}

/** The name under bundle/ of a stem and its file's hash: a manifest that keeps only the hash (chunks) names the file by it. */
export function hashedName(stem: string, hash: string): string {
  return `${stem}.${hash}.bin`;
}

/** The name under bundle/ of a file of `bundleFile`, as the manifest holds it. */
export function nameInBundle(file: BundleFile): string {
  return file.path.slice(BUNDLE_FOLDER.length);
}

/** The stem of a content-named file's name: without its hash and extension. */
export function stemOf(name: string): string {
  return name.replace(HASHED_NAME, '');
}

/** The hash of a file of `bundleFile`, for a manifest that keeps the stem apart. */
export function hashOf(file: BundleFile): string {
  return hashInName(file.path)!;
}

/** The hash a file's name holds, or undefined for a name without one (the manifest). */
export function hashInName(name: string): string | undefined {
  return HASHED_NAME.exec(name)?.[1];
}

/**
 * A bundle file that cannot be answered from: absent, late, or with bytes that do not match its name.
 * The answerer answers it with a 500 that names the file (answer/answerer.ts).
 */
export class BundleFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: 'missing' | 'damaged' | 'late',
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

/**
 * Checks that `bytes` are what the name `file` says, with Web Crypto (workerd, Deno, the edge
 * runtime and Node alike); a name without a hash passes. Throws a BundleFileError naming the file.
 */
export async function checkContent(file: string, bytes: Uint8Array): Promise<void> {
  if (hashInName(file) !== undefined) checkDigest(file, bytes, new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/** `checkContent` without waiting, with this project's SHA-256: for the build, which reads the previous build's files synchronously. */
export function checkContentNow(file: string, bytes: Uint8Array): void {
  if (hashInName(file) !== undefined) checkDigest(file, bytes, sha256(bytes));
}

function checkDigest(file: string, bytes: Uint8Array, digest: Uint8Array): void {
  const found = hexOf(digest);
  if (found !== hashInName(file)) throw new BundleFileError(file, 'damaged', `its bytes (${bytes.length}) do not match its name (SHA-256 ${found}...): the file is damaged`);
}

/** The hash a name holds, from the first HASH_DIGITS / 2 bytes of a digest: the digits of those bytes, in hex. */
export function hexOf(digest: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < HASH_DIGITS / 2; i++) hex += digest[i]!.toString(16).padStart(2, '0');
  return hex;
}
