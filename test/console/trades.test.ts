/**
 * The console's closed-trade list (console/lib/trades.ts): the fills read from the decision log,
 * matched into round trips by the simulation report's own code (SymbolBook, RoundTrips), with the
 * PnL of each trade and the sum per symbol; a trade still open is not listed.
 */
import { describe, expect, it } from 'vitest';
import type { FillRow } from '../../console/lib/fills.js';
import { closedTrades } from '../../console/lib/trades.js';

const T0 = Date.UTC(2026, 0, 5, 12);
let seq = 0;
const fill = (minute: number, symbol: string, side: 'BUY' | 'SELL', qty: number, price: number | null): FillRow => {
  seq += 1;
  return {
    key: `${seq}:o-${seq}`,
    seq,
    at: new Date(T0 + minute * 60_000).toISOString(),
    cycle: minute,
    symbol,
    side,
    qty,
    price,
    client_order_id: `o-${seq}`,
  };
};

describe('closed trades', () => {
  it('lists each round trip with its PnL, newest first, and sums them per symbol', () => {
    const fills = [
      fill(1, 'BTCUSDT', 'BUY', 0.1, 60_000),
      fill(2, 'ETHUSDT', 'SELL', 2, 3_300),
      fill(3, 'BTCUSDT', 'SELL', 0.1, 61_000),
      fill(4, 'SOLUSDT', 'BUY', 100, 150),
      fill(5, 'ETHUSDT', 'BUY', 1, 3_250),
      fill(6, 'ETHUSDT', 'BUY', 1, 3_200),
      fill(7, 'SOLUSDT', 'SELL', 100, 145),
      fill(8, 'BTCUSDT', 'BUY', 0.05, 61_500),
    ].reverse(); // the console keeps its fills newest first
    const { trades, bySymbol, total } = closedTrades(fills);
    expect(trades.map((t) => [t.symbol, t.side, t.qty, t.entry_price, t.exit_price, t.pnl, t.exit_time])).toEqual([
      ['SOLUSDT', 'long', 100, 150, 145, -500, new Date(T0 + 7 * 60_000).toISOString()],
      ['ETHUSDT', 'short', 2, 3_300, 3_225, 150, new Date(T0 + 6 * 60_000).toISOString()],
      ['BTCUSDT', 'long', 0.1, 60_000, 61_000, 100, new Date(T0 + 3 * 60_000).toISOString()],
    ]);
    expect(trades[0]?.duration_human).toBe('00:03:00');
    expect(bySymbol).toEqual([
      { symbol: 'BTCUSDT', trades: 1, wins: 1, pnl: 100 },
      { symbol: 'ETHUSDT', trades: 1, wins: 1, pnl: 150 },
      { symbol: 'SOLUSDT', trades: 1, wins: 0, pnl: -500 },
    ]);
    expect(total).toEqual({ trades: 3, wins: 2, pnl: -250 });
  });

  it('closes a trade on a flip and opens the next, and skips fills without a price, side or symbol', () => {
    const fills = [
      fill(1, 'BTCUSDT', 'BUY', 1, 100),
      fill(2, 'BTCUSDT', 'SELL', 3, 110),
      { ...fill(3, 'BTCUSDT', 'BUY', 2, null) },
      { ...fill(4, 'BTCUSDT', 'BUY', 2, 120), side: null },
      fill(5, 'BTCUSDT', 'BUY', 2, 105),
    ].reverse();
    const { trades, bySymbol } = closedTrades(fills);
    expect(trades.map((t) => [t.side, t.qty, t.pnl])).toEqual([
      ['short', 2, 10],
      ['long', 1, 10],
    ]);
    expect(bySymbol).toEqual([{ symbol: 'BTCUSDT', trades: 2, wins: 2, pnl: 20 }]);
    expect(closedTrades([])).toEqual({ trades: [], bySymbol: [], total: { trades: 0, wins: 0, pnl: 0 } });
  });
});
