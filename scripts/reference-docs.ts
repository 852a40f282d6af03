/**
 * Writes the generated reference pages under docs/reference/ (see scripts/reference/pages.ts). Run
 * with `npm run docs:reference` after adding, renaming or removing an event line, metric, error
 * code, risk code or configuration variable; test/docs/reference-docs.test.ts fails until then.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referencePages } from './reference/pages.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
for (const [path, text] of Object.entries(await referencePages())) {
  const out = resolve(root, path);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.log(`wrote ${relative(process.cwd(), out) || out}`);
}
