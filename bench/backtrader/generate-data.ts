/**
 * The bars of the backtrader comparison (issue 34, item 8): 3 symbols × 60,480 one-minute candles
 * (six weeks) with trends and gaps, written twice from one series: as a `tcs simulate --data`
 * directory (candles/<SYMBOL>.csv plus a manifest declaring the symbols spot, tick 0.000001, lot 0.001,
 * taker fee 0.04 %) and as plain CSV files for backtrader's GenericCSVData (ISO datetimes). Prices
 * are rounded to the tick (0.000001) so both engines read exactly the same numbers. "Gaps" are price gaps (a
 * bar opening away from the previous close), not missing bars, which the replay refuses.
 * Deterministic: the same seed gives the same files. Used by bench/backtrader-compare.bench.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] as const;
export const BARS = 60_480;
export const TAKER_FEE = 0.0004;
const START_MS = Date.UTC(2024, 0, 1);
const MINUTE = 60_000;

/** mulberry32: small, fast and deterministic (no dependency on the project's market PRNG). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Prices to 6 decimals: with a coarse tick, SMA(10) and SMA(30) are often exactly equal, and then
// the order of summation decides the comparison (backtrader sums with math.fsum, correctly rounded;
// a plain loop can land an ulp above): with 0.01 ticks that moved 2 of 5,782 fills by a bar.
const TICK = 1e-6;
const PER_UNIT = 1_000_000; // 1 / TICK; dividing by an integer gives the double nearest the decimal
const tick = (p: number) => Math.max(TICK, Math.round(p * PER_UNIT) / PER_UNIT);

interface Candle {
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** One symbol's candles: a drift that changes every few hours (trends), noise, and price gaps at the open. */
function series(seed: number, start: number): Candle[] {
  const rand = prng(seed);
  const out: Candle[] = [];
  let close = start;
  let drift = 0;
  for (let i = 0; i < BARS; i++) {
    if (i % 240 === 0) drift = (rand() - 0.5) * 0.0006; // a new trend every 4 hours
    const gap = rand() < 0.02 ? (rand() - 0.5) * 0.01 : 0; // 2 % of bars open 0–0.5 % away
    const open = tick(close * (1 + gap));
    const next = tick(open * (1 + drift + (rand() - 0.5) * 0.004));
    const high = tick(Math.max(open, next) * (1 + rand() * 0.001));
    const low = tick(Math.min(open, next) * (1 - rand() * 0.001));
    out.push({ ts: START_MS + i * MINUTE, open, high, low, close: next, volume: 1000 + Math.round(rand() * 1000) });
    close = next;
  }
  return out;
}

/** Writes `<dir>/tcs/` (a data directory) and `<dir>/bt/<SYMBOL>.csv`; returns both paths. */
export function generateBars(dir: string): { tcs: string; bt: string } {
  const tcs = join(dir, 'tcs');
  const bt = join(dir, 'bt');
  mkdirSync(join(tcs, 'candles'), { recursive: true });
  mkdirSync(bt, { recursive: true });
  const instruments: Record<string, unknown> = {};
  SYMBOLS.forEach((symbol, k) => {
    const candles = series(1000 + k, [100, 50, 20][k]!);
    const rows = candles.map((c) => `${c.ts},${c.open},${c.high},${c.low},${c.close},${c.volume}`);
    writeFileSync(join(tcs, 'candles', `${symbol}.csv`), `timestamp,open,high,low,close,volume\n${rows.join('\n')}\n`);
    const btRows = candles.map(
      (c) =>
        `${new Date(c.ts).toISOString().slice(0, 19).replace('T', ' ')},${c.open},${c.high},${c.low},${c.close},${c.volume}`,
    );
    writeFileSync(join(bt, `${symbol}.csv`), `datetime,open,high,low,close,volume\n${btRows.join('\n')}\n`);
    instruments[symbol] = {
      kind: 'spot',
      lotSize: 0.001,
      tickSize: TICK,
      minNotional: 5,
      makerFee: TAKER_FEE,
      takerFee: TAKER_FEE,
    };
  });
  const manifest = { format: 1, exchange: 'synthetic', timeframe: '1m', instruments };
  writeFileSync(join(tcs, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { tcs, bt };
}
