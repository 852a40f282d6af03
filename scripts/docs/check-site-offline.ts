/**
 * Run by `npm run docs` after `vitepress build`: fails (exit 1) when the built site would load
 * anything from another host, listing file, URL and how it would be loaded.
 * Usage: node bin/run-ts.mjs scripts/docs/check-site-offline.ts docs/.vitepress/dist
 */
import { existsSync } from 'node:fs';
import { foreignLoadsInSite } from './site-offline.js';

const siteDir = process.argv[2];
if (!siteDir || !existsSync(siteDir)) {
  console.error(`usage: check-site-offline.ts <built site folder> (got ${siteDir ?? 'nothing'})`);
  process.exit(2);
}
const loads = foreignLoadsInSite(siteDir);
if (loads.length > 0) {
  console.error(`The docs site would load ${loads.length} thing(s) from other hosts:`);
  for (const load of loads) console.error(`  ${load.file}: ${load.url} (${load.via})`);
  process.exit(1);
}
console.log(`${siteDir}: nothing is loaded from another host`);
