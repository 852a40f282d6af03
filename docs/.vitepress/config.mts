// The docs site (VitePress), built from docs/ by `npm run docs` into docs/.vitepress/dist, fully
// offline: local search, the theme's own fonts, nothing loaded from another host (checked after
// each build by scripts/docs/check-site-offline.ts). The sidebar is read from the folders at build
// time and anchors follow GitHub's slug rules, so the same Markdown reads the same on GitHub and
// here. How links to source files render: docs/develop/docs-site.md.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { githubSlug } from '../../scripts/docs/github-slug.js';
import { repoLinksPlugin } from '../../scripts/docs/repo-links.js';
import { buildSidebar } from '../../scripts/docs/sidebar.js';

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(docsDir, '..');
const sidebar = buildSidebar(docsDir);

export default defineConfig({
  title: 'Trading Control Service',
  description: 'An automated crypto trading process with an authenticated control plane',
  // Page links end in .html, so the built folder works from any static file server (or none).
  cleanUrls: false,
  // Dead links fail the build; none is ignored. Links leaving docs/ are handled by repoLinksPlugin.
  ignoreDeadLinks: false,
  markdown: {
    anchor: { slugify: githubSlug },
    config: (md) => {
      md.use(repoLinksPlugin, {
        docsDir,
        repoRoot,
        sourceUrl: process.env.DOCS_SOURCE_URL?.replace(/\/+$/, '') || undefined,
      });
    },
  },
  themeConfig: {
    search: { provider: 'local' },
    nav: sidebar
      .map((group) => ({ text: group.text, link: group.items?.find((item) => item.link)?.link }))
      .filter((item): item is { text: string; link: string } => item.link !== undefined),
    sidebar,
    outline: { level: [2, 3] },
  },
});
