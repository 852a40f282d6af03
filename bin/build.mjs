#!/usr/bin/env node
// Compiles src/ and machines/ to dist/ (tsconfig.build.json, incremental, with source maps) and
// stamps the build. `node bin/build.mjs --if-stale` builds only when dist/ is missing or any .ts
// under src/ or machines/ (or a tsconfig) is newer than the stamp, and says nothing otherwise: it
// runs on `npm ci` (prepare), before `npm start` and before the tests, all without a network.
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, 'dist', '.build-stamp');
const BUILD_INFO = join(ROOT, 'dist', '.tsbuildinfo');
const MAIN = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const SOURCE_DIRS = ['src', 'machines'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

function say(message) {
  process.stderr.write(`tcs build: ${message}\n`);
}

/** Newest modification time of the build's inputs (ms), or null when there are no sources here. */
function newestInput() {
  if (!existsSync(join(ROOT, 'src'))) return null;
  let newest = 0;
  for (const dir of SOURCE_DIRS) {
    const base = join(ROOT, dir);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts'))
        newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  for (const file of CONFIGS) {
    const path = join(ROOT, file);
    if (existsSync(path)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function staleReason() {
  if (!existsSync(STAMP) || !existsSync(MAIN)) return 'no build yet';
  const newest = newestInput();
  if (newest !== null && newest > statSync(STAMP).mtimeMs) return 'sources changed since the last build';
  return null;
}

const ifStale = process.argv.includes('--if-stale');
if (ifStale) {
  if (!existsSync(join(ROOT, 'src'))) {
    // An image or installed copy without sources (e.g. the Docker build's `npm ci` before src/ is copied).
    if (!existsSync(STAMP)) say('no src/ here, nothing to build');
    process.exit(0);
  }
  const reason = staleReason();
  if (reason === null) process.exit(0);
  say(`${reason}: compiling src/ and machines/ to dist/`);
}

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  say('TypeScript is not installed (a production-only install?); run `npm ci` to get it, then `npm run build`');
  process.exit(1);
}

// Incremental tsc trusts its build info, not the files: with outputs gone, start from scratch.
if (!existsSync(MAIN)) rmSync(BUILD_INFO, { force: true });

// The stamp gets the time the build STARTED: a source saved while tsc runs stays newer than it.
const startedAt = new Date();
const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (result.status !== 0) {
  say(`tsc failed (${result.signal ?? `exit ${result.status}`}); dist/ is not up to date`);
  process.exit(result.status || 1);
}
writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
utimesSync(STAMP, startedAt, startedAt);
if (ifStale) say('done');
