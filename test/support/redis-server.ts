/**
 * A redis-server of the test's own, for fault injection: started on a spare loopback port, and then
 * killed, paused (SIGSTOP), resumed (SIGCONT) and restarted — empty, or from its append-only file.
 * Only the process this module started is ever signalled, by its pid. Requires `redis-server` on
 * PATH (.ci/run installs Debian's when missing).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OwnRedis {
  port: number;
  /** redis://127.0.0.1:<port>/0 */
  url: string;
  pid(): number;
  /** SIGKILL; the data that was not persisted is gone. */
  kill(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers. */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  /** Starts again on the same port: `empty` deletes the append-only file first. */
  restart(options?: { empty?: boolean }): Promise<void>;
  /** Kills it (resuming it first if paused) and removes its directory. */
  cleanup(): Promise<void>;
}

export interface OwnRedisOptions {
  /** Keep an append-only file with fsync on every write (default false: nothing survives a restart). */
  appendOnly?: boolean;
  /** More command-line configuration, e.g. `['--maxmemory', '1mb']`. */
  extraArgs?: readonly string[];
}

/** A port nothing listens on right now (the kernel's choice, released before returning). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function startOwnRedis(options: OwnRedisOptions = {}): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tcs-redis-'));
  let child: ChildProcess | null = null;
  let paused = false;

  const launch = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--daemonize', 'no'];
    args.push(...(options.appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
    args.push(...(options.extraArgs ?? []));
    const started = spawn('redis-server', args, { stdio: 'ignore' });
    child = started;
    await waitUntil(() => answersPing(port), `redis-server on ${port}`);
  };

  const kill = async () => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((r) => current.once('exit', r));
    if (paused) current.kill('SIGCONT');
    paused = false;
    current.kill('SIGKILL');
    await exited;
  };

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    pid: () => child?.pid ?? -1,
    kill,
    pause() {
      child?.kill('SIGSTOP');
      paused = true;
    },
    resume() {
      child?.kill('SIGCONT');
      paused = false;
    },
    async restart({ empty = false } = {}) {
      await kill();
      if (empty) {
        rmSync(join(dir, 'appendonlydir'), { recursive: true, force: true });
        rmSync(join(dir, 'appendonly.aof'), { force: true });
        rmSync(join(dir, 'dump.rdb'), { force: true });
      }
      await launch();
    },
    async cleanup() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
