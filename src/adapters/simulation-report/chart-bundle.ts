/**
 * lightweight-charts' standalone bundle (it defines `window.LightweightCharts`), to be inlined in
 * report.html so the page loads nothing from any host. Read from the installed package (pinned in
 * package.json) instead of a copy in the repository; no build step is needed. A bundle that
 * mentions a closing script tag would end the page's script early, so it is escaped.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let cached: string | null = null;

export function chartBundleSource(): string {
  if (cached === null) {
    const dir = dirname(require.resolve('lightweight-charts/package.json'));
    const source = readFileSync(join(dir, 'dist', 'lightweight-charts.standalone.production.js'), 'utf8');
    cached = source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  }
  return cached;
}
