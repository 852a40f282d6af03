/**
 * The link checker behind test/docs/links.test.ts: every relative link in the project's Markdown
 * must name a file (or folder) that exists, and a `#fragment` must name a heading of the target (by
 * GitHub's slug rules, which the docs site uses too). Kept dependency-free and line-based so the
 * whole tree is checked in well under a second; links inside code blocks and code spans are text,
 * not links, and are skipped as GitHub does.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { uniqueSlugs } from './github-slug.js';

export interface LinkProblem {
  /** Path of the Markdown file, relative to the root checked. */
  file: string;
  line: number;
  link: string;
  reason: string;
}

interface ScannedLink {
  line: number;
  target: string;
}

interface Scanned {
  links: ScannedLink[];
  /** Every anchor the document defines: heading slugs and explicit `<a id|name="…">`. */
  anchors: Set<string>;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)\s*$/;
/** A line that cannot be the text of a setext heading (list item, quote, table, heading, HTML). */
const NOT_PARAGRAPH = /^\s*(?:$|[-*+>|#<]|\d+[.)]\s)/;
const INLINE_LINK =
  /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|(?:[^\s()]|\([^\s()]*\))+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HTML_LINK = /<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*"([^"]*)"/gi;
const HTML_ANCHOR = /<a\s[^>]*?\b(?:id|name)\s*=\s*"([^"]*)"/gi;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** GitHub's line anchors on source files: #L10, #L10-L20. */
const LINE_ANCHOR = /^L\d+(?:-L\d+)?$/;

/** Blank out code spans (keeping columns) so their contents are neither links nor markup. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)(?:(?!\1).)+?\1/g, (span) => ' '.repeat(span.length));
}

/**
 * The text a heading renders to, as GitHub slugs it: code spans keep their content, links keep
 * their text, emphasis markers, images and HTML tags go, backslash escapes are resolved.
 */
export function headingText(raw: string): string {
  return raw
    .split(/(`+[^`]*?`+)/)
    .map((part, i) => {
      if (i % 2 === 1) return part.replace(/^`+ ?|`+$/g, '').replace(/ $/, '');
      return part
        .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/<[^>]+>/g, '')
        .replace(/\*+|~~/g, '')
        .replace(/(^|\W)_+|_+(?=\W|$)/g, '$1')
        .replace(/\\(.)/g, '$1');
    })
    .join('');
}

/** Links and anchors of one Markdown document. */
export function scanMarkdown(source: string): Scanned {
  const links: ScannedLink[] = [];
  const headings: string[] = [];
  const explicit: string[] = [];
  let fence: string | null = null;
  let previous = '';
  source.split(/\r?\n/).forEach((rawLine, index) => {
    const line = index + 1;
    const fenceOpen = FENCE.exec(rawLine)?.[1];
    if (fence !== null) {
      if (fenceOpen && fenceOpen[0] === fence[0] && fenceOpen.length >= fence.length && rawLine.trim() === fenceOpen)
        fence = null;
      previous = '';
      return;
    }
    if (fenceOpen) {
      fence = fenceOpen;
      previous = '';
      return;
    }
    const text = withoutCodeSpans(rawLine);
    const atx = ATX.exec(rawLine);
    if (atx) headings.push(headingText(atx[1] ?? ''));
    else if (SETEXT_UNDERLINE.test(rawLine) && previous !== '' && !NOT_PARAGRAPH.test(previous))
      headings.push(headingText(previous.trim()));
    for (const match of text.matchAll(INLINE_LINK)) links.push({ line, target: match[1] ?? '' });
    const definition = REFERENCE_DEFINITION.exec(text);
    if (definition) links.push({ line, target: definition[1] ?? '' });
    for (const match of text.matchAll(HTML_LINK)) links.push({ line, target: match[1] ?? '' });
    for (const match of text.matchAll(HTML_ANCHOR)) explicit.push(match[1] ?? '');
    previous = atx ? '' : rawLine;
  });
  return { links, anchors: new Set([...uniqueSlugs(headings), ...explicit]) };
}

/** The Markdown files the suite checks: those at the root (README, CHANGELOG, BENCHMARKS…) and all of docs/. */
export function markdownFilesToCheck(root: string): string[] {
  const files = readdirSync(root)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, name));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // .vitepress holds the site's config, cache and build output, not documentation.
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk(join(root, 'docs'));
  return files.sort();
}

/** Check every relative link of `files` (absolute paths under `root`); returns what is broken. */
export function checkMarkdownLinks(root: string, files: readonly string[]): LinkProblem[] {
  const scans = new Map<string, Scanned>();
  const scan = (path: string): Scanned => {
    let scanned = scans.get(path);
    if (!scanned) {
      scanned = scanMarkdown(readFileSync(path, 'utf8'));
      scans.set(path, scanned);
    }
    return scanned;
  };
  const rootDir = resolve(root);
  const problems: LinkProblem[] = [];
  for (const file of files) {
    const report = (line: number, link: string, reason: string): void => {
      problems.push({ file: relative(rootDir, file).split(sep).join('/'), line, link, reason });
    };
    for (const { line, target } of scan(file).links) {
      const link = target.replace(/^<|>$/g, '');
      if (link === '' || SCHEME.test(link) || link.startsWith('//')) continue;
      const hashAt = link.indexOf('#');
      const pathPart = (hashAt < 0 ? link : link.slice(0, hashAt)).replace(/\?.*$/, '');
      const fragment = hashAt < 0 ? null : link.slice(hashAt + 1);
      let decodedPath: string;
      let decodedFragment: string | null;
      try {
        decodedPath = decodeURIComponent(pathPart);
        decodedFragment = fragment === null ? null : decodeURIComponent(fragment);
      } catch {
        report(line, link, 'not a valid URL (bad percent-encoding)');
        continue;
      }
      // A leading slash is the repository's root on GitHub.
      const targetPath =
        decodedPath === ''
          ? file
          : decodedPath.startsWith('/')
            ? join(rootDir, decodedPath)
            : resolve(dirname(file), decodedPath);
      if (targetPath !== rootDir && !targetPath.startsWith(rootDir + sep)) {
        report(line, link, 'points outside the repository');
        continue;
      }
      if (!existsSync(targetPath)) {
        report(line, link, `no such file: ${relative(rootDir, targetPath).split(sep).join('/')}`);
        continue;
      }
      if (decodedFragment === null || decodedFragment === '') continue;
      if (statSync(targetPath).isDirectory()) {
        report(line, link, 'an anchor on a folder');
      } else if (extname(targetPath).toLowerCase() === '.md') {
        if (!scan(targetPath).anchors.has(decodedFragment))
          report(line, link, `no heading with anchor #${decodedFragment} in ${relative(rootDir, targetPath)}`);
      } else if (!LINE_ANCHOR.test(decodedFragment)) {
        report(line, link, `#${decodedFragment} is neither a heading nor a line anchor (#L10) of a source file`);
      }
    }
  }
  return problems;
}

/** One line per problem: `file:line: link (reason)`. */
export function formatLinkProblems(problems: readonly LinkProblem[]): string {
  return problems.map((p) => `${p.file}:${p.line}: ${p.link} (${p.reason})`).join('\n');
}
