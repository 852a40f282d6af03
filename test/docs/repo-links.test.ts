/**
 * Links from docs pages to repository files (scripts/docs/repo-links.ts), rendered by VitePress's
 * own Markdown renderer: sent to DOCS_SOURCE_URL when it is set, plain text otherwise, and a link to
 * a file that does not exist stops the build.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMarkdownRenderer, disposeMdItInstance } from 'vitepress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoLinksPlugin, repositoryTarget } from '../../scripts/docs/repo-links.js';

let repo: string;
let docs: string;
let page: string;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'tcs-repo-links-'));
  docs = join(repo, 'docs');
  mkdirSync(join(docs, 'develop'), { recursive: true });
  mkdirSync(join(repo, 'src'));
  writeFileSync(join(repo, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(join(repo, 'README.md'), '# Readme\n');
  page = join(docs, 'develop', 'page.md');
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

async function render(markdown: string, sourceUrl: string | undefined): Promise<string> {
  // VitePress keeps one renderer per process; each case needs its own options.
  disposeMdItInstance();
  const md = await createMarkdownRenderer(docs, {
    config: (renderer) => renderer.use(repoLinksPlugin, { docsDir: docs, repoRoot: repo, sourceUrl }),
  });
  return md.render(markdown, { path: page, relativePath: 'develop/page.md', cleanUrls: false });
}

describe('repositoryTarget', () => {
  it('is the path from the repository root for a link leaving docs/, null for one that stays', () => {
    const options = { docsDir: docs, repoRoot: repo, sourceUrl: undefined };
    expect(repositoryTarget('../../src/a.ts#L3', page, options)).toBe('src/a.ts');
    expect(repositoryTarget('../../README.md', page, options)).toBe('README.md');
    expect(repositoryTarget('../operate/running.md', page, options)).toBeNull();
    expect(repositoryTarget('#anchor', page, options)).toBeNull();
    expect(repositoryTarget('https://example.org/x', page, options)).toBeNull();
  });
});

describe('repoLinksPlugin', () => {
  it('sends a repository link to DOCS_SOURCE_URL, keeping its line anchor', async () => {
    const html = await render('See [a.ts](../../src/a.ts#L3).', 'https://forge.example/r/blob/main');
    expect(html).toContain('href="https://forge.example/r/blob/main/src/a.ts#L3"');
  });

  it('shows it as plain text titled with the path when no URL is set', async () => {
    const html = await render('See [the readme](../../README.md) and [a page](../operate/x.md).', undefined);
    expect(html).toContain('<span class="repo-file" title="README.md in the repository">the readme</span>');
    expect(html).toContain('href="./../operate/x.html"');
  });

  it('refuses a link to a file the repository does not have', async () => {
    await expect(render('[gone](../../src/gone.ts)', undefined)).rejects.toThrow(
      /develop\/page\.md: the link \.\.\/\.\.\/src\/gone\.ts names src\/gone\.ts, which is not in the repository/,
    );
  });
});
