/**
 * ReDoc's standalone bundle as /redoc serves it: the npm bundle with its Redocly attribution taken
 * out. ReDoc 2.x renders "API docs by Redocly" with a logo image fetched from Redocly's CDN on every
 * page view, and no option turns it off (Redocly/redoc#2108): the reference page must work offline
 * and tell no third party who reads it. Each edit must match exactly once, so a ReDoc upgrade that
 * changes the bundle fails loudly at startup (and in the tests) instead of quietly reaching out again.
 * Both patterns start with a literal character so the scan of the 1 MB bundle stays a few ms.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The sidebar footer: `, h(Footer, null, h("a", {…href:"https://redocly.com/redoc/"}, h(Logo, null), "API docs by Redocly"))`. */
const ATTRIBUTION =
  /,\w+\.createElement\(\w+,null,\w+\.createElement\("a",\{target:"_blank",rel:"noopener noreferrer",href:"https:\/\/redocly\.com\/redoc\/"\},\w+\.createElement\(\w+,null\),"API docs by Redocly"\)\)/g;

/** The logo's address, in case the logo component is used elsewhere: no address, no request. */
const LOGO_URL = /"https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg"/g;

function removeOnce(source: string, pattern: RegExp, replacement: string, what: string): string {
  const found = source.match(pattern)?.length ?? 0;
  if (found !== 1) {
    throw new Error(
      `redoc bundle: expected the ${what} once, found it ${found} times (a ReDoc upgrade? see redoc-bundle.ts)`,
    );
  }
  return source.replace(pattern, replacement);
}

export function loadRedocBundle(): Buffer {
  const path = join(dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');
  let source = readFileSync(path, 'utf8');
  source = removeOnce(source, ATTRIBUTION, '', 'Redocly attribution');
  source = removeOnce(source, LOGO_URL, '""', 'Redocly CDN logo address');
  return Buffer.from(source, 'utf8');
}
