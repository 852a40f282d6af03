/**
 * A small process supervisor: runs each child as its own OS process, restarts one that crashes with
 * exponential backoff (reset after a minute of healthy running), and on SIGINT/SIGTERM asks every
 * child to stop (SIGTERM), escalating to SIGKILL after a grace period. A child exiting with code 2
 * (configuration error) is not restarted: it would only fail again, so everything stops.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

export interface ChildSpec {
  name: string;
  args: string[];
}

export interface SupervisorOptions {
  command: string;
  env: NodeJS.ProcessEnv;
  children: ChildSpec[];
  log: (message: string) => void;
  graceMs?: number;
}

const CONFIG_ERROR_EXIT = 2;
const HEALTHY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 30_000;

export function supervise(options: SupervisorOptions): Promise<number> {
  const graceMs = options.graceMs ?? 10_000;
  const running = new Map<string, ChildProcess>();
  const failures = new Map<string, number>();
  let stopping = false;
  let exitCode = 0;
  let resolveDone: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (resolveDone = resolve));

  const start = (spec: ChildSpec) => {
    const startedAt = Date.now();
    // The IPC channel is only a lifeline: a child sees 'disconnect' when the supervisor dies
    // (even by SIGKILL) and shuts down instead of trading on as an orphan.
    const child = spawn(options.command, spec.args, {
      env: options.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    running.set(spec.name, child);
    child.on('exit', (code, signal) => {
      running.delete(spec.name);
      if (stopping) {
        if (running.size === 0) resolveDone(exitCode);
        return;
      }
      if (code === CONFIG_ERROR_EXIT) {
        options.log(`${spec.name} refused to start (configuration error above); stopping`);
        exitCode = CONFIG_ERROR_EXIT;
        stop();
        return;
      }
      const healthy = Date.now() - startedAt > HEALTHY_AFTER_MS;
      const count = healthy ? 1 : (failures.get(spec.name) ?? 0) + 1;
      failures.set(spec.name, count);
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (count - 1));
      options.log(`${spec.name} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      // Not unref'd: when every child is down this timer is what keeps the supervisor alive.
      setTimeout(() => {
        if (!stopping) start(spec);
      }, delay);
    });
  };

  const stop = () => {
    if (stopping) return;
    stopping = true;
    if (running.size === 0) {
      resolveDone(exitCode);
      return;
    }
    for (const child of running.values()) child.kill('SIGTERM');
    setTimeout(() => {
      for (const [name, child] of running) {
        options.log(`${name} did not stop within ${graceMs} ms; killing it`);
        child.kill('SIGKILL');
      }
    }, graceMs).unref();
  };

  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  options.children.forEach(start);
  return done;
}
