/**
 * Links from a docs page to a file outside docs/ (`../../src/…`, `../../test/…`, `../../README.md`)
 * point at the repository, not at a page of the site, so VitePress would either call them dead or
 * copy a 404 into the site. This markdown-it rule gives them one meaning: the target must exist
 * (else the build fails, naming page and link), and the link goes to DOCS_SOURCE_URL + the path
 * from the repository root when that variable is set (e.g. a forge's "blob/main" URL), or becomes
 * plain text titled with the path when it is not, since an offline site has nowhere to send it.
 */
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { MarkdownRenderer } from 'vitepress';

type CoreRule = Parameters<MarkdownRenderer['core']['ruler']['push']>[1];
type Token = Parameters<CoreRule>[0]['tokens'][number];

export interface RepoLinkOptions {
  /** Absolute path of docs/ (VitePress's srcDir). */
  docsDir: string;
  /** Absolute path of the repository. */
  repoRoot: string;
  /** Where repository files are browsed, without a trailing slash; undefined renders plain text. */
  sourceUrl: string | undefined;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The repository path a link leaves docs/ for, or null for a link that stays in the site. */
export function repositoryTarget(link: string, pagePath: string, options: RepoLinkOptions): string | null {
  if (link === '' || link.startsWith('#') || link.startsWith('/') || SCHEME.test(link)) return null;
  const [pathPart = ''] = link.split(/[?#]/);
  const target = resolve(dirname(pagePath), decodeURIComponent(pathPart));
  const inDocs = target === options.docsDir || target.startsWith(options.docsDir + sep);
  if (inDocs) return null;
  return relative(options.repoRoot, target).split(sep).join('/');
}

export function repoLinksPlugin(md: MarkdownRenderer, options: RepoLinkOptions): void {
  md.core.ruler.push('repo_links', (state) => {
    const pagePath = (state.env as { path?: string }).path;
    if (!pagePath) return;
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      // Link tokens do not nest, so the close after a rewritten open is its own.
      let plainOpen: Token | null = null;
      for (const token of block.children) {
        if (token.type === 'link_close' && plainOpen) {
          token.type = 'html_inline';
          token.content = '</span>';
          plainOpen = null;
          continue;
        }
        if (token.type !== 'link_open') continue;
        const href = token.attrGet('href') ?? '';
        const target = repositoryTarget(href, pagePath, options);
        if (target === null) continue;
        if (target.startsWith('..') || !existsSync(resolve(options.repoRoot, target.replace(/[?#].*$/, '')))) {
          throw new Error(
            `${relative(options.docsDir, pagePath)}: the link ${href} names ${target}, which is not in the repository`,
          );
        }
        const fragment = href.includes('#') ? href.slice(href.indexOf('#')) : '';
        if (options.sourceUrl) {
          token.attrSet('href', `${options.sourceUrl}/${target}${fragment}`);
        } else {
          token.type = 'html_inline';
          token.content = `<span class="repo-file" title="${escapeAttribute(target)} in the repository">`;
          plainOpen = token;
        }
      }
    }
  });
}
