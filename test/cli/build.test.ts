/**
 * bin/build.mjs, which `npm ci` (prepare), `npm start` (prestart) and the test setup run with
 * --if-stale: it compiles when there is no build or a source is newer than the last build's stamp,
 * and otherwise does nothing; it also bundles the operator console (console/ → dist/console/). Run
 * on a small copy of the layout (its own src/, console/, tsconfigs and a link to this repository's
 * node_modules for TypeScript, esbuild and Preact), so the real dist/ is never touched.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The build's one worker thread entry (bin/build.mjs WORKER_FILES). */
const WORKER = 'src/adapters/sqlite/audit-append-worker.mjs';

/** A console entry: Preact's render and JSX, as the real one, so the bundle needs both resolved. */
const CONSOLE_MAIN = (text: string) => `import { render } from 'preact';\nrender(<p>${text}</p>, document.body);\n`;

// Each test runs the TypeScript compiler once or twice over the small layout: seconds each on a
// loaded 2-core CI machine, so the default 20 s test timeout is too short for what is not a speed test.
describe('bin/build.mjs', { timeout: 90_000 }, () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // One finished build of the layout, copied (times kept) by the tests that start from a build, so
  // each of them runs only the compilations it is about (a compilation takes seconds here). It is
  // the first test's first build too (`--if-stale` where there is no build), asserted there: that
  // test compiled the same fresh layout once more before.
  let built = '';
  let first: { status: number | null; output: string } = { status: null, output: '' };
  beforeAll(() => {
    layout();
    first = build('--if-stale');
    if (first.status !== 0) throw new Error(`the template build failed:\n${first.output}`);
    built = dir;
    dir = '';
  }, 90_000);
  afterAll(() => {
    if (built) rmSync(built, { recursive: true, force: true });
  });
  function builtLayout(): void {
    dir = mkdtempSync(join(tmpdir(), 'tcs-build-'));
    cpSync(built, dir, { recursive: true, preserveTimestamps: true });
  }

  function layout(): void {
    dir = mkdtempSync(join(tmpdir(), 'tcs-build-'));
    for (const sub of ['bin', 'src/cli', 'src/adapters/sqlite', 'machines', 'console'])
      mkdirSync(join(dir, sub), { recursive: true });
    copyFileSync(join(ROOT, 'bin/build.mjs'), join(dir, 'bin/build.mjs'));
    copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    copyFileSync(join(ROOT, 'tsconfig.build.json'), join(dir, 'tsconfig.build.json'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'src/cli/main.ts'), 'export const answer: number = 41;\n');
    writeFileSync(join(dir, 'machines/m.ts'), 'export const m = 1;\n');
    writeFileSync(join(dir, WORKER), '// a worker thread, run as it is\n');
    copyFileSync(join(ROOT, 'console/tsconfig.json'), join(dir, 'console/tsconfig.json'));
    writeFileSync(join(dir, 'console/main.tsx'), CONSOLE_MAIN('console 41'));
    writeFileSync(join(dir, 'console/styles.css'), 'body { margin: 0; }\n');
    writeFileSync(join(dir, 'console/index.html'), '<!doctype html><script type="module" src="/app.js"></script>\n');
  }

  /** Runs the build; resolves with its exit status and everything it printed (tsc: stdout, ours: stderr). */
  function build(...args: string[]): { status: number | null; output: string } {
    const result = spawnSync(process.execPath, ['bin/build.mjs', ...args], { cwd: dir, encoding: 'utf8' });
    return { status: result.status, output: result.stdout + result.stderr };
  }

  it('builds when there is no build, then only when a source is newer than the stamp', () => {
    expect(first).toMatchObject({
      status: 0,
      output: expect.stringContaining('no build yet: compiling'),
    });
    builtLayout();
    expect(readFileSync(join(dir, 'dist/src/cli/main.js'), 'utf8')).toContain('answer = 41');
    expect(existsSync(join(dir, 'dist/src/cli/main.js.map'))).toBe(true);
    // A worker thread's plain-JavaScript entry, beside the compiled module and beside the bundle's chunks.
    expect(readFileSync(join(dir, 'dist', WORKER), 'utf8')).toContain('run as it is');
    expect(readFileSync(join(dir, 'dist/cli/audit-append-worker.mjs'), 'utf8')).toContain('run as it is');
    // What `tcs` runs: the compiled CLI bundled, with its map.
    expect(existsSync(join(dir, 'dist/cli/main.js'))).toBe(true);
    expect(existsSync(join(dir, 'dist/cli/main.js.map'))).toBe(true);
    expect(existsSync(join(dir, 'dist/machines/m.js'))).toBe(true);

    expect(build('--if-stale')).toEqual({ status: 0, output: '' });

    writeFileSync(join(dir, 'src/cli/main.ts'), 'export const answer: number = 42;\n');
    const stamp = statSync(join(dir, 'dist/.build-stamp')).mtime;
    const later = new Date(stamp.getTime() + 5000);
    utimesSync(join(dir, 'src/cli/main.ts'), later, later);
    expect(build('--if-stale')).toMatchObject({
      status: 0,
      output: expect.stringContaining('sources changed since the last build: compiling'),
    });
    expect(readFileSync(join(dir, 'dist/src/cli/main.js'), 'utf8')).toContain('answer = 42');
  });

  it('bundles the console with Preact into dist/console, and rebuilds when a console source changes', () => {
    builtLayout();
    const bundle = () => readFileSync(join(dir, 'dist/console/app.js'), 'utf8');
    expect(bundle()).toContain('console 41');
    expect(readFileSync(join(dir, 'dist/console/index.html'), 'utf8')).toContain('/app.js');
    expect(existsSync(join(dir, 'dist/console/styles.css'))).toBe(true);
    // No import is left for the browser to resolve: Preact is inside the bundle.
    expect(bundle()).not.toMatch(/from\s*["']preact/);
    expect(build('--if-stale')).toEqual({ status: 0, output: '' });

    writeFileSync(join(dir, 'console/main.tsx'), CONSOLE_MAIN('console 42'));
    const later = new Date(statSync(join(dir, 'dist/.build-stamp')).mtime.getTime() + 5000);
    utimesSync(join(dir, 'console/main.tsx'), later, later);
    expect(build('--if-stale').output).toContain('sources changed since the last build');
    expect(bundle()).toContain('console 42');

    // A page deleted from dist/ is a missing build, as a missing compiled entry point is.
    rmSync(join(dir, 'dist/console'), { recursive: true });
    expect(build('--if-stale').output).toContain('no build yet');
    expect(existsSync(join(dir, 'dist/console/index.html'))).toBe(true);
  });

  it('rebuilds from scratch when the compiled entry point is gone', () => {
    builtLayout();
    expect(build('--if-stale')).toEqual({ status: 0, output: '' }); // the copy is a finished build
    rmSync(join(dir, 'dist/src'), { recursive: true });
    expect(build('--if-stale')).toMatchObject({
      status: 0,
      output: expect.stringContaining('no build yet: compiling'),
    });
    expect(existsSync(join(dir, 'dist/src/cli/main.js'))).toBe(true);
  });

  it('fails with the compiler errors and leaves the stamp alone when the sources do not compile', () => {
    builtLayout();
    const stampBefore = readFileSync(join(dir, 'dist/.build-stamp'), 'utf8');
    writeFileSync(join(dir, 'src/cli/main.ts'), "export const answer: number = 'not a number';\n");
    const failure = build();
    expect(failure.status).toBe(2);
    expect(failure.output).toContain("Type 'string' is not assignable to type 'number'");
    expect(failure.output).toContain('tsc failed (exit 2); dist/ is not up to date');
    expect(readFileSync(join(dir, 'dist/.build-stamp'), 'utf8')).toBe(stampBefore);
  });

  it('does nothing where there are no sources (an image or installed copy)', () => {
    layout();
    rmSync(join(dir, 'src'), { recursive: true });
    expect(build('--if-stale')).toEqual({ status: 0, output: 'tcs build: no src/ here, nothing to build\n' });
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });
});
