/**
 * A system that publishes nothing (`publishing: false`, `tcs simulate`) keeps no per-cycle metrics:
 * nobody scrapes them, and counting every cycle's outcome, signals and market ages was a few per cent
 * of a simulated cycle (issue 34, item 8). A publishing system counts them (the control case).
 */
import { describe, expect, it } from 'vitest';
import { openTestTrading } from '../support/trading.js';

const CYCLE_MS = 60_000;

async function countsAfterCycles(publishing: boolean) {
  const t = await openTestTrading('sqlite', {}, undefined, { publishing });
  try {
    for (let i = 0; i < 3; i++) await t.advance(CYCLE_MS);
    const value = async (name: string) =>
      (await t.system.metrics.registry.getSingleMetric(name)?.get())?.values.reduce((sum, v) => sum + v.value, 0) ?? 0;
    return {
      cycles: await value('tcs_trading_cycles_total'),
      signals: await value('tcs_trading_signals_total'),
      ages:
        (await t.system.metrics.registry.getSingleMetric('tcs_trading_market_data_age_seconds')?.get())?.values
          .length ?? 0,
    };
  } finally {
    await t.close();
  }
}

describe('per-cycle metrics', () => {
  it('are counted by a publishing system', async () => {
    const counts = await countsAfterCycles(true);
    expect(counts.cycles).toBeGreaterThanOrEqual(3);
    expect(counts.signals).toBeGreaterThan(0);
    expect(counts.ages).toBeGreaterThan(0);
  });

  it('are not kept by a system that publishes nothing (tcs simulate)', async () => {
    const counts = await countsAfterCycles(false);
    expect(counts).toEqual({ cycles: 0, signals: 0, ages: 0 });
  });
});
