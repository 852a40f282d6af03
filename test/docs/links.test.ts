/**
 * Every relative link in the project's Markdown (README, CHANGELOG, BENCHMARKS, docs/) names a file
 * that exists, and every #anchor a heading of its target by GitHub's slug rules — the same anchors
 * the docs site renders. A failure names file:line and the link, one per line.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkMarkdownLinks, formatLinkProblems, markdownFilesToCheck } from '../../scripts/docs/markdown-links.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('links in the Markdown', () => {
  it('covers the README, the benchmarks and the docs folder', () => {
    const files = markdownFilesToCheck(ROOT).map((file) => file.slice(ROOT.length));
    expect(files).toContain('README.md');
    expect(files).toContain('BENCHMARKS.md');
    expect(files.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(0);
    expect(files.some((file) => file.startsWith('docs/.vitepress/'))).toBe(false);
  });

  it('all resolve: files exist and anchors name headings', () => {
    const problems = checkMarkdownLinks(ROOT, markdownFilesToCheck(ROOT));
    expect(formatLinkProblems(problems)).toBe('');
  });
});
