/**
 * Shared harness of the end-to-end files: `tcs start` (the API and the trading process as two
 * supervised OS processes) on a fresh store of one kind, calls over HTTP, the event lines on stdout
 * and the trading heartbeat in the store. Each e2e file covers one concern, so vitest runs them in
 * parallel forks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import type { TradingHeartbeat } from '../../src/domain/runtime-documents.js';
import { generateKey } from '../../src/domain/keys.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { openTestStore } from '../support/stores.js';
import type { StoreKind, TestStore } from '../support/stores.js';
import { PERMISSIVE_ENV } from '../support/trading.js';
import { readDocument } from '../../src/ports/documents.js';

/**
 * CYCLE_SECONDS of every e2e run. The synthetic market moves once a cycle and the first passive
 * order fills about a dozen cycles in, so the tests that wait for fills wait for cycles: short ones.
 */
export const CYCLE_MS = 250;
export const SPEC_EVENTS = ['cycle_start', 'signal_generated', 'risk_approved', 'order_submitted', 'cycle_end'];

export interface E2e {
  t: TestStore;
  proc: RunningProcess;
  base: string;
  /** The API key the processes were started with (the console's sign-in needs it). */
  key: string;
  /** The working directory of `tcs start` (its var/ holds the trading latch), and its environment. */
  dir: string;
  env: Record<string, string>;
  /** Starts (again) `tcs start` with extra arguments; returns the API's base URL. */
  start(extra?: string[]): Promise<string>;
  lines(): Array<{ event: string; cycle?: number } & Record<string, unknown>>;
  count(event: string): number;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  heartbeat(): Promise<TradingHeartbeat | null>;
  /**
   * Waits until the trading process (pid) has written heartbeats spanning at least `ms` of its own
   * clock: proof that it was alive and had its chance to act for that long, however slow the machine
   * (its cycle timer and its heartbeat timer share one event loop, so a cycle due in that span has
   * started). Resolves with the distinct heartbeats seen, oldest first.
   */
  heartbeatsSpan(pid: number, ms: number): Promise<TradingHeartbeat[]>;
  close(): Promise<void>;
}

/** `env`: settings on top of the harness's own (e.g. other STRATEGIES). */
export async function openE2e(kind: StoreKind, extraEnv: Record<string, string> = {}): Promise<E2e> {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-e2e-'));
  const t = await openTestStore(kind);
  const key = generateKey();
  const env = {
    ...PERMISSIVE_ENV,
    CYCLE_SECONDS: String(CYCLE_MS / 1000),
    SERVICE_API_KEY: key,
    RISK_HMAC_SECRET: generateKey(),
    STORE_URL: t.url,
    PORT: '0',
    LOG_LEVEL: 'info',
    HEARTBEAT_MS: '200',
    // A SIGKILLed child is restarted after 20, 40… ms rather than 0.5, 1… s (test-only knob).
    TCS_TEST_RESTART_BACKOFF_MS: '20',
    // A healthy store must not miss its deadline on a loaded CI machine (the fault tests set their own).
    STORE_TIMEOUT_MS: '3000',
    ...extraEnv,
  };
  const e: E2e = {
    t,
    proc: undefined as unknown as RunningProcess,
    base: '',
    key,
    dir,
    env,
    async start(extra = []) {
      e.proc = startTcs(['start', ...extra], env, dir);
      const [, base] = await e.proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/);
      e.base = base!;
      return e.base;
    },
    lines: () =>
      e.proc
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { event: string }),
    count: (event) => e.lines().filter((l) => l.event === event).length,
    call: (method, path, body) =>
      fetch(e.base + path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    heartbeat: () => readDocument(t.store.kv, HEARTBEAT_KEY),
    async heartbeatsSpan(pid, ms) {
      const seen: TradingHeartbeat[] = [];
      await vi.waitFor(
        async () => {
          const beat = await e.heartbeat();
          if (beat?.pid !== pid) throw new Error(`no heartbeat from ${pid} yet`);
          if (beat.ts !== seen.at(-1)?.ts) seen.push(beat);
          const span = beat.ts - seen[0]!.ts;
          if (span < ms) throw new Error(`heartbeats span ${span} ms of ${ms}`);
        },
        { timeout: 15_000 + ms * 5, interval: 50 },
      );
      return seen;
    },
    async close() {
      await e.proc?.stop();
      await t.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await e.start();
  return e;
}
