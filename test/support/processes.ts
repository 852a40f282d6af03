/**
 * Spawning the real `tcs` command as child processes for end-to-end tests, and waiting for what
 * they print. Every child is killed in cleanup, whatever the test did. `tcs` is the compiled bin, as
 * users run it (dist/, kept up to date by the global setup), not the TypeScript sources.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TEST_CONTROL_SECRET } from './control-secret.js';

export const TCS_BIN = fileURLToPath(new URL('../../bin/tcs.mjs', import.meta.url));

export interface RunningProcess {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first match of `pattern` in stdout+stderr, or rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Where and as whom a child runs: `uid`/`gid` let a root test run it as an unprivileged user. */
export interface ChildPlacement {
  cwd?: string;
  uid?: number;
  gid?: number;
  /** A process group of its own, so a test can signal the whole group as a terminal's Ctrl-C does. */
  detached?: boolean;
}

export function startTcs(args: string[], env: NodeJS.ProcessEnv, cwd?: string | ChildPlacement): RunningProcess {
  return startNode([TCS_BIN, ...args], env, cwd);
}

/**
 * Starts `node <argv>` with only PATH and HOME from this environment, and the tests' CONTROL_SECRET
 * (./control-secret.ts; `CONTROL_SECRET: undefined` in `env` leaves it out), plus `env`.
 */
export function startNode(argv: string[], env: NodeJS.ProcessEnv, placement?: string | ChildPlacement): RunningProcess {
  const where = typeof placement === 'string' ? { cwd: placement } : (placement ?? {});
  const child = spawn(process.execPath, argv, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CONTROL_SECRET: TEST_CONTROL_SECRET, ...env },
    ...where,
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitFor(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = (out + err).match(pattern);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(
            `waited for ${pattern} (exit ${child.exitCode})\nstdout:\n${out.slice(-3000)}\nstderr:\n${err.slice(-3000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with how `proc` exited, or rejects (with its output) when it is still running after `ms`. */
export async function exitWithin(
  proc: RunningProcess,
  ms: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `still running after ${ms} ms\nstdout:\n${proc.stdout().slice(-2000)}\nstderr:\n${proc.stderr().slice(-4000)}`,
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([proc.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts `tcs api` on a free port and resolves with its base URL once it listens. When it does not
 * listen in time it is killed before the error is thrown: the caller never got it, so could not end it.
 */
export async function startApi(
  env: NodeJS.ProcessEnv,
  placement?: ChildPlacement,
  timeoutMs = 20_000,
): Promise<{ proc: RunningProcess; baseUrl: string }> {
  const proc = startTcs(['api'], { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }, placement);
  try {
    const match = await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/, timeoutMs);
    return { proc, baseUrl: match[1]! };
  } catch (err) {
    await proc.stop('SIGKILL');
    throw err;
  }
}

/** Pids of the live processes whose parent is `pid` (Linux /proc). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the command name (which may hold spaces, inside parentheses): state, ppid, …
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) children.push(Number(name));
  }
  return children;
}

/**
 * Whether `pid` is still running (Linux /proc): a zombie counts as gone. A child whose parent was
 * SIGKILLed is reparented to PID 1, which here reaps it only about a second after it exited, so
 * `process.kill(pid, 0)` would call it alive that long; a process reaped between two reads is gone.
 */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The argv a process was started with (Linux /proc/<pid>/cmdline). */
export function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}
