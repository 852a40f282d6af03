/**
 * The three checks on a recorded synthetic tape, in process: an agent that reads the tape's next
 * bar is look-ahead (first bar: the first sampled cut), one whose answers depend on a counter its
 * module shares between agents is non-deterministic, a stateless moving-average rule passes all three.
 */
import { describe, expect, it } from 'vitest';
import { createSyntheticFeed } from '../../../src/adapters/market-data/index.js';
import { parseInstruments } from '../../../src/domain/instruments.js';
import type { StrategyAgent } from '../../../src/domain/strategy-agent.js';
import { checkTape, runStrategyCheck } from '../../../src/runtime/strategy-check/run-check.js';
import { fileURLToPath } from 'node:url';
import { recordTape } from '../../../src/runtime/strategy-check/tape.js';
import type { Tape } from '../../../src/runtime/strategy-check/tape.js';
import { observeTrackers } from '../../../src/strategies/indicators/observer.js';
import { ta, trackIndicators } from '../../../src/strategies/public.js';
import emaShortLookback from '../../fixtures/strategies/ema-short-lookback.js';
import emaTracked from '../../fixtures/strategies/ema-tracked.js';

const STEP = 60_000;
const START = Date.UTC(2026, 0, 1);
const OPTIONS = { short: 60, long: 120, nav: 100_000, samples: 8, seed: 1, tolerance: 1e-4 };

async function tape(historyLength = 120): Promise<Tape> {
  const feed = createSyntheticFeed({
    instruments: parseInstruments('BTCUSDT'),
    seed: 3,
    historyLength,
    epoch: START,
  });
  return recordTape(feed, START + STEP, STEP, 200);
}

/** The open time of the last bar BTCUSDT's snapshot held at `cycle` (the bar just closed). */
function barAt(t: Tape, cycle: number): number {
  const s = t.symbols.get('BTCUSDT')!;
  return s.columns.time[s.quotes[cycle]!.end]!;
}

const verdicts = (r: Awaited<ReturnType<typeof checkTape>>) =>
  Object.fromEntries(r.findings.map((f) => [f.check, f.verdict]));

/** Long above the mean of the last 20 closes, short below: a function of the window only. */
const meanRule = (name: string, extra?: (last: number, ts: number) => number | null): StrategyAgent => ({
  name,
  lookback: 20,
  analyse(s) {
    const c = s.candles.close;
    let sum = 0;
    for (let i = c.length - 20; i < c.length; i++) sum += c[i]!;
    const mean = sum / 20;
    const tilt = extra?.(s.last, s.ts) ?? 0;
    const direction = s.last + tilt > mean ? 1 : -1;
    return {
      agent: name,
      symbol: s.symbol,
      direction,
      confidence: Math.min(1, (Math.abs(s.last - mean) / mean) * 100),
    };
  },
});

describe('checkTape', () => {
  it('passes a rule that reads only the window it is handed', async () => {
    const t = await tape();
    const r = await checkTape(t, () => Promise.resolve(meanRule('mean')), OPTIONS);
    expect(verdicts(r)).toEqual({ determinism: 'ok', 'look-ahead': 'ok', recursion: 'ok', indicators: 'n/a' });
  });

  it('flags an agent that reads the next bar of the column its candles were copied from, at the first sampled cut', async () => {
    // The fixture patches Float64Array.prototype.set when imported; the fork runs other files after this one.
    const { default: peeksNextBar, unpatch } = await import('../../fixtures/strategies/peeks-next-bar.js');
    let r;
    try {
      r = await checkTape(await tape(), () => Promise.resolve(peeksNextBar()), OPTIONS);
    } finally {
      unpatch();
    }
    expect(Object.hasOwn(Float64Array.prototype, 'set')).toBe(false);
    expect(verdicts(r)).toEqual({ determinism: 'ok', 'look-ahead': 'bias', recursion: 'ok', indicators: 'n/a' });
    const first = r.findings.find((f) => f.check === 'look-ahead')!.first!;
    expect(first.cycle).toBe(r.samples[0]);
    expect(first.a).toMatchObject({ kind: 'signal', confidence: 1 });
    expect(first.b).toEqual({ kind: 'none' });
    expect(first.other).toBe(`data cut after cycle ${r.samples[0]}`);
  });

  it('flags answers that change between two identical runs as non-deterministic', async () => {
    const t = await tape();
    let calls = 0; // shared by every agent: the module-level state of a strategy file
    const r = await checkTape(t, () => Promise.resolve(meanRule('counter', () => (++calls > 200 ? 1e9 : 0))), OPTIONS);
    expect(verdicts(r).determinism).toBe('bias');
    const first = r.findings.find((f) => f.check === 'determinism')!.first!;
    // The second run's counter is past 200: every answer long; the first short bar of the first run differs.
    expect(first.a).toMatchObject({ direction: -1 });
    expect(first.b).toMatchObject({ direction: 1 });
    expect(first.other).toBe('the full run again');
  });
});

