// Issue 34 item 4: a signal may size its position itself — a quantity, a notional or a fraction of
// NAV — instead of confidence × RISK_FRACTION × NAV, and still passes through the allocator's band
// and every risk guard. A malformed target is refused by the signal contract with a clear reason.
import { describe, expect, it } from 'vitest';
import { allocate } from '../../src/domain/allocation.js';
import type { AllocationSettings } from '../../src/domain/allocation.js';
import type { Signal, SignalTarget } from '../../src/domain/signal.js';
import { contractBreach } from '../../src/domain/strategy-input.js';
import { BTC, ETH, SOL, account, marketView, snapshot } from '../machines/support.js';
import { position } from './risk/builders.js';

const settings: AllocationSettings = { riskFraction: 0.1, orderStyle: 'market', sessionId: 's1' };
const instruments = new Map([BTC, ETH, SOL].map((i) => [i.symbol, i]));
// BTC at 100 (ask 100.1, bid 99.9), SOL (spot) at 10.
const market = marketView(snapshot('BTCUSDT', 100), snapshot('ETHUSDT', 100), snapshot('SOLUSDT', 10));
const sig = (symbol: string, direction: number, target?: SignalTarget, confidence = 0.3): Signal => ({
  agent: 'a',
  symbol,
  direction,
  confidence,
  ...(target ? { target } : {}),
});
const run = (signals: Signal[], acct = account()) =>
  allocate(signals, { account: acct, market, instruments, cycle: 1 }, settings);

describe('a signal that carries its own size', () => {
  it('a quantity target is the position wanted, whatever the confidence', () => {
    const [p] = run([sig('BTCUSDT', 1, { qty: 7 })]);
    expect(p!.order).toMatchObject({ side: 'BUY', qty: 7, reduceOnly: false });
    const [short] = run([sig('BTCUSDT', -1, { qty: 4 })]);
    expect(short!.order).toMatchObject({ side: 'SELL', qty: 4 });
  });

  it('a notional target is sized at the side it trades (the ask for a buy), floored to the lot', () => {
    const [p] = run([sig('BTCUSDT', 1, { notional: 500 })]);
    expect(p!.order!.qty).toBeCloseTo(Math.floor((500 / 100.1) * 1000) / 1000, 9);
  });

  it('a NAV fraction target: 0.2 of a 10,000 NAV is 2,000 of notional, at the bid for a sell', () => {
    const [p] = run([sig('BTCUSDT', -1, { navFraction: 0.2 })]);
    expect(p!.order).toMatchObject({ side: 'SELL' });
    expect(p!.sizing!.scaledBy).toBeNull();
    expect(p!.order!.qty).toBeCloseTo(Math.floor((2_000 / 99.9) * 1000) / 1000, 9);
  });

  it('only the difference to the target trades, and the no-trade band still applies', () => {
    const acct = account({ positions: [position('BTCUSDT', 5, 100)] });
    const [more] = run([sig('BTCUSDT', 1, { qty: 8 })], acct);
    expect(more!.order).toMatchObject({ side: 'BUY', qty: 3 });
    // 5.5 wanted, 5 held: 50 of notional is inside the band (0.2 × 0.1 × 10,000 = 200).
    const [held] = run([sig('BTCUSDT', 1, { qty: 5.5 })], acct);
    expect(held!.skipped).toMatchObject({ code: 'WITHIN_BAND' });
  });

  it('a target beyond the leverage limit is scaled down by the same guards as any opening', () => {
    const [p] = run([sig('BTCUSDT', 1, { navFraction: 8 })]);
    expect(p!.order).not.toBeNull();
    expect(p!.sizing!.scaledBy).not.toBeNull();
    expect(p!.order!.qty * 100.1).toBeLessThan(8 * 10_000);
  });

  it('spot cannot be sold short whatever the target says', () => {
    const [p] = run([sig('SOLUSDT', -1, { qty: 3 })]);
    expect(p!.skipped).toMatchObject({ code: 'ALREADY_FLAT' });
  });

  it('the signal contract refuses a malformed target with a reason that names it', () => {
    const breach = (target: unknown) => contractBreach({ ...sig('BTCUSDT', 1), target }, 'a', 'BTCUSDT');
    expect(breach({ qty: 1 })).toBeNull();
    expect(breach({ notional: 250.5 })).toBeNull();
    expect(breach({ navFraction: 0.5 })).toBeNull();
    expect(breach({ qty: 0 })).toMatch(/target\.qty must be a finite number > 0/);
    expect(breach({ notional: Number.NaN })).toMatch(/target\.notional/);
    expect(breach({ qty: 1, notional: 5 })).toMatch(/exactly one of qty, notional, navFraction/);
    expect(breach({})).toMatch(/exactly one of qty, notional, navFraction/);
    expect(breach({ quantity: 1 })).toMatch(/unknown field "quantity"/);
    expect(breach(5)).toMatch(/target must be an object/);
    expect(breach({ navFraction: 50 })).toMatch(/navFraction .* a fraction/);
  });
});
