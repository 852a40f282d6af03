// Issue 19's findings on the allocator, each failing on the code before it: a fresh entry at the
// least confidence the built-ins enter with (0.25) sat exactly on the 0.25 no-trade band and was
// skipped by `<=` on floating-point noise; a flip bypassed the band (a long of 0.05 of the budget was
// closed and a short of 0.1 opened, two fees for a change the band calls too small); and with one
// order per cycle, a signal that changed nothing took the budget and another symbol's signal, that
// would have traded, was dropped.
import { describe, expect, it } from 'vitest';
import { allocate } from '../../src/domain/allocation.js';
import type { AllocationSettings } from '../../src/domain/allocation.js';
import { arbitrate } from '../../src/domain/arbitration.js';
import type { Signal } from '../../src/domain/signal.js';
import { BTC, ETH, SOL, account, marketView, snapshot } from '../machines/support.js';
import { position } from './risk/builders.js';

const settings: AllocationSettings = { riskFraction: 0.1, orderStyle: 'market', sessionId: 's1' };
const instruments = new Map([BTC, ETH, SOL].map((i) => [i.symbol, i]));
const sig = (symbol: string, direction: number, confidence: number, agent = 'a'): Signal => ({
  agent,
  symbol,
  direction,
  confidence,
});

describe('allocate: no float ties, flips respect the band, the budget goes to orders (issue 19)', () => {
  it('enters from flat at confidence 0.25 at every price: the band is strictly below the entry', () => {
    const skipped: number[] = [];
    // Prices with awkward binary fractions, where 0.25 × budget vs the band used to fall either way.
    for (let i = 0; i < 200; i++) {
      const price = 37.3 + i * 1.37;
      const market = marketView(snapshot('BTCUSDT', price));
      const [p] = allocate([sig('BTCUSDT', 1, 0.25)], { account: account(), market, instruments, cycle: 1 }, settings);
      if (p!.order === null) skipped.push(price);
    }
    expect(skipped).toEqual([]);
  });

  it('a flip whose whole change is within the band is not traded', () => {
    // Long 0.5 BTC at 100 (0.05 of the 1 000 budget); the signal wants a short of 0.1 of the budget.
    const market = marketView(snapshot('BTCUSDT', 100));
    const acct = account({ positions: [position('BTCUSDT', 0.5, 100)] });
    const [p] = allocate([sig('BTCUSDT', -1, 0.1)], { account: acct, market, instruments, cycle: 1 }, settings);
    expect(p!.order).toBeNull();
    expect(p!.skipped).toMatchObject({ code: 'WITHIN_BAND' });
  });

  it('a flip to a target within the band of flat only closes', () => {
    // Long 5 BTC (half the budget); the signal turns short at 0.15: close, but open no dust short.
    const market = marketView(snapshot('BTCUSDT', 100));
    const acct = account({ positions: [position('BTCUSDT', 5, 100)] });
    const proposals = allocate([sig('BTCUSDT', -1, 0.15)], { account: acct, market, instruments, cycle: 1 }, settings);
    expect(proposals.map((p) => [p.sizing?.kind, p.order?.side, p.order?.qty, p.order?.reduceOnly])).toEqual([
      ['flip_close', 'SELL', 5, true],
    ]);
  });

  it('a signal that changes nothing does not spend the one order of the cycle', () => {
    const market = marketView(snapshot('BTCUSDT', 100), snapshot('ETHUSDT', 100));
    // Already at BTC's target (≈ 9.99 held); ETH's signal, ranked lower, would trade.
    const acct = account({ positions: [position('BTCUSDT', 9.99, 100)] });
    const signals = [sig('BTCUSDT', 1, 1), sig('ETHUSDT', 1, 0.5)];
    const { selected, maxOrders } = arbitrate(signals, { maxOrders: 1 });
    const proposals = allocate(selected, { account: acct, market, instruments, cycle: 1, maxOrders }, settings);
    expect(proposals.map((p) => [p.signal.symbol, p.order?.side ?? p.skipped?.code])).toEqual([
      ['BTCUSDT', 'WITHIN_BAND'],
      ['ETHUSDT', 'BUY'],
    ]);
  });

  it('stops at maxOrders signals that became orders; the rest are MAX_ORDERS_REACHED, exits aside', () => {
    const market = marketView(snapshot('BTCUSDT', 100), snapshot('ETHUSDT', 100), snapshot('SOLUSDT', 10));
    const acct = account({ positions: [position('SOLUSDT', 3, 10)] });
    const signals = [sig('BTCUSDT', 1, 1), sig('ETHUSDT', 1, 0.9), sig('SOLUSDT', 0, 1)];
    const proposals = allocate(
      signals,
      { account: acct, market, instruments, cycle: 1, maxOrders: 1, owners: new Map([['SOLUSDT', 'a']]) },
      settings,
    );
    // The opening is sized after the cycle's closes, so its proposal comes last.
    expect(proposals.map((p) => [p.signal.symbol, p.order?.side ?? p.skipped?.code])).toEqual([
      ['ETHUSDT', 'MAX_ORDERS_REACHED'],
      ['SOLUSDT', 'SELL'],
      ['BTCUSDT', 'BUY'],
    ]);
  });
});