describe('checkTape on the indicators a strategy declared through trackIndicators', () => {
  it('flags an EMA that depends on how much history it was given, although the signals agree', async () => {
    const t = await tape();
    const r = await checkTape(t, () => Promise.resolve(emaShortLookback()), OPTIONS);
    expect(verdicts(r)).toEqual({ determinism: 'ok', 'look-ahead': 'ok', recursion: 'ok', indicators: 'bias' });
    const f = r.findings.find((x) => x.check === 'indicators')!;
    const first = f.indicator!;
    expect(first).toMatchObject({ symbol: 'BTCUSDT', indicator: 'slow', label: 'ema(50)' });
    expect(r.samples).toContain(first.cycle);
    // The bar the reading belongs to: the cycle's last closed bar.
    expect(first.barTime).toBe(barAt(t, first.cycle));
    expect(Math.abs(first.a - first.b)).toBeGreaterThan(0);
    expect(first.other).toMatch(/fresh agent started at this bar with \d+ bars of history/);
    expect(f.readings).toBeGreaterThan(100);
  });

  it('passes the same EMA kept with the lookback the tracker asks for, having compared its readings', async () => {
    // Its lookback (about 160 bars: the EMA's seed fades below SEED_WEIGHT) is the window, as a run gives it.
    const window = emaTracked().lookback!;
    const options = { ...OPTIONS, short: window, long: 2 * window };
    const r = await checkTape(await tape(2 * window), () => Promise.resolve(emaTracked()), options);
    expect(verdicts(r)).toEqual({ determinism: 'ok', 'look-ahead': 'ok', recursion: 'ok', indicators: 'ok' });
    expect(r.findings.find((x) => x.check === 'indicators')!.readings).toBeGreaterThan(100);
  });

  it('restores the observer it found: the trackers of its runs are its own, later ones the outer observer sees', async () => {
    const seen: string[] = [];
    const stop = observeTrackers((view) => seen.push(Object.values(view.labels).join()));
    try {
      await checkTape(await tape(), () => Promise.resolve(emaShortLookback()), { ...OPTIONS, samples: 1 });
      trackIndicators({ e: ta.ema(3) });
    } finally {
      stop();
    }
    trackIndicators({ e: ta.ema(4) });
    expect(seen).toEqual(['ema(3)']);
  });
});

describe('runStrategyCheck on the synthetic market', () => {
  it('opens it as tcs simulate does (--cycles, --seed) and finds the EMA seeded from its first bar', async () => {
    const entry = fileURLToPath(new URL('../../fixtures/strategies/ema-from-first-bar.ts', import.meta.url));
    const result = await runStrategyCheck(
      {},
      {
        entries: [entry],
        data: null,
        cycles: 150,
        seed: 3,
        from: null,
        to: null,
        symbols: 'BTCUSDT',
        samples: 5,
        sampleSeed: 1,
        tolerance: 1e-4,
        json: false,
      },
    );
    expect(result.bias).toBe(true);
    const [report] = result.strategies;
    expect(report!.market).toMatch(/^synthetic, seed 3/);
    expect(report!.cycles).toBe(150);
    expect(Object.fromEntries(report!.findings.map((f) => [f.check, f.verdict]))).toEqual({
      determinism: 'ok',
      'look-ahead': 'ok',
      recursion: 'bias',
      indicators: 'n/a',
    });
  });
});
