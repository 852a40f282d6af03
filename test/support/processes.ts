/**
 * Spawning the real `tcs` command as child processes for end-to-end tests, and waiting for what
 * they print. Every child is killed in cleanup, whatever the test did.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

export function startTcs(args: string[], env: NodeJS.ProcessEnv, cwd?: string): RunningProcess {
  const child = spawn(process.execPath, [TCS_BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    cwd,
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

/** Starts `tcs api` on a free port and resolves with its base URL once it listens. */
export async function startApi(env: NodeJS.ProcessEnv): Promise<{ proc: RunningProcess; baseUrl: string }> {
  const proc = startTcs(['api'], { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env });
  const match = await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/);
  return { proc, baseUrl: match[1]! };
}
