/**
 * No text in two places (issue 31): every H2 and H3 heading of the hand-written docs (README.md and
 * docs/, apart from the generated pages) is unique across all of them. A section copied into a
 * second page, instead of moved and linked, shows up as the same heading twice; two different
 * sections that share a heading also make links and search ambiguous, so they are renamed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Written by generators, which own their headings (one section per machine, event, metric…). */
const GENERATED = [/^docs\/develop\/machines\.md$/, /^docs\/reference\//, /^docs\/develop\/benchmarks-history\.md$/];

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The H2/H3 headings of a markdown text, outside fenced code (where `## ` can be a comment). */
function headings(text: string): string[] {
  const found: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === null) fence = marker[0]!;
      else if (marker[0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^(##|###)\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) found.push(heading[2]!);
  }
  return found;
}

/** Heading text → the files (relative to the root) that hold it, for every heading held twice or more. */
function duplicateHeadings(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  for (const [file, text] of files) {
    for (const heading of headings(text)) seen.set(heading, [...(seen.get(heading) ?? []), file]);
  }
  return new Map([...seen].filter(([, where]) => where.length > 1));
}

describe('headings', () => {
  it('reads H2 and H3, ignoring H1, H4 and anything inside fenced code', () => {
    const text = ['# Title', '## Two', '### Three', '#### Four', '```bash', '## not a heading', '```', '## After ##'];
    expect(headings(text.join('\n'))).toEqual(['Two', 'Three', 'After']);
  });

  it('reports a heading shared by two files, and only that one', () => {
    const files = new Map([
      ['a.md', '## Shared\n## Only in a'],
      ['b.md', '### Shared\n## Only in b'],
    ]);
    expect([...duplicateHeadings(files)]).toEqual([['Shared', ['a.md', 'b.md']]]);
  });
});

describe('the docs', () => {
  it('share no H2/H3 heading between README.md and the hand-written pages under docs/', () => {
    const paths = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];
    const files = new Map<string, string>();
    for (const path of paths) {
      const rel = relative(root, path).split('\\').join('/');
      if (GENERATED.some((pattern) => pattern.test(rel))) continue;
      files.set(rel, readFileSync(path, 'utf8'));
    }
    expect(files.size).toBeGreaterThan(10);
    expect(Object.fromEntries(duplicateHeadings(files))).toEqual({});
  });
});
