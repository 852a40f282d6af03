/**
 * What the live end-to-end tests (test/e2e/live-*.test.ts) share: the fake exchange, a temporary
 * directory for the store, the real `tcs` processes they start, one cleanup for all three (every
 * process still running SIGKILLed and waited for, the fake closed, the directory removed), the
 * common environment of a live trader on the fake, and a bounded wait that shows the last process's
 * output when it runs out. The exchange is a parameter (its ccxt id: the fake speaks its dialect,
 * the processes trade on it), Binance USDⓈ-M by default.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '../../src/domain/keys.js';
import { openTradingFake } from './fake-exchange/ccxt-client.js';
import { fakeDialect } from './fake-exchange/dialect-registry.js';
import type { TradingFake } from './fake-exchange/ccxt-client.js';
import { liveEnvFor } from './fake-exchange/live-env.js';
import { startTcs } from './processes.js';
import type { ChildPlacement, RunningProcess } from './processes.js';

export interface LiveE2e {
  t: TradingFake;
  dir: string;
  /**
   * A live trader on the fake: its own SQLite store in `dir`, BTCUSDT, 0.3 s cycles, market orders
   * of 2 % risk, info lines; `extra` added over it.
   */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Starts `tcs <args>` (in `dir` unless placed otherwise), stopped by `close`. */
  start(args: string[], env: Record<string, string>, placement?: ChildPlacement): RunningProcess;
  /** Polls `check` until it holds; fails after `timeoutMs` naming `what` and the last process's output. */
  waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void>;
  close(): Promise<void>;
}

/** `exchange`: the ccxt id of the exchange the fake speaks and the processes trade on. */
export async function openLiveE2e(prefix: string, exchange = 'binanceusdm'): Promise<LiveE2e> {
  const t = await openTradingFake({ deposit: 100_000, start: Date.now(), dialect: fakeDialect(exchange) });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const procs: RunningProcess[] = [];
  return {
    t,
    dir,
    env: (extra = {}) => ({
      STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
      RISK_HMAC_SECRET: generateKey(),
      CONTROL_PLANE_TIMEOUT: '0',
      ...liveEnvFor(t.fake.url, exchange),
      CYCLE_SECONDS: '0.3',
      SYMBOLS: 'BTCUSDT',
      RISK_FRACTION: '0.02',
      ORDER_STYLE: 'market',
      LOG_LEVEL: 'info',
      ...extra,
    }),
    start(args, env, placement) {
      const proc = startTcs(args, env, placement ?? dir);
      procs.push(proc);
      return proc;
    },
    async waitUntil(check, timeoutMs, what) {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) {
          const last = procs.at(-1);
          throw new Error(
            `${what}: not within ${timeoutMs} ms\n${last?.stdout().slice(-3000) ?? ''}\n${last?.stderr().slice(-3000) ?? ''}`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await Promise.all(procs.map((p) => p.exited));
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
