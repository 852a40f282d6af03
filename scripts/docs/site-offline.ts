/**
 * Finds what a built docs site would load from another host: scripts, styles, fonts, images,
 * frames, fetches, imports. Issue 31 asks that no page load anything from elsewhere (no web
 * fonts, no CDN), so the site works offline and tells no third party who reads it. A plain link
 * (`<a href="https://…">`) is not a load and is allowed; so is a URL mentioned in text or a comment.
 * The patterns are deliberately broad over the forms a load takes in HTML, CSS and bundled JS;
 * each exception is listed in ALLOWED with the reason it is never fetched.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

export interface ForeignLoad {
  /** Path of the built file, relative to the site's folder. */
  file: string;
  url: string;
  /** The construct that would load it, e.g. `<script src>` or `url()`. */
  via: string;
}

const ABSOLUTE = String.raw`(?:https?:)?//[^\s"'<>)\`]+`;

/** Element attributes that make the browser fetch (an <a href> does not). */
const HTML_LOADS: readonly { via: string; pattern: RegExp }[] = [
  {
    via: '<script|img|iframe|source|video|audio|track|embed|input src>',
    pattern: new RegExp(
      String.raw`<(?:script|img|iframe|source|video|audio|track|embed|input)\b[^>]*?\ssrc\s*=\s*["']?(${ABSOLUTE})`,
      'gi',
    ),
  },
  { via: '<img|source srcset>', pattern: new RegExp(String.raw`\ssrcset\s*=\s*["']?(${ABSOLUTE})`, 'gi') },
  { via: '<video poster>', pattern: new RegExp(String.raw`<video\b[^>]*?\sposter\s*=\s*["']?(${ABSOLUTE})`, 'gi') },
  { via: '<object data>', pattern: new RegExp(String.raw`<object\b[^>]*?\sdata\s*=\s*["']?(${ABSOLUTE})`, 'gi') },
  // Every <link> fetches (stylesheet, preload, modulepreload, icon, manifest…) except these rels.
  {
    via: '<link href>',
    pattern: new RegExp(
      String.raw`<link\b(?![^>]*\srel\s*=\s*["']?(?:canonical|alternate)\b)[^>]*?\shref\s*=\s*["']?(${ABSOLUTE})`,
      'gi',
    ),
  },
  {
    via: '<meta refresh>',
    pattern: new RegExp(String.raw`<meta\b[^>]*?content\s*=\s*["']?\d+\s*;\s*url=(${ABSOLUTE})`, 'gi'),
  },
];

const CSS_LOADS: readonly { via: string; pattern: RegExp }[] = [
  { via: 'url()', pattern: new RegExp(String.raw`url\(\s*["']?(${ABSOLUTE})`, 'gi') },
  { via: '@import', pattern: new RegExp(String.raw`@import\s+["'](${ABSOLUTE})`, 'gi') },
];

const JS_LOADS: readonly { via: string; pattern: RegExp }[] = [
  {
    via: 'import … from',
    pattern: new RegExp(String.raw`\b(?:import|export)\b[^;"'\`]*?\bfrom\s*["'\`](${ABSOLUTE})`, 'g'),
  },
  { via: 'import()', pattern: new RegExp(String.raw`\bimport\s*\(\s*["'\`](${ABSOLUTE})`, 'g') },
  { via: 'import "…"', pattern: new RegExp(String.raw`\bimport\s*["'\`](${ABSOLUTE})`, 'g') },
  {
    via: 'fetch/Worker/EventSource/WebSocket/importScripts/sendBeacon',
    pattern: new RegExp(
      String.raw`\b(?:fetch|Worker|SharedWorker|EventSource|WebSocket|importScripts|sendBeacon)\s*\(\s*["'\`](${ABSOLUTE})`,
      'g',
    ),
  },
  { via: '.src/.href =', pattern: new RegExp(String.raw`\.(?:src|srcset)\s*=\s*["'\`](${ABSOLUTE})`, 'g') },
];

/** URLs in the built site that look like loads but are never fetched, each with why. */
export const ALLOWED: readonly { host: string; why: string }[] = [
  {
    host: 'api.iconify.design',
    why:
      "VitePress's default theme falls back to it for a social-link icon missing from the bundled " +
      'vp-icons.css; the site configures no socialLinks, so the code path never runs',
  },
];

function hostOf(url: string): string {
  try {
    return new URL(url, 'https://relative.invalid').host;
  } catch {
    return '';
  }
}

/** The loads from other hosts in one file's text; `kind` is its extension without the dot. */
export function foreignLoadsIn(text: string, kind: 'html' | 'css' | 'js'): { url: string; via: string }[] {
  // CSS and JS comments (license banners) mention URLs without loading them.
  const code = kind === 'html' ? text : text.replace(/\/\*[\s\S]*?\*\//g, '');
  const patterns =
    kind === 'html'
      ? [...HTML_LOADS, ...CSS_LOADS]
      : kind === 'css'
        ? CSS_LOADS
        : // Page chunks carry their HTML in strings, and themes their CSS.
          [...JS_LOADS, ...HTML_LOADS, ...CSS_LOADS];
  const found: { url: string; via: string }[] = [];
  for (const { via, pattern } of patterns) {
    for (const match of code.matchAll(pattern)) {
      const url = match[1] ?? '';
      if (!ALLOWED.some((allowed) => allowed.host === hostOf(url))) found.push({ url, via });
    }
  }
  return found;
}

/** Every foreign load in the built site under `siteDir`. */
export function foreignLoadsInSite(siteDir: string): ForeignLoad[] {
  const loads: ForeignLoad[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      const ext = extname(entry.name).slice(1);
      const kind = ext === 'html' ? 'html' : ext === 'css' ? 'css' : ext === 'js' || ext === 'mjs' ? 'js' : null;
      if (kind === null) continue;
      const file = relative(siteDir, path).split(sep).join('/');
      for (const load of foreignLoadsIn(readFileSync(path, 'utf8'), kind)) loads.push({ file, ...load });
    }
  };
  walk(siteDir);
  return loads;
}
