/**
 * A queued sweep's results belong to the data they were computed on. Trials finished while nobody
 * read them (the sweep was killed after queueing) stay in Redis, and the same spec run again picks
 * them up: that is the point of keeping them, but only while the data are the same. Here the replay's
 * candles change between the two runs (same path, same spec), and the second run must give what a
 * sweep of the new data gives, not the old figures (found in issue 22's review: the job's identity
 * named the data directory's path, not what is in it).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { deletePrefix, requireRedis, TEST_REDIS_URL } from '../support/redis.js';

const STRATEGY = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

const root = mkdtempSync(join(tmpdir(), 'tcs-sweep-stale-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** BTCUSDT spot candles, one a minute, drifting by `step` a minute from 100. */
function writeCandles(dir: string, step: number): void {
  mkdirSync(join(dir, 'candles'), { recursive: true });
  const rows = Array.from({ length: 60 }, (_, i) => {
    const close = 100 + step * (i + 1);
    return [T0 + i * MIN, close - step, close + 0.5, close - 0.5, close, 100_000].join(',');
  });
  writeFileSync(join(dir, 'candles', 'BTCUSDT.csv'), ['timestamp,open,high,low,close,volume', ...rows, ''].join('\n'));
}

const csv = (dir: string) => readFileSync(join(dir, 'results.csv'), 'utf8');

async function sweep(args: string[]) {
  const proc = startTcs(['sweep', ...args, '--quiet'], {}, root);
  const { code } = await exitWithin(proc, 90_000);
  expect(proc.stderr()).toBe('');
  expect(code).toBe(0);
}

describe('tcs sweep --queue: results kept in the queue are not reused after the data changed', () => {
  const prefix = `tcs-sweep-stale-${randomBytes(4).toString('hex')}`;
  const data = join(root, 'data');
  const spec = join(root, 'spec.json');
  let worker: RunningProcess | undefined;

  beforeAll(async () => {
    await requireRedis();
    writeCandles(data, 0.1);
    writeFileSync(
      spec,
      JSON.stringify({
        params: { RISK_FRACTION: [0.2] },
        env: { SYMBOLS: 'BTCUSDT:spot', STRATEGIES: STRATEGY },
        data: { dir: data },
        objective: 'total_return',
      }),
    );
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await deletePrefix(`${prefix}:`);
  });

  it('runs the trial again on the new data', async () => {
    // A sweep that queued its trial and was killed before a worker came: the job stays queued.
    const first = startTcs(
      ['sweep', spec, '--out', join(root, 'killed'), '--queue', TEST_REDIS_URL, '--prefix', prefix],
      {},
      root,
    );
    await first.waitFor(/no tcs sweep-worker is connected/, 30_000);
    await first.stop('SIGKILL');
    // A worker comes and runs it on the data as they were; nobody reads the result.
    worker = startTcs(['sweep-worker', '--queue', TEST_REDIS_URL, '--prefix', prefix], {}, root);
    await worker.waitFor(/trial p1 done/, 60_000);

    // The data change under the same path; the same spec is run again on the same queue.
    writeCandles(data, -0.1);
    await sweep([spec, '--out', join(root, 'again'), '--queue', TEST_REDIS_URL, '--prefix', prefix]);
    await sweep([spec, '--out', join(root, 'fresh'), '--workers', '1']);
    expect(csv(join(root, 'again'))).toBe(csv(join(root, 'fresh')));
  }, 120_000);
});

describe('tcs sweep --queue: a worker with other inputs than the sweep', () => {
  const prefix = `tcs-sweep-other-${randomBytes(4).toString('hex')}`;
  let worker: RunningProcess | undefined;
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await deletePrefix(`${prefix}:`);
  });

  it('refuses the trial, and the sweep fails naming it, rather than answer for a strategy it does not have', async () => {
    await requireRedis();
    // The same relative STRATEGIES path names different modules where the sweep and the worker run.
    const here = join(root, 'sweep-machine');
    const there = join(root, 'worker-machine');
    const strategy = (confidence: number) =>
      `export default { name: 'btc_long', analyse: (s) => s.symbol === 'BTCUSDT' ? { agent: 'btc_long', symbol: s.symbol, direction: 1, confidence: ${confidence} } : null };\n`;
    for (const [dir, confidence] of [
      [here, 1],
      [there, 0.5],
    ] as const) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'btc-long.mjs'), strategy(confidence));
    }
    writeCandles(join(root, 'data-other'), 0.1);
    const spec = join(here, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        params: { RISK_FRACTION: [0.2] },
        env: { SYMBOLS: 'BTCUSDT:spot', STRATEGIES: './btc-long.mjs' },
        data: { dir: join(root, 'data-other') },
        objective: 'total_return',
      }),
    );
    worker = startTcs(['sweep-worker', '--queue', TEST_REDIS_URL, '--prefix', prefix], {}, there);
    await worker.waitFor(/ready: queue/, 30_000);
    const run = startTcs(
      ['sweep', spec, '--out', join(here, 'out'), '--queue', TEST_REDIS_URL, '--prefix', prefix, '--quiet'],
      {},
      here,
    );
    const { code } = await exitWithin(run, 60_000);
    expect(code).toBe(1);
    expect(run.stderr()).toMatch(/trial p1 failed on its worker: the inputs on \S+ differ from the sweep's/);
  }, 90_000);
});
