/**
 * `tcs simulate` runs the simulation in a child Node process with the young generation it chooses
 * (src/runtime/simulate/simulate-process.ts). As real processes: the child carries the flags; the
 * parent passes SIGTERM on and exits as its child did; a parent killed outright leaves no simulation
 * running unattended (the child ends the run with a partial report); a semi-space size already in
 * NODE_OPTIONS keeps the run in one process.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SIMULATION_NODE_FLAGS, youngGenerationChosen } from '../../src/runtime/simulate/simulate-process.js';
import { childPids, commandLine, exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-simulate-process-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Running (not gone, not a zombie); a process reaped between two reads counts as gone. */
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/** A run far longer than any test, written to `out`. */
const longRun = (out: string) => [
  'simulate',
  '--cycles',
  '10000000',
  '--seed',
  '2',
  '--symbols',
  'BTCUSDT',
  '--out',
  out,
  '--quiet',
];

/**
 * The run writes equity.csv every 16 rows (the test-only TCS_TEST_SIM_FLUSH_EVERY; 1,024 otherwise),
 * so a run shows that its cycle loop has begun after 16 cycles instead of after a second of them.
 */
const FLUSH_OFTEN = { TCS_TEST_SIM_FLUSH_EVERY: '16' };

/** Starts a long run; resolves once equity.csv shows cycles done. */
async function startLongRun(out: string, env: NodeJS.ProcessEnv = {}, detached = false): Promise<RunningProcess> {
  const proc = startTcs(longRun(out), { ...FLUSH_OFTEN, ...env }, { cwd: root, detached });
  const equity = join(out, 'equity.csv');
  const size = () => (existsSync(equity) ? statSync(equity).size : 0);
  for (let i = 0; i < 300 && size() < 200; i++) {
    expect(proc.child.exitCode, proc.stderr()).toBeNull();
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(size(), proc.stderr()).toBeGreaterThanOrEqual(200);
  return proc;
}

/** Starts a long run and sends the parent `signal` as soon as its child exists, still starting. */
async function signalWhileStarting(out: string, signal: NodeJS.Signals) {
  const proc = startTcs(longRun(out), {}, root);
  let children: number[] = [];
  for (let i = 0; i < 400 && children.length === 0 && proc.child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 5));
    children = childPids(proc.child.pid!);
  }
  if (children.length !== 1) {
    await endAll(proc, children);
    throw new Error(`expected one child process, found ${children.length}\n${proc.stderr()}`);
  }
  proc.child.kill(signal);
  return { proc, children };
}

/** Ends what a test started, by pid, whatever state it was left in. */
async function endAll(proc: RunningProcess, children: number[]): Promise<void> {
  for (const pid of children) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await proc.stop('SIGKILL');
}

async function gone(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

const summaryOf = (out: string) =>
  JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;

describe('tcs simulate in its own process', () => {
  it('simulates in one child process started with the young generation it chooses', async () => {
    const proc = await startLongRun(join(root, 'flags'));
    const children = childPids(proc.child.pid!);
    try {
      expect(children).toHaveLength(1);
      const argv = commandLine(children[0]!);
      for (const flag of SIMULATION_NODE_FLAGS) expect(argv).toContain(flag);
      // Source maps cost a run about 20 MB of its peak memory (simulate-process.ts).
      expect(argv).not.toContain('--enable-source-maps');
      expect(argv).toContain('simulate');
      expect(argv).toContain('10000000');
    } finally {
      await endAll(proc, children);
    }
  }, 60_000);

  it('a parent killed outright leaves no run going: the child ends it with a partial report', async () => {
    const out = join(root, 'orphan');
    const proc = await startLongRun(out);
    const children = childPids(proc.child.pid!);
    try {
      expect(children).toHaveLength(1);
      proc.child.kill('SIGKILL');
      await exitWithin(proc, 10_000);
      expect(await gone(children[0]!, 20_000), 'the child still runs').toBe(true);
      const summary = summaryOf(out);
      expect(summary.partial).toBe(true);
      expect(summary.cycles).toBeGreaterThan(0);
      expect(statSync(join(out, 'report.html')).size).toBeGreaterThan(0);
    } finally {
      await endAll(proc, children);
    }
  }, 60_000);

  it("a terminal's Ctrl-C (SIGINT to the whole group) counts once: exit 130 with a partial report", async () => {
    // Both processes get the signal, and the child also gets the parent's message for it; taken as
    // a second Ctrl-C, that would end the child at once with no report.
    for (let round = 0; round < 3; round++) {
      const out = join(root, `group-${round}`);
      const proc = await startLongRun(out, {}, true);
      const children = childPids(proc.child.pid!);
      try {
        expect(children).toHaveLength(1);
        process.kill(-proc.child.pid!, 'SIGINT');
        const { code } = await exitWithin(proc, 15_000);
        expect(code, proc.stderr()).toBe(130);
        expect(summaryOf(out).partial).toBe(true);
      } finally {
        await endAll(proc, children);
      }
    }
  }, 90_000);

  it('passes SIGTERM on, and exits by the signal its child died of', async () => {
    const proc = await startLongRun(join(root, 'term'));
    const children = childPids(proc.child.pid!);
    try {
      proc.child.kill('SIGTERM');
      const { code, signal } = await exitWithin(proc, 10_000);
      expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
      expect(await gone(children[0]!, 5_000)).toBe(true);
    } finally {
      await endAll(proc, children);
    }
  }, 60_000);

  it('a SIGINT while the child is still starting is not lost: both processes end', async () => {
    const { proc, children } = await signalWhileStarting(join(root, 'early'), 'SIGINT');
    try {
      // Ended as a Ctrl-C ends it there: by the signal while starting, or with exit 130 had the loop begun.
      const { code, signal } = await exitWithin(proc, 15_000);
      expect(signal === 'SIGINT' || code === 130, `code ${code}, signal ${signal}`).toBe(true);
      expect(await gone(children[0]!, 5_000), 'the child still runs').toBe(true);
    } finally {
      await endAll(proc, children);
    }
  }, 60_000);

  it('a parent killed while the child is still starting leaves no run going', async () => {
    const { proc, children } = await signalWhileStarting(join(root, 'early-kill'), 'SIGKILL');
    try {
      await exitWithin(proc, 10_000);
      // Gone before its first cycle (the channel closed before it listened) or after it (a partial report).
      expect(await gone(children[0]!, 20_000), 'the child still runs').toBe(true);
    } finally {
      await endAll(proc, children);
    }
  }, 60_000);

  it('runs in one process when NODE_OPTIONS already sizes the young generation', async () => {
    const out = join(root, 'in-process');
    const proc = await startLongRun(out, { NODE_OPTIONS: '--max-semi-space-size=32' });
    const children = childPids(proc.child.pid!);
    try {
      expect(children).toEqual([]);
      proc.child.kill('SIGINT');
      const { code } = await exitWithin(proc, 10_000);
      expect(code, proc.stderr()).toBe(130);
      expect(summaryOf(out).partial).toBe(true);
    } finally {
      await endAll(proc, children);
    }
  }, 60_000);
});

describe('youngGenerationChosen', () => {
  it('sees a semi-space size on the command line or in NODE_OPTIONS, in either spelling', () => {
    expect(youngGenerationChosen([], '')).toBe(false);
    expect(youngGenerationChosen(['--enable-source-maps'], '--max-old-space-size=512')).toBe(false);
    expect(youngGenerationChosen(['--max-semi-space-size=64'], '')).toBe(true);
    expect(youngGenerationChosen([], '--enable-source-maps --min_semi_space_size=8')).toBe(true);
  });
});
