/**
 * `tcs --help` is a newcomer's first call: it must print from our own small CLI bundle without
 * loading any installed package (Fastify, ccxt, xstate, SQLite…), whose loading is what makes a
 * start slow. Evidence comes from the process itself: test/support/module-log.mjs logs every module
 * URL it resolves.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcs } from '../support/processes.js';

const MODULE_LOG = new URL('../support/module-log.mjs', import.meta.url).pathname;

describe('tcs help loads no installed package', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [['--help']],
    [['simulate', '--help']],
    [['data', 'download', '--help']],
    [['strategy', 'check', '--help']],
  ])(
    'tcs %j',
    async (args) => {
      dir = mkdtempSync(join(tmpdir(), 'tcs-help-'));
      const log = join(dir, 'modules.log');
      const proc = startTcs(args, { NODE_OPTIONS: `--import=${MODULE_LOG}`, TCS_MODULE_LOG: log }, dir);
      expect((await proc.exited).code, proc.stderr()).toBe(0);
      expect(proc.stdout()).toMatch(/^Usage: tcs /);
      const urls = readFileSync(log, 'utf8')
        .split('\n')
        .map((line) => line.slice(line.indexOf(' ') + 1))
        .filter((url) => url.startsWith('file:'));
      // The log saw our bundle (so it worked), and nothing from node_modules.
      expect(urls.some((url) => url.includes('/dist/cli/main.js'))).toBe(true);
      expect(urls.filter((url) => url.includes('/node_modules/'))).toEqual([]);
    },
    20_000,
  );

  it('names the fast way to run it from a checkout', async () => {
    const proc = startTcs(['--help'], {});
    expect((await proc.exited).code).toBe(0);
    expect(proc.stdout()).toContain('node bin/tcs.mjs <command>');
  });
});
