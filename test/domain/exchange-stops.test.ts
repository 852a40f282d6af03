/**
 * Which stop each open position should have resting on the exchange (src/domain/exchange-stops.ts):
 * at the configured stop distance, moved with the trailing stop, none for a flat symbol or when no
 * adverse exit is configured.
 */
import { describe, expect, it } from 'vitest';
import { exchangeStops, isExchangeStopId } from '../../src/domain/exchange-stops.js';
import type { Position } from '../../src/domain/portfolio.js';
import { EMPTY_PROTECTION_STATE } from '../../src/domain/protection.js';
import type { ProtectionSettings } from '../../src/domain/protection.js';

const position = (symbol: string, qty: number, entryPrice: number): Position => ({
  symbol,
  kind: 'perp',
  qty,
  entryPrice,
  markPrice: entryPrice,
  unrealizedPnl: 0,
  realizedPnl: 0,
});
const settings = (rule: Partial<ProtectionSettings['global']>, byStrategy = {}): ProtectionSettings => ({
  global: { stopLoss: null, takeProfit: null, trailingStop: null, cooldownAfterStop: 0, ...rule },
  byStrategy,
});

describe('exchange stops', () => {
  it('a long gets a SELL stop at entry × (1 − STOP_LOSS), a short a BUY stop above; flat symbols none', () => {
    const stops = exchangeStops(
      [position('BTCUSDT', 0.01, 50_000), position('ETHUSDT', -0.5, 3_000), position('SOLUSDT', 0, 100)],
      EMPTY_PROTECTION_STATE,
      settings({ stopLoss: 0.02 }),
    );
    expect(stops).toEqual([
      { symbol: 'BTCUSDT', side: 'SELL', triggerPrice: 49_000, reason: 'stop_loss' },
      { symbol: 'ETHUSDT', side: 'BUY', triggerPrice: 3_060, reason: 'stop_loss' },
    ]);
  });

  it('moves with the trailing stop: the nearer of the two levels, from the tracked best price', () => {
    const state = { positions: { BTCUSDT: { side: 1 as const, best: 52_000, agent: null } }, cooldowns: {} };
    const [stop] = exchangeStops(
      [position('BTCUSDT', 0.01, 50_000)],
      state,
      settings({ stopLoss: 0.02, trailingStop: 0.01 }),
    );
    expect(stop).toEqual({ symbol: 'BTCUSDT', side: 'SELL', triggerPrice: 51_500, reason: 'trailing_stop' });
  });

  it("follows the opening strategy's own rule, and a best price tracked for the other side is not used", () => {
    const state = { positions: { BTCUSDT: { side: -1 as const, best: 40_000, agent: 'trend' } }, cooldowns: {} };
    const rules = settings({ stopLoss: 0.02 }, { trend: { stopLoss: 0.05 } });
    // The tracked short is gone (the position is now long): no owner known, the global rule applies.
    expect(exchangeStops([position('BTCUSDT', 0.01, 50_000)], state, rules)[0]!.triggerPrice).toBe(49_000);
    const short = exchangeStops([position('BTCUSDT', -0.01, 50_000)], state, rules)[0]!;
    expect(short.triggerPrice).toBeCloseTo(52_500, 6);
  });

  it('no stop without STOP_LOSS or TRAILING_STOP (a take-profit alone rests nothing)', () => {
    expect(
      exchangeStops([position('BTCUSDT', 0.01, 50_000)], EMPTY_PROTECTION_STATE, settings({ takeProfit: 0.05 })),
    ).toEqual([]);
  });
});

describe('isExchangeStopId', () => {
  it('knows our stops by either prefix (letters and digits only where the exchange wants it: OKX), and nothing else', () => {
    expect(isExchangeStopId('tcs-stop-BTCUSDT-abc1')).toBe(true);
    expect(isExchangeStopId('tcsstopBTCUSDTabc1')).toBe(true);
    expect(isExchangeStopId('s-1-BTCUSDT-0')).toBe(false);
    expect(isExchangeStopId('hx0123abcd')).toBe(false);
    expect(isExchangeStopId(undefined)).toBe(false);
  });
});
