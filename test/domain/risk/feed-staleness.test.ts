// FEED_STALE_MS in the risk engine: market data older than the limit opens no new exposure (the
// liquidity guard fails with LIQUIDITY_STALE, value = age, limit = the limit) while a reduce-only
// close still passes; fresh data (ts = now, as the synthetic feed stamps it) is judged as before.
import { describe, expect, it } from 'vitest';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, market, order, position } from './builders.js';

const TS = 1_700_000_000_000;
const fresh = { now: TS, staleMs: 15_000 };
const stale = { now: TS + 15_001, staleMs: 15_000 };

describe('feed staleness', () => {
  it('approves on data stamped now, exactly as without the rule', () => {
    const judged = evaluateOrder(order(), { account: account(), market: market(), freshness: fresh });
    const plain = evaluateOrder(order(), { account: account(), market: market() });
    expect(judged).toEqual(plain);
    expect(judged.approved).toBe(true);
  });

  it('passes data exactly at the limit', () => {
    const atLimit = { now: TS + 15_000, staleMs: 15_000 };
    expect(evaluateOrder(order(), { account: account(), market: market(), freshness: atLimit }).approved).toBe(true);
  });

  it('refuses an order that opens exposure on stale data, in the liquidity guard', () => {
    const decision = evaluateOrder(order(), { account: account(), market: market(), freshness: stale });
    expect(decision.approved).toBe(false);
    const liquidity = decision.checks[2];
    expect(liquidity).toMatchObject({
      guard: 'liquidity',
      passed: false,
      code: 'LIQUIDITY_STALE',
      value: 15_001,
      limit: 15_000,
    });
    expect(liquidity.message).toMatch(/BTCUSDT.*15001 ms old.*no new exposure/);
    // The other three guards still report their own judgement.
    expect(decision.checks.filter((c) => c.guard !== 'liquidity').every((c) => c.passed)).toBe(true);
  });

  it('refuses adding to an existing position on stale data', () => {
    const held = account({ positions: [position('BTCUSDT', 2, 100)] });
    const decision = evaluateOrder(order({ qty: 1 }), { account: held, market: market(), freshness: stale });
    expect(decision.checks[2].code).toBe('LIQUIDITY_STALE');
  });

  it('still approves a reduce-only close on stale data', () => {
    const held = account({ positions: [position('BTCUSDT', 2, 100)] });
    const close = order({ side: 'SELL', qty: 2, reduceOnly: true });
    const decision = evaluateOrder(close, { account: held, market: market(), freshness: stale });
    expect(decision.approved).toBe(true);
    expect(decision.checks[2].code).not.toBe('LIQUIDITY_STALE');
  });

  it('refuses a sell that flips a long into a short on stale data', () => {
    const held = account({ positions: [position('BTCUSDT', 1, 100)] });
    const flip = order({ side: 'SELL', qty: 3 });
    const decision = evaluateOrder(flip, { account: held, market: market(), freshness: stale });
    expect(decision.checks[2].code).toBe('LIQUIDITY_STALE');
  });
});

describe('feed staleness: only reduce-only closes count as closes', () => {
  it('refuses a plain (not reduce-only) sell against a long on stale data', () => {
    const held = account({ positions: [position('BTCUSDT', 2, 100)] });
    const plain = order({ side: 'SELL', qty: 1 });
    const decision = evaluateOrder(plain, { account: held, market: market(), freshness: stale });
    expect(decision.checks[2].code).toBe('LIQUIDITY_STALE');
  });
});
