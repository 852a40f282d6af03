/**
 * The tape a strategy check replays (recorded from the real synthetic feed): a cycle's view is the
 * window the feed handed out; a tape cut at a cycle holds no later bar anywhere (the look-ahead check
 * rests on it); and the sampled cycles are distinct, in range, sorted and repeatable.
 */
import { describe, expect, it } from 'vitest';
import { createSyntheticFeed } from '../../../src/adapters/market-data/index.js';
import { parseInstruments } from '../../../src/domain/instruments.js';
import { cycleView, recordTape, truncate } from '../../../src/runtime/strategy-check/tape.js';
import { sampleCycles } from '../../../src/runtime/strategy-check/run-check.js';

const STEP = 60_000;
const START = Date.UTC(2026, 0, 1);

async function recorded(cycles: number) {
  const instruments = parseInstruments('BTCUSDT,ETHUSDT');
  const seen: { symbol: string; close: number[]; time: number[] }[] = [];
  const feed = createSyntheticFeed({ instruments, seed: 7, historyLength: 50, epoch: START });
  const watching = {
    instruments: feed.instruments,
    async next(now: number) {
      const view = await feed.next(now);
      for (const [symbol, s] of view)
        seen.push({ symbol, close: Array.from(s.bars.close), time: Array.from(s.bars.time) });
      return view;
    },
  };
  const tape = await recordTape(watching, START + STEP, STEP, cycles);
  return { tape, seen };
}

describe('the tape of a strategy check', () => {
  it('gives every cycle the window the feed handed out', async () => {
    const { tape, seen } = await recorded(30);
    expect(tape.cycles).toBe(30);
    for (let cycle = 0; cycle < 30; cycle++)
      for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
        const fed = seen.find((s, i) => s.symbol === symbol && Math.floor(i / 2) === cycle)!;
        const bars = cycleView(tape, cycle, 50).get(symbol)!.bars;
        expect(Array.from(bars.close)).toEqual(fed.close);
        expect(Array.from(bars.time)).toEqual(fed.time);
      }
    expect(cycleView(tape, 29, 10).get('BTCUSDT')!.bars.length).toBe(10);
  });

  it('cut at a cycle, holds no later bar in any column, and the same windows up to the cut', async () => {
    const { tape } = await recorded(30);
    const cut = truncate(tape, 12);
    expect(cut.cycles).toBe(13);
    for (const [symbol, t] of cut.symbols) {
      const lastTime = cycleView(tape, 12, 50).get(symbol)!.bars.time.at(-1)!;
      expect(t.columns.time.at(-1)).toBe(lastTime);
      expect(new Float64Array(t.columns.close.buffer).length).toBe(t.columns.length);
      for (let c = 0; c <= 12; c++)
        expect(Array.from(cycleView(cut, c, 50).get(symbol)!.bars.close)).toEqual(
          Array.from(cycleView(tape, c, 50).get(symbol)!.bars.close),
        );
    }
  });
});

describe('sampleCycles', () => {
  it('picks distinct cycles before the last, sorted, the same for the same seed', () => {
    const a = sampleCycles(1000, 20, 1);
    expect(a).toHaveLength(20);
    expect(new Set(a).size).toBe(20);
    expect(a).toEqual([...a].sort((x, y) => x - y));
    expect(Math.min(...a)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...a)).toBeLessThanOrEqual(998);
    expect(sampleCycles(1000, 20, 1)).toEqual(a);
    expect(sampleCycles(1000, 20, 2)).not.toEqual(a);
  });

  it('takes every cycle but the last when there are no more than asked', () => {
    expect(sampleCycles(5, 20, 1)).toEqual([0, 1, 2, 3]);
    expect(sampleCycles(1, 20, 1)).toEqual([]);
  });
});
