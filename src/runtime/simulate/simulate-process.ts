/**
 * `tcs simulate` runs the simulation in a child Node process with its young generation chosen.
 *
 * Why: a run allocates short-lived objects at a high rate (every cycle's actor snapshots, events,
 * market view and decision entry), and with Node's default semi-spaces (growing from 1 MB to 16 MB)
 * garbage collection took 14–16 % of a run. Semi-spaces of 32–64 MB made runs about 15 % faster then,
 * but cost their size three times over in resident memory: the SMA run of the backtrader comparison
 * (3 × 60,480 candles) peaked at 380 MB with them, 255 MB with at most 16 MB and 235 MB with at most
 * 8 MB, at the same CPU time (50.8–50.9 s each, one run each, a loaded machine), against an aim of
 * 250 MB (issue 34, item 8). V8 reads these sizes only when the process starts, so they cannot be
 * set from inside this one; and they are not set for every `tcs` command, because the long-running
 * API and trading processes keep Node's defaults.
 *
 * The child runs without source maps: with them Node keeps every loaded bundle's map in memory, and
 * the SMA run peaked at 248–263 MB against 226–237 MB without, the CPU the same within the noise
 * (interleaved runs, docs/develop/benchmarks-history.md). What it costs: a crash inside tcs itself
 * names lines of dist/ rather than of the TypeScript sources; NODE_OPTIONS=--enable-source-maps
 * brings them back. A strategy's own errors are unaffected (the agent reports their messages).
 *
 * The parent only waits and passes signals on: a SIGINT sent to it alone reaches the child as a
 * message once the child listens (a terminal's Ctrl-C reaches both processes, and the child must not
 * count it twice), and as a SIGINT before that; SIGTERM and SIGHUP are passed on as signals, and the
 * child's exit status becomes the parent's. If the parent dies, even by SIGKILL, the child sees its
 * channel close and ends the run as after a Ctrl-C (run-interrupt.ts).
 * A process that already runs with a semi-space size chosen (the child itself, or a user's
 * NODE_OPTIONS) runs the simulation in-process.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import { tcsNodeArgs } from '../package-root.js';
import { parentInterrupted } from './run-interrupt.js';

/** The young generation a simulation runs with (MB per semi-space): at most 8, for a peak below 250 MB. */
export const SIMULATION_NODE_FLAGS = ['--max-semi-space-size=8'] as const;

const INTERRUPT = { type: 'tcs-simulate-interrupt' } as const;
/** The child listens for INTERRUPT from here on; before it, it is still starting. */
const LISTENING = { type: 'tcs-simulate-listening' } as const;

function isMessage(message: unknown, kind: { type: string }): boolean {
  return (message as { type?: unknown } | null)?.type === kind.type;
}

/**
 * In the child, before anything else: the parent's interrupt message and its channel closing reach
 * the run (run-interrupt.ts says what they do). The channel stays unref'd (main.ts), so listening
 * never keeps the process alive.
 */
export function listenToParent(): void {
  if (typeof process.send !== 'function') return; // not started with a channel
  process.on('message', (message) => {
    if (isMessage(message, INTERRUPT)) parentInterrupted();
  });
  process.on('disconnect', parentInterrupted);
  // 'disconnect' is not replayed to a late listener: a parent already gone is seen here.
  if (!process.connected) {
    parentInterrupted();
    return;
  }
  process.channel?.unref();
  process.send(LISTENING);
}

/** True when this process's young generation was already chosen on its command line or in NODE_OPTIONS. */
export function youngGenerationChosen(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): boolean {
  const chosen = (flag: string) => /semi[-_]space[-_]size/.test(flag);
  return execArgv.some(chosen) || nodeOptions.split(/\s+/).some(chosen);
}

/** Signals whose default action dumps core: the child's crash is reported by its status, not repeated here. */
const CORE_SIGNALS = new Set<NodeJS.Signals>(['SIGABRT', 'SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGFPE', 'SIGQUIT']);

/** The parent's own Node flags the child gets too (an --inspect port would clash, so not those). */
function passedNodeFlags(execArgv: readonly string[]): string[] {
  return execArgv.filter((flag) => !/^--inspect/.test(flag));
}

/** Runs `tcs simulate <args>` in a child process with SIMULATION_NODE_FLAGS; resolves to its exit code. */
export async function runSimulationProcess(args: readonly string[]): Promise<number> {
  let child: ReturnType<typeof spawn> | undefined;
  let listening = false;
  // A SIGINT reaches a listening child as a message; before that the child is still starting, where
  // a Ctrl-C ends the process, and gets the signal itself, as it gets SIGTERM and SIGHUP.
  const forward = (signal: NodeJS.Signals) => () => {
    if (child === undefined) return; // handlers run from the event loop, after spawn() has returned
    if (signal === 'SIGINT' && listening) {
      if (child.connected) child.send(INTERRUPT, () => {});
    } else child.kill(signal);
  };
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const);
  // Installed before spawn(): a signal arriving meanwhile would otherwise meet the default action
  // and end this process, leaving the child to run with nobody waiting for it.
  for (const [signal, handler] of handlers) process.on(signal, handler);
  try {
    child = spawn(
      process.execPath,
      [
        ...passedNodeFlags(process.execArgv),
        ...SIMULATION_NODE_FLAGS,
        ...tcsNodeArgs(['simulate', ...args], { sourceMaps: false }),
      ],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    child.on('message', (message) => {
      if (isMessage(message, LISTENING)) listening = true;
    });
    const [code, signal] = await exited;
    if (signal === null) return code ?? 1;
    const status = 128 + (constants.signals[signal] ?? 0);
    if (CORE_SIGNALS.has(signal)) return status;
    // Die the way the child died, so whoever started `tcs simulate` sees the same status.
    for (const [name, handler] of handlers) process.off(name, handler);
    process.kill(process.pid, signal);
    return status;
  } finally {
    for (const [name, handler] of handlers) process.off(name, handler);
  }
}
