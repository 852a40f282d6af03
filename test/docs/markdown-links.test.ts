/** The link checker itself (scripts/docs/markdown-links.ts), on made-up trees: it must catch what it claims to. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { githubSlug, uniqueSlugs } from '../../scripts/docs/github-slug.js';
import {
  checkMarkdownLinks,
  formatLinkProblems,
  headingText,
  markdownFilesToCheck,
  scanMarkdown,
} from '../../scripts/docs/markdown-links.js';

let root: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function check(): string {
  return formatLinkProblems(checkMarkdownLinks(root, markdownFilesToCheck(root)));
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tcs-links-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('githubSlug', () => {
  it("follows GitHub's rules: lower case, punctuation dropped, each space a hyphen, underscores kept", () => {
    expect(githubSlug('Live trading (EXECUTION_MODE=live)')).toBe('live-trading-execution_modelive');
    expect(githubSlug('Issue 18, after: kill latency — both stores')).toBe('issue-18-after-kill-latency--both-stores');
    expect(githubSlug('`tcs simulate` beside a plain loop')).toBe('tcs-simulate-beside-a-plain-loop');
    expect(githubSlug('Données à jour')).toBe('données-à-jour');
  });

  it('numbers repeated headings from 1, as GitHub does', () => {
    expect(uniqueSlugs(['Notes', 'Method', 'Notes', 'Notes'])).toEqual(['notes', 'method', 'notes-1', 'notes-2']);
  });
});

describe('headingText', () => {
  it('keeps code and link text, drops emphasis, images and tags', () => {
    expect(headingText('The `tcs` [command](x.md) is **fast** <sup>1</sup>')).toBe('The tcs command is fast 1');
    expect(headingText('`snake_case` and _emphasis_ and snake_case')).toBe('snake_case and emphasis and snake_case');
  });
});

describe('scanMarkdown', () => {
  it('skips links in code blocks and code spans, and reads setext and explicit anchors', () => {
    const scanned = scanMarkdown(
      [
        'Title',
        '=====',
        '```md',
        '[not a link](missing.md)',
        '# not a heading',
        '```',
        'Inline `[no](missing.md)` but [yes](there.md "title") and [ref]: <other file.md>',
        '<a id="custom"></a>',
      ].join('\n'),
    );
    expect(scanned.links).toEqual([{ line: 7, target: 'there.md' }]);
    expect([...scanned.anchors]).toEqual(['title', 'custom']);
  });
});

describe('checkMarkdownLinks', () => {
  it('passes a tree whose links all resolve', () => {
    write('README.md', '# Readme\n\nSee [ops](docs/operate/running.md#starting-it) and [src](src/a.ts#L3).\n');
    write('docs/operate/running.md', '# Running\n\n## Starting it\n\n[back](../../README.md#readme) [up](#running)\n');
    write('src/a.ts', 'export {};\n');
    expect(check()).toBe('');
  });

  it('names file:line and the link of a missing file', () => {
    write('README.md', '# Readme\n\nfine\n\nSee [gone](docs/nowhere.md).\n');
    mkdirSync(join(root, 'docs'));
    expect(check()).toBe('README.md:5: docs/nowhere.md (no such file: docs/nowhere.md)');
  });

  it('names a broken anchor, in the same file or another', () => {
    write('docs/a.md', '# A\n\n[here](#nope)\n[there](b.md#missing-heading)\n[fine](b.md#present-heading)\n');
    write('docs/b.md', '# B\n\n## Present heading\n');
    expect(check()).toBe(
      [
        'docs/a.md:3: #nope (no heading with anchor #nope in docs/a.md)',
        'docs/a.md:4: b.md#missing-heading (no heading with anchor #missing-heading in docs/b.md)',
      ].join('\n'),
    );
  });

  it('refuses a link leaving the repository and a non-line anchor on a source file', () => {
    write('README.md', '[out](../elsewhere.md)\n[src](src/a.ts#main)\n');
    write('src/a.ts', 'export {};\n');
    expect(check().split('\n')).toEqual([
      'README.md:1: ../elsewhere.md (points outside the repository)',
      'README.md:2: src/a.ts#main (#main is neither a heading nor a line anchor (#L10) of a source file)',
    ]);
  });

  it('leaves external links and mail addresses alone', () => {
    write('README.md', '[web](https://example.org/x.md#y) [mail](mailto:a@b.c) [proto](//example.org/z)\n');
    expect(check()).toBe('');
  });
});
