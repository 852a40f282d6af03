/**
 * The docs site's sidebar, read from the folder structure when the site is built: one group per
 * section folder (operate, strategies, develop, reference, then any other folder), each page listed
 * by its H1, so a new page appears without editing the site's config. Pages directly under docs/
 * (other than the home page) form a last group. Within a group a folder's index.md comes first,
 * then pages by title.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { headingText } from './markdown-links.js';

export interface SidebarItem {
  text: string;
  link?: string;
  items?: SidebarItem[];
  collapsed?: boolean;
}

/** The sections in the order a reader meets them (issue 31): by task, the reference last. */
const SECTIONS: readonly { dir: string; text: string }[] = [
  { dir: 'operate', text: 'Operate' },
  { dir: 'strategies', text: 'Strategies' },
  { dir: 'develop', text: 'Develop' },
  { dir: 'reference', text: 'Reference' },
];

/** A page's title: its first H1 outside code blocks, else its file name. */
export function pageTitle(source: string, fallback: string): string {
  let fence: string | null = null;
  for (const line of source.split(/\r?\n/)) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (open && open[0] === fence[0] && open.length >= fence.length) fence = null;
      continue;
    }
    if (open) {
      fence = open;
      continue;
    }
    const h1 = /^ {0,3}#\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (h1?.[1]) return headingText(h1[1]).trim();
  }
  return fallback;
}

/** The site link of a Markdown file, relative to docs/: `develop/index.md` → `/develop/`. */
function linkOf(relativePath: string): string {
  return `/${relativePath.replace(/(^|\/)index\.md$/, '$1').replace(/\.md$/, '')}`;
}

function folderItems(docsDir: string, relativeDir: string): SidebarItem[] {
  const entries = readdirSync(join(docsDir, relativeDir), { withFileTypes: true }).filter(
    (entry) => !entry.name.startsWith('.'),
  );
  const pages: SidebarItem[] = [];
  let index: SidebarItem | null = null;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const relativePath = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
    const item = {
      text: pageTitle(readFileSync(join(docsDir, relativePath), 'utf8'), basename(entry.name, '.md')),
      link: linkOf(relativePath),
    };
    if (entry.name === 'index.md') index = item;
    else pages.push(item);
  }
  pages.sort((a, b) => a.text.localeCompare(b.text, 'en'));
  const subfolders: SidebarItem[] = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ dir: relativeDir === '' ? name : `${relativeDir}/${name}`, name }))
    .map(({ dir, name }) => ({ text: name, collapsed: true, items: folderItems(docsDir, dir) }))
    .filter((group) => group.items.length > 0);
  return [...(index ? [index] : []), ...pages, ...subfolders];
}

/** The whole sidebar for the Markdown under `docsDir`. */
export function buildSidebar(docsDir: string): SidebarItem[] {
  const folders = readdirSync(docsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name);
  const known = SECTIONS.filter((section) => folders.includes(section.dir));
  const others = folders
    .filter((dir) => !SECTIONS.some((section) => section.dir === dir))
    .sort()
    .map((dir) => ({ dir, text: dir.charAt(0).toUpperCase() + dir.slice(1) }));
  const groups: SidebarItem[] = [...known, ...others]
    .map(({ dir, text }) => ({ text, items: folderItems(docsDir, dir) }))
    .filter((group) => group.items.length > 0);
  const rootPages = folderItems(docsDir, '').filter((item) => item.link !== undefined && item.link !== '/');
  if (rootPages.length > 0) groups.push({ text: 'More', items: rootPages });
  return groups;
}
