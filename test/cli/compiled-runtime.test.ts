/**
 * `tcs` runs compiled JavaScript: every process of `tcs start` (supervisor, API, trading) runs the
 * bundled CLI in dist/cli/ (made from dist/src/ by the build) with source maps on and never loads tsx
 * or a TypeScript source, and tsx is loaded (lazily,
 * only then) when a user strategy given by path is a .ts file. Evidence comes from each process
 * itself: its /proc command line, and test/support/module-log.mjs, a `--import` preload that logs
 * every module URL a process resolves and whether source maps were on when it exited. Development
 * mode (`npm run dev`) runs the sources under tsx, children included.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { childPids, commandLine, startNode, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MODULE_LOG = fileURLToPath(new URL('../support/module-log.mjs', import.meta.url));
const COMPILED_MAIN = join(ROOT, 'dist/cli/main.js');
const FIXTURES = join(ROOT, 'test/fixtures/strategies');
const TSX_URL = /\/node_modules\/tsx\//;

interface ProcessLog {
  urls: string[];
  sourceMapsAtExit: string | undefined;
}

/** The module log, per pid. */
function readModuleLog(file: string): Map<number, ProcessLog> {
  const byPid = new Map<number, ProcessLog>();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [pid, rest] = [Number(line.slice(0, line.indexOf(' '))), line.slice(line.indexOf(' ') + 1)];
    const entry = byPid.get(pid) ?? { urls: [], sourceMapsAtExit: undefined };
    if (rest.startsWith('exit sourceMaps=')) entry.sourceMapsAtExit = rest.slice('exit sourceMaps='.length);
    else entry.urls.push(rest);
    byPid.set(pid, entry);
  }
  return byPid;
}

/** Module URLs of this repository's own code that are TypeScript sources rather than dist/. */
const sourceUrls = (urls: string[]) =>
  urls.filter((u) => u.startsWith(pathToFileURL(ROOT).href) && /\.m?ts(\?|$)/.test(u));

describe('the compiled runtime', () => {
  let dir = '';
  let proc: RunningProcess | undefined;
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function instrumentedEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return {
      NODE_OPTIONS: `--import=${MODULE_LOG}`,
      TCS_MODULE_LOG: join(dir, 'modules.log'),
      RISK_HMAC_SECRET: generateKey(),
      STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
      CYCLE_SECONDS: '0.2',
      LOG_LEVEL: 'info',
      // `tcs trade` runs alone here: no API to wait for (under `tcs start` the API beats anyway).
      CONTROL_PLANE_TIMEOUT: '0',
      ...extra,
    };
  }

  it.runIf(process.platform === 'linux')(
    'tcs start: supervisor, API and trading run dist/ with source maps and never load tsx',
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'tcs-compiled-'));
      proc = startTcs(['start'], instrumentedEnv({ SERVICE_API_KEY: generateKey(), PORT: '0' }), dir);
      await proc.waitFor(/"address":"http:\/\/127\.0\.0\.1:\d+"/);
      await proc.waitFor(/"event":"cycle_end"/);

      const supervisor = proc.child.pid!;
      const children = childPids(supervisor);
      const commands = children.map(commandLine);
      expect(commands.map((c) => c.slice(1)).sort()).toEqual([
        ['--enable-source-maps', COMPILED_MAIN, 'api'],
        ['--enable-source-maps', COMPILED_MAIN, 'trade'],
      ]);

      proc.child.kill('SIGTERM');
      expect((await proc.exited).code).toBe(0);
      proc = undefined;

      const log = readModuleLog(join(dir, 'modules.log'));
      expect([...log.keys()].sort()).toEqual([supervisor, ...children].sort());
      for (const [pid, entry] of log) {
        expect(entry.urls, `pid ${pid}`).toContain(pathToFileURL(COMPILED_MAIN).href);
        expect(
          entry.urls.filter((u) => TSX_URL.test(u)),
          `pid ${pid} loaded tsx`,
        ).toEqual([]);
        expect(sourceUrls(entry.urls), `pid ${pid} loaded TypeScript sources`).toEqual([]);
        expect(entry.sourceMapsAtExit, `pid ${pid}`).toBe('true');
      }
    },
  );

  it('a .ts user strategy loads under the compiled CLI, through tsx imported only then', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-compiled-'));
    const strategy = join(FIXTURES, 'btc-always-long.ts');
    proc = startTcs(['trade'], instrumentedEnv({ STRATEGIES: strategy, SYMBOLS: 'BTCUSDT' }), dir);
    await proc.waitFor(/"event":"signal_generated","agent":"btc_always_long"/);
    await proc.stop();

    const entry = readModuleLog(join(dir, 'modules.log')).get(proc.child.pid!);
    expect(entry?.urls).toContain(pathToFileURL(COMPILED_MAIN).href);
    expect(entry?.urls.some((u) => TSX_URL.test(u))).toBe(true);
    // The only TypeScript the process read is the user's strategy.
    expect(new Set(sourceUrls(entry?.urls ?? []).map((u) => u.replace(/\?.*$/, '')))).toEqual(
      new Set([pathToFileURL(strategy).href]),
    );
  });

  it('a .js user strategy loads under the compiled CLI without tsx', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-compiled-'));
    const strategy = join(FIXTURES, 'plain-agent.js');
    proc = startTcs(['trade'], instrumentedEnv({ STRATEGIES: strategy, SYMBOLS: 'BTCUSDT' }), dir);
    await proc.waitFor(/"event":"session_started","mode":"paper","strategies":\["plain_js_agent"\]/);
    await proc.waitFor(/"event":"cycle_end"/);
    await proc.stop();

    const entry = readModuleLog(join(dir, 'modules.log')).get(proc.child.pid!);
    expect(entry?.urls).toContain(pathToFileURL(strategy).href);
    expect(entry?.urls.filter((u) => TSX_URL.test(u))).toEqual([]);
  });

  it.runIf(process.platform === 'linux')(
    'npm run dev runs the TypeScript sources under tsx, children too',
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'tcs-dev-'));
      const runTs = join(ROOT, 'bin/run-ts.mjs');
      const sourceMain = join(ROOT, 'src/cli/main.ts');
      const env = instrumentedEnv({ SERVICE_API_KEY: generateKey(), PORT: '0' });
      proc = startNode([runTs, sourceMain, 'start'], env, dir);
      // Bounds for a loaded machine (tsx transforms the sources in each process): the API's address
      // took over waitFor's default 20 s at load 15, a failure of the machine, not of the code.
      await proc.waitFor(/"address":"http:\/\/127\.0\.0\.1:\d+"/, 60_000);
      await proc.waitFor(/"event":"cycle_end"/, 60_000);
      const commands = childPids(proc.child.pid!)
        .map(commandLine)
        .filter((argv) => argv[1] === runTs); // tsx also runs an esbuild service as a child
      expect(commands.map((c) => c.slice(1)).sort()).toEqual([
        [runTs, sourceMain, 'api'],
        [runTs, sourceMain, 'trade'],
      ]);
    },
    // Two tsx start-ups one after the other: the trading process starts only once the API listens.
    150_000,
  );

  it('the bin without a build says how to make one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-unbuilt-'));
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(ROOT, 'bin/tcs.mjs'), join(dir, 'bin/tcs.mjs'));
    const run = startNode([join(dir, 'bin/tcs.mjs'), '--help'], {}, dir);
    expect((await run.exited).code).toBe(1);
    expect(run.stderr()).toBe(
      `tcs: ${join(dir, 'dist/cli/main.js')} is missing: build it first with \`npm run build\`\n`,
    );
  });
});
