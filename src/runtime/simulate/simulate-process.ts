/**
 * `tcs simulate` runs the simulation in a child Node process with a larger young generation.
 *
 * Why: a run allocates short-lived objects at a high rate (every cycle's actor snapshots, events,
 * market view and decision entry), and with Node's default semi-spaces (growing from 1 MB to 16 MB)
 * garbage collection took 14–16 % of a run. Semi-spaces of 32–64 MB made runs 5–15 % faster (BENCHMARKS.md,
 * "Simulation throughput"). V8 reads these sizes only when the process starts, so they cannot be set
 * from inside this one; and they are not set for every `tcs` command, because the long-running API and
 * trading processes would carry the larger heap for nothing.
 *
 * The parent only waits and passes signals on: a SIGINT sent to it alone reaches the child as a
 * message (a terminal's Ctrl-C reaches both processes, and the child must not count it twice), SIGTERM
 * and SIGHUP are passed on as signals, and the child's exit status becomes the parent's. If the parent
 * dies, even by SIGKILL, the child sees its channel close and ends the run as after a Ctrl-C.
 * A process that already runs with a semi-space size chosen (the child itself, or a user's
 * NODE_OPTIONS) runs the simulation in-process.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import { tcsNodeArgs } from '../package-root.js';

/** The young generation a simulation runs with (MB per semi-space). */
export const SIMULATION_NODE_FLAGS = ['--min-semi-space-size=32', '--max-semi-space-size=64'] as const;

const INTERRUPT = { type: 'tcs-simulate-interrupt' } as const;

export function isInterruptMessage(message: unknown): boolean {
  return (message as { type?: unknown } | null)?.type === INTERRUPT.type;
}

/** True when this process's young generation was already chosen on its command line or in NODE_OPTIONS. */
export function youngGenerationChosen(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): boolean {
  const chosen = (flag: string) => /semi[-_]space[-_]size/.test(flag);
  return execArgv.some(chosen) || nodeOptions.split(/\s+/).some(chosen);
}

/** Runs `tcs simulate <args>` in a child process with SIMULATION_NODE_FLAGS; resolves to its exit code. */
export async function runSimulationProcess(args: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...SIMULATION_NODE_FLAGS, ...tcsNodeArgs(['simulate', ...args])], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const interrupt = () => {
    if (child.connected) child.send(INTERRUPT, () => {});
  };
  const passOn = (signal: NodeJS.Signals) => () => child.kill(signal);
  const handlers: [NodeJS.Signals, () => void][] = [
    ['SIGINT', interrupt],
    ['SIGTERM', passOn('SIGTERM')],
    ['SIGHUP', passOn('SIGHUP')],
  ];
  for (const [signal, handler] of handlers) process.on(signal, handler);
  try {
    const [code, signal] = await exited;
    if (signal === null) return code ?? 1;
    // Die the way the child died, so whoever started `tcs simulate` sees the same status.
    for (const [name, handler] of handlers) process.off(name, handler);
    process.kill(process.pid, signal);
    return 128 + (constants.signals[signal] ?? 0);
  } finally {
    for (const [name, handler] of handlers) process.off(name, handler);
  }
}
