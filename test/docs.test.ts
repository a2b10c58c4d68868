import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cli.ts';

/**
 * The README is the front door and docs/ the reference: the README stays one short read, the contract
 * in docs/ stays the shared one, and no link of either leads nowhere.
 */
const SHARED_CONTRACT = path.join(REPO_ROOT, '..', 'shared', 'spec', 'contract.md');
const DOCS = path.join(REPO_ROOT, 'docs');
const README_LINE_LIMIT = 250;

const documents = ['README.md', ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('the documentation', () => {
  it.skipIf(!existsSync(SHARED_CONTRACT))('docs/contract.md is byte-identical to ../shared/spec/contract.md', () => {
    expect(readFileSync(path.join(DOCS, 'contract.md')).equals(readFileSync(SHARED_CONTRACT)), 'copy ../shared/spec/contract.md to docs/contract.md').toBe(true);
  });

  it(`README.md is under ${README_LINE_LIMIT} lines`, () => {
    const lines = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length).toBeLessThan(README_LINE_LIMIT);
  });

  it.each(documents)('every relative link in %s points at a file that exists', (document) => {
    const broken = relativeLinks(document).filter((link) => !existsSync(link.file)).map((link) => link.target);
    expect(broken).toEqual([]);
  });

  it.each(documents)('every #anchor of a relative link in %s names a heading of its document', (document) => {
    const broken = relativeLinks(document)
      .filter((link) => link.anchor !== undefined && link.file.endsWith('.md') && existsSync(link.file))
      .filter((link) => !headingAnchors(link.file).has(link.anchor!))
      .map((link) => link.target);
    expect(broken).toEqual([]);
  });
});

interface Link {
  target: string;
  /** The file the link leads to, absolute. */
  file: string;
  anchor?: string;
}

/** Markdown links (inline and reference-style) outside code, that lead to a place in this repository. */
function relativeLinks(document: string): Link[] {
  const text = withoutCode(readFileSync(path.join(REPO_ROOT, document), 'utf8'));
  const targets = [
    ...[...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!),
  ];
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [filePart, anchor] = target.split('#', 2) as [string, string | undefined];
      const file = filePart === '' ? path.join(REPO_ROOT, document) : path.resolve(path.dirname(path.join(REPO_ROOT, document)), decodeURIComponent(filePart));
      return { target, file, anchor };
    });
}

/** Fenced blocks and inline code hold examples, not links. */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as `-`. */
function headingAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}
