/**
 * The check `npm run docs` runs on the built site (scripts/docs/site-offline.ts): it must flag each
 * way a page can load from another host, and must not flag plain links or URLs in text and comments.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foreignLoadsIn, foreignLoadsInSite } from '../../scripts/docs/site-offline.js';

const urls = (text: string, kind: 'html' | 'css' | 'js') => foreignLoadsIn(text, kind).map((load) => load.url);

describe('foreignLoadsIn', () => {
  it('flags fonts, stylesheets, scripts, images and frames in HTML', () => {
    const html = [
      '<link rel="preconnect" href="https://fonts.gstatic.com">',
      '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter">',
      '<script type="module" src="https://cdn.example.net/app.js"></script>',
      '<img alt="x" src="//images.example.net/a.png">',
      '<iframe src="https://video.example.net/embed/1"></iframe>',
      '<div style="background: url(https://bg.example.net/b.png)"></div>',
    ].join('\n');
    expect(urls(html, 'html')).toEqual([
      'https://cdn.example.net/app.js',
      '//images.example.net/a.png',
      'https://video.example.net/embed/1',
      'https://fonts.gstatic.com',
      'https://fonts.googleapis.com/css2?family=Inter',
      'https://bg.example.net/b.png',
    ]);
  });

  it('flags url() and @import in CSS, not a URL in a comment', () => {
    const css =
      '/*! theme | https://docs.example.net */ @import "https://cdn.example.net/x.css";\n@font-face{src:url("https://fonts.example.net/i.woff2")}';
    expect(urls(css, 'css')).toEqual(['https://fonts.example.net/i.woff2', 'https://cdn.example.net/x.css']);
  });

  it('flags imports, fetches and src assignments in JS, and HTML carried in a page chunk', () => {
    const js = [
      'import x from "https://esm.example.net/lib.js";',
      'const m = await import("https://esm.example.net/late.js");',
      'fetch(`https://api.example.net/data`);',
      'el.src="https://px.example.net/t.gif";',
      'const html = `<img src="https://img.example.net/c.png">`;',
    ].join('\n');
    expect(urls(js, 'js')).toEqual([
      'https://esm.example.net/lib.js',
      'https://esm.example.net/late.js',
      'https://api.example.net/data',
      'https://px.example.net/t.gif',
      'https://img.example.net/c.png',
    ]);
  });

  it('allows plain links, text, relative assets and the listed exception', () => {
    const html =
      '<a href="https://github.com/x" target="_blank">x</a><code>https://fapi.binance.com</code>' +
      '<link rel="stylesheet" href="/assets/style.css"><script src="/assets/app.js"></script>' +
      '<link rel="canonical" href="https://docs.example.net/">';
    expect(urls(html, 'html')).toEqual([]);
    const js =
      'const ns="http://www.w3.org/2000/svg";o.style.setProperty("--icon",`url(\'https://api.iconify.design/simple-icons/x.svg\')`)';
    expect(urls(js, 'js')).toEqual([]);
  });
});

describe('foreignLoadsInSite', () => {
  it('walks the built folder and names each file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-site-'));
    try {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), '<script src="/assets/app.js"></script>');
      writeFileSync(join(dir, 'assets', 'style.css'), 'a{background:url(https://cdn.example.net/a.png)}');
      writeFileSync(join(dir, 'assets', 'font.woff2'), 'url(https://ignored.example.net/binary)');
      expect(foreignLoadsInSite(dir)).toEqual([
        { file: 'assets/style.css', url: 'https://cdn.example.net/a.png', via: 'url()' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
