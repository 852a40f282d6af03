#!/usr/bin/env node
// Entry point of the `tcs` command: runs the compiled CLI (dist/, made by `npm run build`, which
// `npm ci` and `npm start` run for you) with source maps on, so stack traces name TypeScript lines.
// Nothing here loads tsx; `npm run dev` runs the TypeScript sources instead (bin/run-ts.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// First, before any compiled module loads: maps are only read for modules loaded after this.
process.setSourceMapsEnabled(true);

// dist/cli/ is the compiled CLI bundled by the build (bin/build.mjs, bundleRuntime): it starts in a
// fraction of the CPU time the many small modules of dist/src/ took to load.
const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  console.error(`tcs: ${fileURLToPath(main)} is missing: build it first with \`npm run build\``);
  process.exit(1);
}
await import(main.href);
