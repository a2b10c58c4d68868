import path from 'node:path';
import { walkBuiltTree } from './built-tree.ts';

/** The query bundle of a built folder as a host stores it (issue 31: at most 20,000 files, each at most 25 MiB). */
export interface BundleFiles {
  files: number;
  bytes: number;
  largest: { path: string; bytes: number };
}

export function measureBundleFiles(built: string): BundleFiles {
  const { files } = walkBuiltTree(path.join(built, 'bundle'));
  const largest = files.reduce((max, file) => (file.size > max.size ? file : max), { path: '', size: 0 });
  return { files: files.length, bytes: files.reduce((sum, file) => sum + file.size, 0), largest: { path: `bundle/${largest.path}`, bytes: largest.size } };
}

export function bundleRow(bundle: BundleFiles): [string, string] {
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1);
  const met = bundle.files <= 20_000 && bundle.largest.bytes <= 25 * 2 ** 20;
  return [
    "query bundle of the full build (bundle/, the Cloudflare Worker's only assets): files, MiB, largest file",
    `${bundle.files.toLocaleString('en-US')} files, ${mib(bundle.bytes)} MiB; largest ${bundle.largest.path}, ${mib(bundle.largest.bytes)} MiB (targets <= 20,000 files, each <= 25 MiB: ${met ? 'met' : 'missed'})`,
  ];
}
