/**
 * In a drawdown breach nothing may add risk, including orders approved before the breach that still
 * rest at the venue (found by bench/risk-run.ts: in 4 cycles of a 10,000-cycle passive run, resting
 * buys placed at 8–9.95 % drawdown filled at 10.1 %). Through the whole actor system on a real store:
 * passive orders rest, the drawdown limit is breached, and from then on no resting order that could
 * add risk survives a cycle start, nor does any fill raise gross exposure.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { positionNotional } from '../../src/domain/portfolio.js';
import { fileURLToPath } from 'node:url';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const RANDOM = fileURLToPath(new URL('../fixtures/strategies/random-signals.ts', import.meta.url));
const LIMIT = 0.002;

describe('drawdown breach with resting orders', () => {
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('cancels the resting orders that could add risk before the market can fill them', async () => {
    // Random long/short/flat signals on five symbols, passive orders, a tight drawdown limit.
    t = await openTestTrading('sqlite', {
      STRATEGIES: RANDOM,
      SYMBOLS: 'BTCUSDT,ETHUSDT,SOLUSDT,BNBUSDT,XRPUSDT',
      ORDER_STYLE: 'passive',
      ARBITER_MAX_ORDERS: '5',
      RISK_FRACTION: '0.5',
      NO_TRADE_BAND: '0',
      RISK_MAX_DRAWDOWN: String(LIMIT),
      RISK_MAX_VOLUME_FRACTION: '1',
      RISK_MAX_DEPTH_FRACTION: '1',
    });
    const gross = async () => (await t!.system.venue.account()).positions.reduce((sum, p) => sum + Math.abs(p.qty), 0);
    let breachedCycles = 0;
    for (let i = 0; i < 60 && breachedCycles < 5; i++) {
      const before = await t.system.venue.account();
      const inBreach = before.peakNav > 0 && (before.peakNav - before.nav) / before.peakNav >= LIMIT;
      const qtyBefore = await gross();
      await t.advance(t.config.cycleMs);
      if (!inBreach) continue;
      breachedCycles += 1;
      // Nothing that adds risk rests after a cycle that began in breach, and no fill grew the book.
      const after = await t.system.venue.account();
      expect(after.openOrders.filter((o) => o.status === 'open' && !o.reduceOnly)).toEqual([]);
      expect(await gross()).toBeLessThanOrEqual(qtyBefore + 1e-12);
      expect(after.positions.every((p) => Number.isFinite(positionNotional(p)))).toBe(true);
    }
    expect(breachedCycles).toBeGreaterThan(0);
    // Cancelled at a cycle's start in breach, or at once in the cycle the risk engine began reducing.
    const reasons = new Set(t.events('orders_cancelled').map((l) => l.reason));
    expect(reasons.has('drawdown_breach') || reasons.has('risk_reducing')).toBe(true);
  });
});
