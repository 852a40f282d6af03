/**
 * Statistics of the synthetic market over fixed seeds (issue 9): by default nothing in past prices
 * predicts the next hour (hourly return autocorrelation near zero, "trade the sign of the last
 * hour" right about half the time), symbols move together with the configured correlation, and
 * funding persists for days. The demo trend, when asked for, does make returns trend. Bounds are a
 * few standard errors wide, and the old generator (autocorrelation 0.10–0.21, sign right 56–60 %,
 * correlation 0.03, funding half-life 35 min) fails each of the first four.
 */
import { describe, expect, it } from 'vitest';
import { createSyntheticFeed } from '../../../src/adapters/market-data/index.js';
import type { SyntheticFeedOptions } from '../../../src/adapters/market-data/synthetic-feed.js';
import { parseInstruments } from '../../../src/domain/instruments.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = Date.UTC(2024, 0, 1);

/** Last prices (or funding rates) per symbol, one per step. */
async function series(
  options: Omit<SyntheticFeedOptions, 'instruments'> & { symbols: string },
  steps: number,
  field: 'last' | 'fundingRate' = 'last',
): Promise<Record<string, number[]>> {
  const { symbols, ...rest } = options;
  const feed = createSyntheticFeed({ ...rest, instruments: parseInstruments(symbols) });
  const out: Record<string, number[]> = {};
  for (const i of feed.instruments) out[i.symbol] = [];
  const stepMs = options.stepMs ?? MINUTE;
  for (let t = 0; t < steps; t++) {
    for (const [symbol, s] of await feed.next(START + t * stepMs)) out[symbol]?.push(s[field] ?? 0);
  }
  return out;
}

function logReturns(prices: readonly number[], every = 1): number[] {
  const out: number[] = [];
  for (let i = every; i < prices.length; i += every) out.push(Math.log(at(prices, i) / at(prices, i - every)));
  return out;
}

function at(xs: readonly number[], i: number): number {
  const x = xs[i];
  if (x === undefined) throw new Error(`no element ${i}`);
  return x;
}

function correlation(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += at(a, i);
    mb += at(b, i);
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = at(a, i) - ma;
    const db = at(b, i) - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return sab / Math.sqrt(saa * sbb);
}

const autocorrelation = (xs: readonly number[], lag: number) => correlation(xs.slice(0, -lag), xs.slice(lag));

/** How often the sign of one hour's return is the sign of the next (zero returns skipped). */
function signHitRate(returns: readonly number[]): number {
  let hits = 0;
  let total = 0;
  for (let i = 1; i < returns.length; i++) {
    const prev = Math.sign(at(returns, i - 1));
    const next = Math.sign(at(returns, i));
    if (prev === 0 || next === 0) continue;
    total += 1;
    if (prev === next) hits += 1;
  }
  return hits / total;
}

