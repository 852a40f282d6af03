/**
 * Shared by the fault files that run the real `tcs api` and `tcs trade` as separate processes: temp
 * directories (each process its own cwd, so the trading process's latch lives in its own
 * var/trading-latch.json), the environment of a trading process that trades every half second, the
 * event lines it printed, and the proof of an absence — a restarted trading process that says on its
 * own stderr that it is waiting ("not trading: …"), stays alive while it retries the store several
 * times (counted from its own debug lines, not on the test's clock), and prints neither a cycle nor
 * an order meanwhile. Every process is ended by its own pid.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import type { RunningProcess } from '../support/processes.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

/** CYCLE_SECONDS of every trading process here. */
export const CYCLE_MS = 500;

/**
 * How often a trading process waiting for its store retries it here: the test-only knob
 * TCS_TEST_STORE_RETRY_MS (src/runtime/trading/trading-process.ts; 1 s in production).
 */
export const STORE_RETRY_MS = 100;

/** A waiting process is watched over this many of its own retries of the store. */
export const QUIET_RETRIES = 8;

/** The extra environment of a process whose store retries a test counts (one debug line each). */
export const COUNTED_RETRIES_ENV = { LOG_LEVEL: 'debug' };

/**
 * Bound on a process starting, and on an API answer: these files assert what happens, not how fast
 * (the API's own deadlines have their tests and bench/), and they share a 2-core machine with the
 * ten traders of traders-at-once.test.ts.
 */
export const SLOW_BOUND_MS = 60_000;

/** The lease message of a trading process refused because another one owns the store. */
export const LEASE_REFUSED = /another trading process holds this store's trading lease/;

/** An event line of a process that trades: a cycle began or an order went to the venue. */
const TRADED = /"event":"(cycle_start|order_submitted)"/;

export type EventLine = { event: string } & Record<string, unknown>;

/** Temp directories made by one test file, removed by `removeAll`. */
export function scratch() {
  const made: string[] = [];
  return {
    dir(label: string): string {
      const dir = mkdtempSync(join(tmpdir(), `tcs-${label}-`));
      made.push(dir);
      return dir;
    },
    removeAll(): void {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A trading process on `storeUrl` that proposes an order every cycle, diagnostics at info on stderr. */
export function traderEnv(storeUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...PERMISSIVE_ENV,
    CYCLE_SECONDS: String(CYCLE_MS / 1000),
    RISK_HMAC_SECRET: generateKey(),
    STORE_URL: storeUrl,
    LOG_LEVEL: 'info',
    HEARTBEAT_MS: '200',
    TCS_TEST_STORE_RETRY_MS: String(STORE_RETRY_MS),
    // A healthy store must not miss its deadline on a loaded 2-core machine.
    STORE_TIMEOUT_MS: '3000',
    ...extra,
  };
}

/** The JSON event lines a process printed on stdout so far. */
export function eventLines(proc: RunningProcess): EventLine[] {
  return proc
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as EventLine);
}

/**
 * Proves that `proc` trades nothing while the store is faulted: it must first say on stderr that it
 * is not trading and why (`because`), then stay alive (not exited, not stopped) over QUIET_RETRIES
 * of its own retries of the store, each still refused for that reason (its debug lines: start it
 * with COUNTED_RETRIES_ENV), while `stillWaiting` holds at every look, and print no cycle_start and
 * no order_submitted. The window is counted on the process's own loop, so a loaded machine
 * lengthens it instead of shortening the proof.
 */
export async function expectWaitingWithoutTrading(
  proc: RunningProcess,
  because: RegExp,
  stillWaiting: () => Promise<void> = async () => {},
): Promise<void> {
  // Until it says so, it must not trade either: a cycle or an order fails at once, saying what it did.
  const said = new RegExp(`not trading: [^\\n]*${because.source}`);
  const saidBy = Date.now() + SLOW_BOUND_MS;
  while (!said.test(proc.stderr())) {
    expect(proc.stdout(), 'it traded instead of waiting').not.toMatch(TRADED);
    expect(proc.child.exitCode, proc.stderr().slice(-2000)).toBeNull();
    expect(Date.now(), `no ${said} on stderr:\n${proc.stderr().slice(-2000)}`).toBeLessThan(saidBy);
    await new Promise((r) => setTimeout(r, 50));
  }
  const retry = new RegExp(`"msg":"still not trading: [^\\n]*${because.source}`, 'g');
  const retries = () => (proc.stderr().match(retry) ?? []).length;
  const from = retries();
  const retriedBy = Date.now() + SLOW_BOUND_MS;
  while (retries() - from < QUIET_RETRIES) {
    expect(proc.child.exitCode, proc.stderr().slice(-2000)).toBeNull();
    expect(proc.stdout(), 'it traded instead of waiting').not.toMatch(TRADED);
    await stillWaiting();
    expect(Date.now(), `fewer than ${QUIET_RETRIES} retries:\n${proc.stderr().slice(-2000)}`).toBeLessThan(retriedBy);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(proc.child.exitCode, proc.stderr().slice(-2000)).toBeNull();
  expect(processState(proc.child.pid!)).not.toBe('T'); // alive and running, not frozen
  expect(proc.stdout(), 'it traded instead of waiting').not.toMatch(TRADED);
}

/** The state letter of a Linux process (R, S, D, T, Z…). */
function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
}

/** Ends every process still running, each by its own pid (SIGTERM, then SIGKILL after 10 s). */
export async function endAll(procs: Array<RunningProcess | undefined>): Promise<void> {
  await Promise.all(procs.map((p) => p?.stop()));
}
