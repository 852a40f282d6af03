/**
 * `tcs start` when something is wrong: it stops instead of looping. Each fault is the real one — a
 * port held by a listener of this test, a store port nobody listens on, a strategy that does not
 * exist, a stored kill — met by the real launcher and its two real child processes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { applyControl } from '../../src/application/control-transition.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { generateKey } from '../../src/domain/keys.js';
import { closedPort, takePort } from '../support/ports.js';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { initialised } from '../support/stores.js';
import { signedWith } from '../support/control-secret.js';

const FAILS_WHEN_SUPERVISED = fileURLToPath(
  new URL('../fixtures/strategies/fails-when-supervised.ts', import.meta.url),
);

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

/** Restarts after 20, 40, 80… ms instead of 0.5, 1, 2… s (test-only knob, src/runtime/restart-policy.ts). */
const FAST_RESTARTS = { TCS_TEST_RESTART_BACKOFF_MS: '20' };

describe('tcs start stops instead of looping', () => {
  let dir = '';
  let proc: RunningProcess | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const env = (extra: NodeJS.ProcessEnv = {}) => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-launcher-'));
    return {
      SERVICE_API_KEY: generateKey(),
      RISK_HMAC_SECRET: generateKey(),
      STORE_URL: `sqlite:${join(dir, 'var', 'tcs.db')}`,
      PORT: '0',
      CYCLE_SECONDS: '0.2',
      LOG_LEVEL: 'info',
      ...extra,
    };
  };

  it('with the API port taken: the API says so, exit 2, and the trading process never starts', async () => {
    const taken = await takePort();
    server = taken.server;
    proc = startTcs(['start'], env({ PORT: String(taken.port) }), dir);
    const { code } = await exitWithin(proc, 20_000);
    expect(code).toBe(2);
    expect(proc.stderr()).toContain(`127.0.0.1:${taken.port} is already in use`);
    expect(lastLine(proc.stderr())).toMatch(/^tcs: api refused to start .*already in use.*; stopped everything$/);
    // Nothing of the trading process: no event line, no diagnostic.
    expect(proc.stdout()).toBe('');
    expect(proc.stderr()).not.toContain('tcs-trading');
  }, 30_000);

  it('STRATEGIES=nope, or a module file that does not exist: exit 2 before any process starts, naming the entry', async () => {
    proc = startTcs(['start'], env({ STRATEGIES: 'nope' }), dir);
    expect((await exitWithin(proc, 15_000)).code).toBe(2);
    expect(lastLine(proc.stderr())).toContain('STRATEGIES entry "nope" is not a known strategy');
    expect(proc.stderr()).not.toContain('tcs-api');
    expect(proc.stdout()).toBe('');

    rmSync(dir, { recursive: true, force: true });
    proc = startTcs(['start'], env({ STRATEGIES: 'momentum_ma_crossover,./missing.ts' }), dir);
    expect((await exitWithin(proc, 15_000)).code).toBe(2);
    expect(lastLine(proc.stderr())).toMatch(/STRATEGIES entry "\.\/missing\.ts": no such file/);
    expect(proc.stderr()).not.toContain('tcs-api');
  }, 40_000);

  it('SYMBOLS with a symbol the synthetic market does not know (a typo): exit 2 before any process starts, naming the ones it knows', async () => {
    for (const symbols of ['BTCUSTD', 'BTCUSDT,FOO']) {
      if (dir) rmSync(dir, { recursive: true, force: true });
      proc = startTcs(['start'], env({ SYMBOLS: symbols }), dir);
      expect((await exitWithin(proc, 15_000)).code, symbols).toBe(2);
      const last = lastLine(proc.stderr());
      expect(last).toContain(`${symbols.split(',').at(-1)} is not a market the synthetic market data knows`);
      expect(last).toContain('BTCUSDT, ETHUSDT, SOLUSDT, BNBUSDT, XRPUSDT');
      expect(proc.stderr()).not.toContain('tcs-api');
      expect(proc.stdout()).toBe('');
    }
  }, 40_000);

  it('EXECUTION_MODE=live without a key, or on mainnet without LIVE_MAINNET=confirm: exit 2 naming the variable, before any process starts', async () => {
    const live = { EXECUTION_MODE: 'live', EXCHANGE: 'binanceusdm', EXCHANGE_API_SECRET: 'x'.repeat(40) };
    proc = startTcs(['start'], env(live), dir);
    expect((await exitWithin(proc, 15_000)).code).toBe(2);
    expect(lastLine(proc.stderr())).toMatch(/EXCHANGE_API_KEY is not set/);
    expect(proc.stderr()).not.toContain('x'.repeat(40));
    expect(proc.stderr()).not.toContain('tcs-api');

    rmSync(dir, { recursive: true, force: true });
    proc = startTcs(['start'], env({ ...live, EXCHANGE_API_KEY: 'k'.repeat(40), EXCHANGE_TESTNET: 'false' }), dir);
    expect((await exitWithin(proc, 15_000)).code).toBe(2);
    expect(lastLine(proc.stderr())).toMatch(/LIVE_MAINNET must be "confirm"/);
    expect(proc.stdout()).toBe('');
  }, 40_000);

  it('a configuration error only the trading child meets (exit 2) stops everything; the last line says which child and why', async () => {
    proc = startTcs(['start'], env({ STRATEGIES: FAILS_WHEN_SUPERVISED }), dir);
    // The API starts first and the trading child only once it listens: two Node start-ups, which took
    // over 20 s once on a loaded 2-core box (CI beside other test runs).
    const { code } = await exitWithin(proc, 45_000);
    expect(code).toBe(2);
    expect(lastLine(proc.stderr())).toMatch(
      /^tcs: trading refused to start .*this fixture refuses to load under a supervisor.*; stopped everything$/,
    );
    // It was not restarted: the child's own message appears once.
    expect(proc.stderr().match(/^tcs: STRATEGIES entry .* cannot import/gm)).toHaveLength(1);
  }, 60_000);

  it('an unreachable store: a child failing 5 times within 60 s stops everything, exit 1', async () => {
    const port = await closedPort();
    // The restart backoff is the test knob's 20 ms doubling, not 0.5 s doubling: the test waits for
    // five real failures (five API start-ups), not for 7.5 s of timers. The lines prove the doubling.
    proc = startTcs(['start'], env({ STORE_URL: `redis://127.0.0.1:${port}/0`, ...FAST_RESTARTS }), dir);
    const { code } = await exitWithin(proc, 60_000);
    expect(code).toBe(1);
    const restarts = [
      ...proc.stderr().matchAll(/^tcs: api exited \(exit 1: .*\); restarting in (\d+) ms \(failure (\d)/gm),
    ];
    expect(restarts.map((m) => [Number(m[1]), Number(m[2])])).toEqual([
      [20, 1],
      [40, 2],
      [80, 3],
      [160, 4],
    ]);
    expect(lastLine(proc.stderr())).toMatch(
      /^tcs: api failed 5 times within 60 s \(last: exit 1: cannot connect to Redis at .*\); stopped everything$/,
    );
    expect(proc.stdout()).toBe('');
  }, 90_000);

  it('RESTART_MAX_FAILURES and RESTART_WINDOW_SECONDS set the budget, and a budget that backoff cannot reach is refused', async () => {
    const port = await closedPort();
    proc = startTcs(
      ['start'],
      env({
        STORE_URL: `redis://127.0.0.1:${port}/0`,
        RESTART_MAX_FAILURES: '2',
        RESTART_WINDOW_SECONDS: '10',
        ...FAST_RESTARTS,
      }),
      dir,
    );
    expect((await exitWithin(proc, 20_000)).code).toBe(1);
    expect(lastLine(proc.stderr())).toMatch(/^tcs: api failed 2 times within 10 s /);

    // 8 failures need 0.5 + 1 + … + 32 (capped at 30) s of backoff: never within 30 s (the real backoff here).
    rmSync(dir, { recursive: true, force: true });
    proc = startTcs(['start'], env({ RESTART_MAX_FAILURES: '8', RESTART_WINDOW_SECONDS: '30' }), dir);
    expect((await exitWithin(proc, 15_000)).code).toBe(2);
    expect(proc.stderr()).toMatch(/RESTART_WINDOW_SECONDS/);
  }, 60_000);

  it('starting while killed says so on stderr: reason, since when, nothing trades, and the exact reset command', async () => {
    const e = env();
    const store = await initialised(await openSqliteStore({ path: join(dir, 'var', 'tcs.db') }));
    const at = '2026-01-05T12:00:00.000Z';
    await applyControl(
      signedWith(store).control,
      { type: 'control.kill', reason: 'venue outage' },
      { actor: 'test', at },
    );
    await store.close();
    proc = startTcs(['start'], e, dir);
    const [line] = await proc.waitFor(/tcs: .*KILLED.*\n/);
    expect(line).toContain('venue outage');
    expect(line).toContain(at);
    expect(line).toContain('nothing trades');
    expect(line).toContain('npm start -- --reset-kill --reason "…"');
  }, 30_000);

  it('a kill reason with terminal escapes is shown escaped in the KILLED banner: it cannot clear the screen or fake a line', async () => {
    const e = env();
    const store = signedWith(await initialised(await openSqliteStore({ path: join(dir, 'var', 'tcs.db') })));
    // Clear the screen, home the cursor, a fake line, an 8-bit CSI, and a right-to-left override.
    const reason = 'oops\x1b[2J\x1b[H\nSYSTEM OK\r\u009b31m\u202eKO\u2066\x7f';
    await applyControl(
      store.control,
      { type: 'control.kill', reason },
      { actor: 'test', at: new Date().toISOString() },
    );
    await store.close();
    proc = startTcs(['start'], e, dir);
    const [line] = await proc.waitFor(/tcs: .*KILLED.*\n/);
    expect(line).toContain('oops\\x1b[2J\\x1b[H\\nSYSTEM OK\\r\\x9b31m\\u202eKO\\u2066\\x7f');
    // Nothing a terminal acts on reached it, anywhere on stderr.
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(proc.stderr()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  }, 30_000);
});
