/**
 * A small process supervisor: runs each child as its own OS process, restarts one that crashes with
 * exponential backoff (reset after a minute of healthy running), and on SIGINT/SIGTERM asks every
 * child to stop (SIGTERM), escalating to SIGKILL after a grace period. It stops everything instead
 * of restarting when a child exits with code 2 (a configuration error: it would only fail again) or
 * fails too often (restart-policy.ts), and its last line then names the child and the reason.
 * A child with `after` starts only once that other child has reported that it listens: under
 * `tcs start` nothing trades unless the API that can stop it serves.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { backoffMs, FailureWindow } from './restart-policy.js';
import type { RestartPolicy } from './restart-policy.js';
import { isChildMessage } from './supervisor-channel.js';
import { terminalSafe } from '../domain/terminal-text.js';

export interface ChildSpec {
  name: string;
  args: string[];
  /** Started only after the child of this name first reports (over IPC) that it listens. */
  after?: string;
}

export interface SupervisorOptions {
  command: string;
  env: NodeJS.ProcessEnv;
  children: ChildSpec[];
  log: (message: string) => void;
  restart: RestartPolicy;
  graceMs?: number;
  /** Each time a child reports that it listens, with the address it reported. */
  onListening?: (child: string, address: string) => void;
}

export const CONFIG_ERROR_EXIT = 2;
/** `tcs start`'s exit code when a child failed too often. */
export const GAVE_UP_EXIT = 1;
const HEALTHY_AFTER_MS = 60_000;

export function supervise(options: SupervisorOptions): Promise<number> {
  return new Supervisor(options).run();
}

class Supervisor {
  private readonly graceMs: number;
  private readonly running = new Map<string, ChildProcess>();
  private readonly started = new Set<string>();
  private readonly consecutive = new Map<string, number>();
  private readonly windows: Map<string, FailureWindow>;
  /** What each child said just before exiting (its error message), for the launcher's own line. */
  private readonly lastWords = new Map<string, string>();
  private stopping = false;
  private exitCode = 0;
  private finalLine: string | null = null;
  private resolveDone: (code: number) => void = () => {};

  constructor(private readonly options: SupervisorOptions) {
    this.graceMs = options.graceMs ?? 10_000;
    this.windows = new Map(options.children.map((c) => [c.name, new FailureWindow(options.restart.windowMs)]));
  }

  run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.resolveDone = resolve));
    process.once('SIGINT', () => this.stop());
    process.once('SIGTERM', () => this.stop());
    for (const spec of this.options.children) if (spec.after === undefined) this.start(spec);
    return done;
  }

  private start(spec: ChildSpec): void {
    this.started.add(spec.name);
    this.lastWords.delete(spec.name);
    // Monotonic: a wall-clock step must not make a crash loop look healthy, or a healthy child a crash loop.
    const startedAt = performance.now();
    // The IPC channel carries the child's 'listening' and 'exiting' messages, and is its lifeline:
    // a child sees 'disconnect' when the supervisor dies (even by SIGKILL) and shuts down.
    const child = spawn(this.options.command, spec.args, {
      env: this.options.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.running.set(spec.name, child);
    child.on('message', (message) => {
      if (!isChildMessage(message)) return;
      if (message.type === 'exiting')
        this.lastWords.set(spec.name, terminalSafe(message.message.replace(/\s+/g, ' ').trim()));
      else {
        this.options.onListening?.(spec.name, message.address);
        this.startDependents(spec.name);
      }
    });
    child.on('exit', (code, signal) => {
      this.running.delete(spec.name);
      if (!this.stopping) this.onUnexpectedExit(spec, startedAt, code, signal);
      else if (this.running.size === 0) this.finish();
    });
  }

  /** The first 'listening' of `name` starts the children waiting for it; later restarts of it start nothing. */
  private startDependents(name: string): void {
    for (const spec of this.options.children) {
      if (spec.after === name && !this.started.has(spec.name) && !this.stopping) this.start(spec);
    }
  }

  private onUnexpectedExit(spec: ChildSpec, startedAt: number, code: number | null, signal: string | null): void {
    const said = this.lastWords.get(spec.name);
    if (code === CONFIG_ERROR_EXIT) {
      const why = said ?? 'see its message above';
      this.stop(CONFIG_ERROR_EXIT, `${spec.name} refused to start (configuration error, exit 2): ${why}`);
      return;
    }
    const how = `${signal ?? `exit ${code}`}${said ? `: ${said}` : ''}`;
    const failures = this.windows.get(spec.name)!.record(performance.now());
    const { maxFailures, windowMs } = this.options.restart;
    if (failures >= maxFailures) {
      this.stop(GAVE_UP_EXIT, `${spec.name} failed ${failures} times within ${windowMs / 1000} s (last: ${how})`);
      return;
    }
    const healthy = performance.now() - startedAt > HEALTHY_AFTER_MS;
    const count = healthy ? 1 : (this.consecutive.get(spec.name) ?? 0) + 1;
    this.consecutive.set(spec.name, count);
    const delay = backoffMs(count, this.options.restart.firstBackoffMs);
    this.options.log(
      `${spec.name} exited (${how}); restarting in ${delay} ms ` +
        `(failure ${failures}; ${maxFailures} within ${windowMs / 1000} s stop everything)`,
    );
    // Not unref'd: when every child is down this timer is what keeps the supervisor alive.
    setTimeout(() => {
      if (!this.stopping) this.start(spec);
    }, delay);
  }

  /** Stops every child; `why` (a child's failure) is said now and, as the last line, once all are down. */
  private stop(code = this.exitCode, why: string | null = null): void {
    if (this.stopping) return;
    this.stopping = true;
    this.exitCode = code;
    this.finalLine = why && `${why}; stopped everything`;
    if (this.running.size === 0) {
      this.finish();
      return;
    }
    if (why) this.options.log(`${why}; stopping everything`);
    for (const child of this.running.values()) child.kill('SIGTERM');
    setTimeout(() => {
      for (const [name, child] of this.running) {
        this.options.log(`${name} did not stop within ${this.graceMs} ms; killing it`);
        child.kill('SIGKILL');
      }
    }, this.graceMs).unref();
  }

  private finish(): void {
    if (this.finalLine) this.options.log(this.finalLine);
    this.resolveDone(this.exitCode);
  }
}
