/**
 * Writes data/sample/ (see scripts/sample-data.ts): `npm run data:sample`. Only after changing the
 * generator or the synthetic market on purpose; the test that holds the committed files to the
 * generator says when.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SAMPLE_DIR, sampleDataFiles } from './sample-data.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let bytes = 0;
for (const [path, text] of await sampleDataFiles()) {
  const file = join(root, SAMPLE_DIR, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  bytes += Buffer.byteLength(text);
}
console.log(`wrote ${SAMPLE_DIR}/ (${Math.round(bytes / 1024)} KB)`);