describe('synthetic market statistics (fixed seeds)', () => {
  // 100 000 minutes ≈ 69 days ≈ 1 666 hours: one standard error of an autocorrelation is ≈ 0.025,
  // of a hit rate ≈ 0.012, of a correlation of 0.8 over minutes ≈ 0.001.
  const minutes = series({ symbols: 'BTCUSDT,ETHUSDT,SOLUSDT', seed: 7 }, 100_000);

  it('has no exploitable autocorrelation by default: hourly returns do not predict the next hour', async () => {
    const prices = await minutes;
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT']) {
      const hourly = logReturns(prices[symbol] ?? [], 60);
      expect(hourly.length).toBeGreaterThan(1_600);
      expect(Math.abs(autocorrelation(hourly, 1)), `${symbol} lag-1 autocorrelation`).toBeLessThan(0.06);
      expect(Math.abs(autocorrelation(hourly, 2)), `${symbol} lag-2 autocorrelation`).toBeLessThan(0.06);
      expect(Math.abs(signHitRate(hourly) - 0.5), `${symbol} sign of last hour`).toBeLessThan(0.03);
      // Minute returns too: the book's tick rounding may add a little bounce, never momentum.
      expect(autocorrelation(logReturns(prices[symbol] ?? []), 1), `${symbol} minute autocorrelation`).toBeLessThan(
        0.03,
      );
    }
  });

  it('moves majors together with the default correlation of 0.8', async () => {
    const prices = await minutes;
    const btc = logReturns(prices.BTCUSDT ?? []);
    expect(correlation(btc, logReturns(prices.ETHUSDT ?? []))).toBeGreaterThan(0.75);
    expect(correlation(btc, logReturns(prices.ETHUSDT ?? []))).toBeLessThan(0.85);
    expect(Math.abs(correlation(btc, logReturns(prices.SOLUSDT ?? [])) - 0.8)).toBeLessThan(0.05);
    // Hourly, the horizon strategies trade on, the figure holds as well.
    expect(
      Math.abs(correlation(logReturns(prices.BTCUSDT ?? [], 60), logReturns(prices.ETHUSDT ?? [], 60)) - 0.8),
    ).toBeLessThan(0.06);
  });

  it('reaches a configured correlation, and none when asked for none', async () => {
    for (const target of [0.5, 0]) {
      const prices = await series({ symbols: 'BTCUSDT,XRPUSDT', seed: 11, correlation: target }, 30_000);
      const measured = correlation(logReturns(prices.BTCUSDT ?? []), logReturns(prices.XRPUSDT ?? []));
      expect(Math.abs(measured - target), `correlation ${target} measured ${measured}`).toBeLessThan(0.05);
    }
  });

  it('keeps funding for days: its autocorrelation halves after 1 to 6 days (default half-life 3 days)', async () => {
    // One step an hour for 20 000 hours (≈ 830 days), so the estimate rests on hundreds of half-lives.
    const funding = (await series({ symbols: 'BTCUSDT', seed: 5, stepMs: HOUR }, 20_000, 'fundingRate')).BTCUSDT ?? [];
    let halfLifeHours = 0;
    while (halfLifeHours < 24 * 30 && autocorrelation(funding, halfLifeHours + 1) >= 0.5) halfLifeHours += 1;
    halfLifeHours += 1;
    expect(halfLifeHours / 24).toBeGreaterThan(1);
    expect(halfLifeHours / 24).toBeLessThan(6);
    // Still leaves ±0.05 % per interval now and then, what the funding-contrarian strategy waits for.
    const extreme = funding.filter((rate) => Math.abs(rate) > 0.0005).length / funding.length;
    expect(extreme).toBeGreaterThan(0.002);
    expect(extreme).toBeLessThan(0.15);
  });

  it('has no funding carry: a permanent short earns nothing on average (under ±1 % of notional a year)', async () => {
    // One step per 8 h funding interval (the rate each settlement pays) for 20 000 intervals (≈ 18
    // years) on three seeds: the mean rate × 3 × 365 is what a position held all year receives
    // (short) or pays (long) while the price has no drift. Seeds alone spread it by about ±1 % a
    // year (these three: −0.4 %); the +0.01 % baseline made it +9.9 %, and leaning on the log
    // return (mean −σ²/2) instead of the move without it −1.1 %.
    let sum = 0;
    let count = 0;
    for (const seed of [5, 6, 7]) {
      const funding = (await series({ symbols: 'BTCUSDT', seed, stepMs: 8 * HOUR }, 20_000, 'fundingRate')).BTCUSDT;
      for (const rate of funding ?? []) sum += rate;
      count += funding?.length ?? 0;
    }
    const carryPerYear = (sum / count) * 3 * 365;
    expect(Math.abs(carryPerYear), `carry ${carryPerYear}`).toBeLessThan(0.01);
  });

  it('makes returns trend when the demo trend is switched on', async () => {
    const prices = await series({ symbols: 'BTCUSDT', seed: 7, trend: 1 }, 50_000);
    const hourly = logReturns(prices.BTCUSDT ?? [], 60);
    expect(autocorrelation(hourly, 1)).toBeGreaterThan(0.08);
    expect(signHitRate(hourly)).toBeGreaterThan(0.54);
  });
});
