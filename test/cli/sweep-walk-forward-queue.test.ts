/**
 * A walk-forward through BullMQ gives the walk-forward of the local pool: the out-of-sample runs'
 * equity travels back in each trial's result (a queued trial's run directory is on its worker, not
 * here), so walk_forward/equity.csv is byte for byte the same and results.json reports the same
 * folds, stitched return and WFE. Real Redis, two real `tcs sweep-worker` processes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { deletePrefix, requireRedis, TEST_REDIS_URL } from '../support/redis.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-wfq-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const SAMPLE = fileURLToPath(new URL('../../data/sample', import.meta.url));

describe('tcs sweep: walk-forward through the queue', () => {
  const prefix = `tcs-wf-test-${randomBytes(4).toString('hex')}`;
  const workers: RunningProcess[] = [];
  const codes: (number | null)[] = [];

  beforeAll(async () => {
    await requireRedis();
    const spec = join(root, 'wf.json');
    writeFileSync(
      spec,
      JSON.stringify({
        params: { RISK_FRACTION: [0.05, 0.2] },
        env: { SYMBOLS: 'BTCUSDT,ETHUSDT' },
        data: { dir: SAMPLE, from: '2024-01-01T18:00:00Z', to: '2024-01-01T23:00:00Z' },
        objective: 'total_return',
        walk_forward: { mode: 'anchored', folds: 2, in_sample: '3h', out_of_sample: '1h' },
      }),
    );
    const local = startTcs(['sweep', spec, '--out', join(root, 'local'), '--workers', '2', '--quiet'], {}, root);
    codes.push((await exitWithin(local, 60_000)).code);
    for (let i = 0; i < 2; i++)
      workers.push(startTcs(['sweep-worker', '--queue', TEST_REDIS_URL, '--prefix', prefix], {}, root));
    await Promise.all(workers.map((w) => w.waitFor(/ready: queue/)));
    const queued = startTcs(
      ['sweep', spec, '--out', join(root, 'queued'), '--queue', TEST_REDIS_URL, '--prefix', prefix, '--quiet'],
      {},
      root,
    );
    codes.push((await exitWithin(queued, 60_000)).code);
  }, 150_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGKILL')));
    await deletePrefix(`${prefix}:`);
  });

  it('stitches the same equity and reports the same walk-forward', () => {
    expect(codes).toEqual([0, 0]);
    const equity = (dir: string) => readFileSync(join(root, dir, 'walk_forward', 'equity.csv'), 'utf8');
    expect(equity('queued')).toBe(equity('local'));
    expect(equity('local').trimEnd().split('\n')).toHaveLength(1 + 2 * 60);
    const report = (dir: string) => {
      const json = JSON.parse(readFileSync(join(root, dir, 'results.json'), 'utf8')).walk_forward;
      delete json.equity_csv;
      return json;
    };
    expect(report('queued')).toEqual(report('local'));
    expect(report('local').mode).toBe('anchored');
  });
});
