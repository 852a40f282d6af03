/**
 * A short run's decision log as the trading process writes it (one entry per cycle, with signals,
 * each order's guards and its fill at submission), for the console's browser tests and the
 * screenshot script: three closed trades (BTC long won, ETH short won, SOL long lost) and a BTC long
 * still open.
 */
import type { NewAuditEvent } from '../../src/ports/event-store.js';

/** The run's first cycle, one minute per cycle after it. */
export const RUN_START = Date.UTC(2026, 0, 5, 12);

/** [cycle, symbol, side, qty, fill price] of each fill, in order. */
export const RUN_FILLS: [number, string, 'BUY' | 'SELL', number, number][] = [
  [1, 'BTCUSDT', 'BUY', 0.1, 60_000],
  [2, 'ETHUSDT', 'SELL', 2, 3_300],
  [3, 'BTCUSDT', 'SELL', 0.1, 61_000],
  [4, 'SOLUSDT', 'BUY', 100, 150],
  [5, 'ETHUSDT', 'BUY', 2, 3_250],
  [6, 'SOLUSDT', 'SELL', 100, 145],
  [7, 'BTCUSDT', 'BUY', 0.05, 61_500],
];

const guards = [
  { guard: 'drawdown', passed: true, code: 'OK', value: 0.0004, limit: 0.1 },
  { guard: 'leverage', passed: true, code: 'OK', value: 0.62, limit: 3 },
  { guard: 'exposure', passed: true, code: 'OK', value: 0.31, limit: 0.5 },
  { guard: 'liquidity', passed: true, code: 'OK', value: 3_100, limit: 50_000 },
];

export function runDecisions(): NewAuditEvent[] {
  return RUN_FILLS.map(([cycle, symbol, side, qty, price]) => {
    const clientOrderId = `momentum_ma_crossover-${symbol}-${cycle}`;
    return {
      kind: 'decision',
      at: new Date(RUN_START + cycle * 60_000).toISOString(),
      symbol,
      body: {
        cycle,
        epoch: 0,
        outcome: 'submitted',
        signals: [
          {
            agent: 'momentum_ma_crossover',
            symbol,
            direction: side === 'BUY' ? 1 : -1,
            confidence: 0.8,
            weight: 1,
            score: 0.8,
            selected: true,
            reason: 'fast MA crossed the slow MA',
          },
        ],
        risk: [{ client_order_id: clientOrderId, symbol, approved: true, reduce_only: false, guards }],
        proposals: [{ order: { clientOrderId, symbol, side } }],
        submissions: [
          { clientOrderId, status: 'submitted', venueStatus: 'filled', filledQty: qty, avgFillPrice: price },
        ],
      },
    };
  });
}
