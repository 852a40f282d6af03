/**
 * Generated walk-forward folds are held against the replay itself before any trial runs: folds that
 * run past the data's last candle are a ConfigError (exit 2) naming walk_forward.folds, rather than
 * a trial failing after every in-sample run has been paid for.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/config.js';
import { parseSweepSpec } from '../../src/runtime/sweep/sweep-spec.js';
import { assertFoldsInData } from '../../src/runtime/sweep/walk-forward-data.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-wf-data-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T0 = Date.parse('2024-01-01T00:00:00Z');

// 10 hours of one-minute candles: 00:00 … 09:59 open times, the last closing at 10:00.
mkdirSync(join(root, 'candles'));
const rows = Array.from({ length: 600 }, (_, i) => `${T0 + i * 60_000},100,101,99,100,1`);
writeFileSync(join(root, 'candles', 'BTCUSDT.csv'), `timestamp,open,high,low,close,volume\n${rows.join('\n')}\n`);

const spec = (folds: number) =>
  parseSweepSpec({
    params: { RISK_FRACTION: [0.05] },
    env: { SYMBOLS: 'BTCUSDT' },
    data: { dir: root, from: '2024-01-01T02:00:00Z' },
    walk_forward: { mode: 'rolling', folds, in_sample: '4h', out_of_sample: '2h' },
  });

describe('walk-forward folds against the replay', () => {
  it('accepts folds that end with the last candle', async () => {
    // 02:00 + 4 h + 2 × 2 h = 10:00.
    await expect(assertFoldsInData(spec(2))).resolves.toBeUndefined();
  });

  it('refuses folds that run past it, naming the field and both times', async () => {
    const err = await assertFoldsInData(spec(3)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(
      /walk_forward\.folds run past the data: the last out-of-sample window ends at 2024-01-01T12:00:00\.000Z, after the last candle of .* closes at 2024-01-01T10:00:00\.000Z/,
    );
  });
});
