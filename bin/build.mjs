#!/usr/bin/env node
// Compiles src/ and machines/ to dist/ (tsconfig.build.json, incremental, with source maps),
// bundles the compiled CLI into dist/cli/ (what `tcs` runs; see bundleRuntime), bundles the operator
// console (console/, Preact + lightweight-charts) with esbuild into dist/console/, and stamps the build. `node bin/build.mjs --if-stale` builds only when dist/ is
// missing or any source under src/, machines/ or console/ (or a tsconfig) is newer than the stamp,
// and says nothing otherwise: it runs on `npm ci` (prepare), before `npm start` and before the
// tests, all without a network.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, 'dist', '.build-stamp');
const BUILD_INFO = join(ROOT, 'dist', '.tsbuildinfo');
const MAIN = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const RUNTIME_OUT = join(ROOT, 'dist', 'cli');
const RUNTIME_MAIN = join(RUNTIME_OUT, 'main.js');
const STRATEGY_ENTRY = join(ROOT, 'dist', 'src', 'strategies', 'public.js');
const STRATEGY_OUT = join(ROOT, 'dist', 'strategy');
const STRATEGY_MAIN = join(STRATEGY_OUT, 'public.js');
/** The public strategy entry's source: a layout without it (the build's own test) bundles no entry. */
const STRATEGY_SOURCE = join(ROOT, 'src', 'strategies', 'public.ts');
/**
 * Packages bundled into dist/cli/ rather than loaded from node_modules at run time. TypeBox 1.x is
 * some 1,400 small ES modules: resolving and reading them was most of a `tcs` process's start-up
 * (0.53 → 0.21 s of CPU for a trading process, 0.99 → 0.64 s for the API, measured). The other
 * packages stay external: native code (better-sqlite3), files read beside their modules (the docs
 * pages' assets, redoc's bundle), or loaded only when asked for (ccxt, tsx, the inspector).
 */
const BUNDLED_PACKAGES = new Set(['typebox']);
/** Plain-JavaScript worker thread entries, run as they are (see copyWorkerFiles). */
const WORKER_FILES = ['src/adapters/sqlite/audit-append-worker.mjs'];
const CONSOLE_SRC = join(ROOT, 'console');
const CONSOLE_OUT = join(ROOT, 'dist', 'console');
const CONSOLE_PAGE = join(CONSOLE_OUT, 'index.html');
const SOURCE_DIRS = ['src', 'machines', 'console'];
/** Every file type the build reads: TypeScript for tsc and esbuild, plain JS copied as it is, the console's page and styles. */
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mjs', '.css', '.html'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json', 'console/tsconfig.json', 'package-lock.json'];

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
      if (entry.isFile() && SOURCE_EXTENSIONS.some((ext) => entry.name.endsWith(ext)))
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
  if (
    !existsSync(STAMP) ||
    !existsSync(MAIN) ||
    !existsSync(RUNTIME_MAIN) ||
    (existsSync(STRATEGY_SOURCE) && !existsSync(STRATEGY_MAIN)) ||
    !existsSync(CONSOLE_PAGE)
  )
    return 'no build yet';
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
  say(`${reason}: compiling src/ and machines/ and bundling console/ to dist/`);
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
const esbuild = await loadEsbuild();
await bundleRuntime(esbuild);
await bundleStrategyEntry(esbuild);
await bundleConsole(esbuild);
writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
utimesSync(STAMP, startedAt, startedAt);
if (ifStale) say('done');

/**
 * The operator console: one ES module (Preact, lightweight-charts and the console's code, minified,
 * with a source map), its stylesheet and its page, all local, so the API serves it without a
 * network. Licence comments of the bundled packages go to app.js.LEGAL.txt beside it.
 */
async function bundleConsole(esbuild) {
  rmSync(CONSOLE_OUT, { recursive: true, force: true });
  mkdirSync(CONSOLE_OUT, { recursive: true });
  try {
    await esbuild.build({
      entryPoints: { app: join(CONSOLE_SRC, 'main.tsx'), styles: join(CONSOLE_SRC, 'styles.css') },
      outdir: CONSOLE_OUT,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: ['chrome111', 'firefox115', 'safari16.4'],
      minify: true,
      sourcemap: true,
      legalComments: 'external',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      tsconfig: join(CONSOLE_SRC, 'tsconfig.json'),
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'warning',
    });
  } catch (err) {
    say(`bundling the console failed: ${err.message}`);
    process.exit(1);
  }
  copyFileSync(join(CONSOLE_SRC, 'index.html'), CONSOLE_PAGE);
}

async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch {
    say('esbuild is not installed (a production-only install?); run `npm ci` to get it, then `npm run build`');
    process.exit(1);
  }
}

/**
 * What `tcs` runs: the compiled CLI (dist/src/cli/main.js) as one ES module graph in dist/cli/ —
 * our code and BUNDLED_PACKAGES in a few files, every other package imported from node_modules as
 * usual, each dynamic import (a command, an adapter, the inspector) its own chunk, loaded only when
 * asked for. The source maps lead through dist/src's own maps back to the TypeScript lines. dist/src
 * stays: it is the compiled code this bundles, and what tests and benchmarks import.
 */
async function bundleRuntime(esbuild) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {})
    .filter((name) => !BUNDLED_PACKAGES.has(name))
    .flatMap((name) => [name, `${name}/*`]);
  rmSync(RUNTIME_OUT, { recursive: true, force: true });
  try {
    await esbuild.build({
      entryPoints: { main: MAIN },
      outdir: RUNTIME_OUT,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      external,
      logLevel: 'warning',
    });
  } catch (err) {
    say(`bundling the CLI failed: ${err.message}`);
    process.exit(1);
  }
  copyWorkerFiles();
}

/**
 * The public strategy entry (`trading-control-service/strategy`, package.json `exports`) as one ES
 * module, trading-signals included: a TypeScript strategy is loaded through tsx's loader hooks, and
 * every module of its import graph is then a round trip to the hooks' thread. The entry was 188
 * modules (trading-signals alone 176); importing it took most of `tcs simulate`'s start-up with a
 * .ts strategy (tsImport of the backtrader SMA strategy: 0.5 s of CPU, 0.7-1.0 s wall, measured).
 * Only what the entry uses of trading-signals is kept. The source map leads through dist/src's maps
 * back to the TypeScript lines. The entry still gets its own copy of what it shares with the CLI's
 * bundle, as before (their only shared state is on the global object, indicators/observer.ts).
 */
async function bundleStrategyEntry(esbuild) {
  rmSync(STRATEGY_OUT, { recursive: true, force: true });
  if (!existsSync(STRATEGY_SOURCE)) return;
  try {
    await esbuild.build({
      entryPoints: { public: STRATEGY_ENTRY },
      outdir: STRATEGY_OUT,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
    });
  } catch (err) {
    say(`bundling the strategy entry failed: ${err.message}`);
    process.exit(1);
  }
}

/**
 * Worker threads' entry files (WORKER_FILES) are plain JavaScript, run as they are: a module finds
 * its worker beside itself, so each is copied beside the compiled module (dist/src/…) and beside the
 * bundle's chunks (dist/cli/).
 */
function copyWorkerFiles() {
  for (const file of WORKER_FILES) {
    const name = file.split('/').pop();
    mkdirSync(join(ROOT, 'dist', file, '..'), { recursive: true });
    copyFileSync(join(ROOT, file), join(ROOT, 'dist', file));
    copyFileSync(join(ROOT, file), join(RUNTIME_OUT, name));
  }
}
