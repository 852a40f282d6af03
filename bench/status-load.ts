/**
 * Background load for a benchmark: autocannon with N connections of authenticated GET
 * /control/status against a running API, from a child process (a benchmark file run with
 * TCS_BENCH_ROLE=status-load), so neither the load generator's event loop nor its GC share the API's
 * process, as with a real client. It runs until told to stop, then reports what it achieved, so the
 * figures measured under it can say how much load there really was.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Instance, Result } from 'autocannon';
import { REPO_ROOT, sendToParent, withDeadline } from './support.js';

export interface LoadFigures {
  connections: number;
  seconds: number;
  reqPerSec: number;
  /** autocannon's histogram: whole milliseconds. */
  latency: { p50: number; p99: number; max: number };
  responses: number;
  non2xx: number;
  errors: number;
}

type FromLoad = { type: 'loading' } | { type: 'result'; figures: LoadFigures } | { type: 'error'; message: string };

export interface RunningLoad {
  /** Stops the load and returns what it achieved. */
  stop(): Promise<LoadFigures>;
}

/** Responses seen before the load counts as started (connections open, the API answering). */
const STARTED_AFTER = 200;

/**
 * Forks `benchFile` (which must call runStatusLoadChild() when TCS_BENCH_ROLE is status-load) and
 * resolves once the load is on.
 */
export async function startStatusLoad(
  benchFile: string,
  target: { url: string; authorization: string; connections: number },
): Promise<RunningLoad> {
  const child = fork(join(REPO_ROOT, 'bin/run-ts.mjs'), [benchFile], {
    execArgv: [],
    env: {
      ...process.env,
      TCS_BENCH_ROLE: 'status-load',
      LOAD_URL: target.url,
      LOAD_AUTHORIZATION: target.authorization,
      LOAD_CONNECTIONS: String(target.connections),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends FromLoad['type']>(type: T) =>
    new Promise<Extract<FromLoad, { type: T }>>((resolve, reject) => {
      const onMessage = (m: FromLoad) => {
        if (m.type === 'error') reject(new Error(`status-load child: ${m.message}`));
        else if (m.type === type) resolve(m as Extract<FromLoad, { type: T }>);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`the status-load child exited (${code})`)));
    });
  try {
    await withDeadline(next('loading'), 30_000, 'status load start');
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    async stop() {
      const result = next('result');
      child.send({ type: 'stop' });
      try {
        return (await withDeadline(result, 30_000, 'status load stop')).figures;
      } finally {
        child.kill('SIGKILL');
      }
    },
  };
}

/** The child's entry. */
export function runStatusLoadChild(): void {
  process.on('disconnect', () => process.exit(0));
  const fail = async (err: unknown) => {
    await sendToParent({ type: 'error', message: String((err as Error).stack ?? err) } satisfies FromLoad);
    process.exit(1);
  };
  try {
    const connections = Number(process.env.LOAD_CONNECTIONS);
    const started = Date.now();
    const instance: Instance = autocannon({
      url: process.env.LOAD_URL ?? '',
      connections,
      duration: 3_600,
      headers: { authorization: process.env.LOAD_AUTHORIZATION ?? '' },
    });
    let responses = 0;
    instance.on('response', () => {
      if (++responses === STARTED_AFTER) void sendToParent({ type: 'loading' } satisfies FromLoad);
    });
    process.on('message', (message: { type: string }) => {
      if (message.type !== 'stop') return;
      instance.stop();
    });
    instance.then((result: Result) => {
      const figures: LoadFigures = {
        connections,
        seconds: (Date.now() - started) / 1000,
        reqPerSec: result.requests.average,
        latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
        responses: result['2xx'] + result.non2xx,
        non2xx: result.non2xx,
        errors: result.errors,
      };
      void sendToParent({ type: 'result', figures } satisfies FromLoad).then(() => process.exit(0));
    }, fail);
  } catch (err) {
    void fail(err);
  }
}
