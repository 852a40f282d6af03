/**
 * The bars of the backtrader comparison: a data directory the replay loads (every minute present,
 * spot, the bench's fee) and the same numbers in backtrader's CSV, with price gaps between bars.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BARS, SYMBOLS, generateBars } from '../../../bench/backtrader/generate-data.js';
import { loadDataDir } from '../../../src/adapters/market-data/file/data-dir.js';
import { readManifestInstruments } from '../../../src/adapters/market-data/file/manifest.js';

const dir = mkdtempSync(join(tmpdir(), 'tcs-btdata-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const paths = generateBars(dir);

describe('generateBars', () => {
  it('writes a data directory the replay loads: 3 spot symbols × 60,480 one-minute candles, fee 0.04 %', async () => {
    const data = await loadDataDir(paths.tcs);
    expect(data.symbols.map((s) => s.symbol).sort()).toEqual([...SYMBOLS].sort());
    expect(data.stepMs).toBe(60_000);
    for (const s of data.symbols) expect(s.candles.count).toBe(BARS);
    for (const i of await readManifestInstruments(paths.tcs)) expect(i.kind).toBe('spot');
    for (const symbol of SYMBOLS) expect(data.manifest?.fees[symbol]).toMatchObject({ takerFee: 0.0004 });
  });

  it('gives backtrader the same numbers, and bars that open away from the previous close', () => {
    for (const symbol of SYMBOLS) {
      const tcs = readFileSync(join(paths.tcs, 'candles', `${symbol}.csv`), 'utf8')
        .trim()
        .split('\n')
        .slice(1);
      const bt = readFileSync(join(paths.bt, `${symbol}.csv`), 'utf8')
        .trim()
        .split('\n')
        .slice(1);
      expect(bt.length).toBe(BARS);
      let gaps = 0;
      tcs.forEach((row, i) => {
        const [ts, ...prices] = row.split(',');
        const [when, ...btPrices] = bt[i]!.split(',');
        expect(`${when!.replace(' ', 'T')}.000Z`).toBe(new Date(Number(ts)).toISOString());
        expect(btPrices).toEqual(prices);
        if (i > 0 && prices[0] !== tcs[i - 1]!.split(',')[4]) gaps++;
      });
      expect(gaps).toBeGreaterThan(BARS / 100);
    }
  });
});
