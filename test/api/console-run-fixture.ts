/**
 * A short run's decision log as the trading process writes it (one entry per cycle, with signals,
 * each order's guards and its fill at submission), for the console's browser tests and the
 * screenshot script: three closed trades (BTC long won, ETH short won, SOL long lost) and a BTC long
 * still open, with the bar each feed closed before every cycle (the candle chart's data).
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

/** Cycles in the run: a few after the last fill, so the chart shows what came after. */
export const RUN_CYCLES = 12;

/**
 * Each symbol's closes, bar k opening at RUN_START + k minutes: through the fill prices (a fill of
 * cycle c is at the open of bar c, the close of bar c − 1), with a deterministic wiggle between them.
 */
function closes(symbol: string): number[] {
  const anchors = RUN_FILLS.filter((f) => f[1] === symbol).map(([cycle, , , , price]) => [cycle - 1, price] as const);
  return Array.from({ length: RUN_CYCLES }, (_, k) => {
    const exact = anchors.find(([bar]) => bar === k);
    if (exact) return exact[1];
    const before = anchors.filter(([bar]) => bar < k).at(-1) ?? anchors[0]!;
    const after = anchors.find(([bar]) => bar > k) ?? anchors.at(-1)!;
    const share = after[0] === before[0] ? 0 : (k - before[0]) / (after[0] - before[0]);
    const base = before[1] + (after[1] - before[1]) * share;
    return base * (1 + 0.004 * Math.sin(k * 2.3));
  });
}

/** The bar each feed closed just before cycle `cycle` decided: [time, open, high, low, close]. */
function candlesAt(cycle: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT']) {
    const c = closes(symbol);
    const k = cycle - 1;
    const close = c[k]!;
    const open = c[k - 1] ?? close * 0.999;
    const pad = close * 0.0015;
    out[symbol] = [RUN_START + k * 60_000, open, Math.max(open, close) + pad, Math.min(open, close) - pad, close];
  }
  return out;
}

export function runDecisions(): NewAuditEvent[] {
  return Array.from({ length: RUN_CYCLES }, (_, i) => i + 1).map((cycle) => {
    const at = new Date(RUN_START + cycle * 60_000).toISOString();
    const fill = RUN_FILLS.find((f) => f[0] === cycle);
    if (!fill) {
      return {
        kind: 'decision',
        at,
        symbol: null,
        body: {
          cycle,
          epoch: 0,
          outcome: 'completed',
          signals: [],
          risk: [],
          submissions: [],
          candles: candlesAt(cycle),
        },
      };
    }
    const [, symbol, side, qty, price] = fill;
    const clientOrderId = `momentum_ma_crossover-${symbol}-${cycle}`;
    return {
      kind: 'decision',
      at,
      symbol,
      body: {
        cycle,
        epoch: 0,
        outcome: 'completed',
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
        candles: candlesAt(cycle),
      },
    };
  });
}
