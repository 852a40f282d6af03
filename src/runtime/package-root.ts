/**
 * Where this package lives on disk, and how to run its `tcs` command again as a child process. The
 * same code runs compiled (dist/src/…, the normal case) and from the TypeScript sources under tsx
 * (development, tests), one directory level apart, so nothing here counts `../` from a source file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'trading-control-service';

/** True when this process runs the TypeScript sources (tsx, vitest) rather than the compiled dist/. */
export const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');

function findPackageRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  // Walk up to our own package.json; checking the name keeps a stray package.json in dist/ (or
  // above a moved tree) from being taken for it.
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME)
      return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package.json above ${start}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot();

/**
 * Node arguments that run `tcs <args>` the way this process runs: the compiled CLI with source maps
 * on (so stack traces name TypeScript lines), or, from the sources, the TypeScript CLI under tsx.
 * `sourceMaps: false` leaves them off, for a simulation's process (simulate-process.ts says why);
 * NODE_OPTIONS=--enable-source-maps, which the child inherits, still turns them on.
 */
export function tcsNodeArgs(args: readonly string[], { sourceMaps = true }: { sourceMaps?: boolean } = {}): string[] {
  if (RUNNING_FROM_SOURCES)
    return [join(PACKAGE_ROOT, 'bin/run-ts.mjs'), fileURLToPath(new URL('../cli/main.ts', import.meta.url)), ...args];
  const main = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  return sourceMaps ? ['--enable-source-maps', main, ...args] : [main, ...args];
}
