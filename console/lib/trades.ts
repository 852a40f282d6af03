/**
 * The closed-trade list (issue 35): the fills the console read from the decision log, oldest first,
 * matched into round trips by the simulation report's own code (src/domain/performance: SymbolBook
 * decides when a trade is over, RoundTrips describes it), so a trade here is the trade the report
 * would list for the same fills. PnL per trade and summed per symbol. The log records a fill's price
 * but not its fee, so the PnL is before fees; fills without a price, side or symbol cannot be
 * matched and are left out. Pure, tested without a browser.
 */
import { RoundTrips } from '../../src/domain/performance/round-trips.js';
import type { TradeObservation } from '../../src/domain/performance/observations.js';
import type { RoundTrip } from '../../src/domain/performance/round-trips.js';
import { SymbolBook } from '../../src/domain/performance/symbol-book.js';
import type { StrategyTotals } from '../../src/domain/performance/symbol-book.js';
import type { FillRow } from './fills.js';

export interface SymbolTrades {
  symbol: string;
  trades: number;
  wins: number;
  pnl: number;
}

export interface ClosedTrades {
  /** Newest exit first. */
  trades: RoundTrip[];
  /** By symbol name. */
  bySymbol: SymbolTrades[];
  total: Omit<SymbolTrades, 'symbol'>;
}

/** `fills` newest first, as the console keeps them. */
export function closedTrades(fills: readonly FillRow[]): ClosedTrades {
  // Per-strategy totals are the report's concern; the book asks for them, nothing here reads them.
  const totals: StrategyTotals = { realized: 0, fees: 0, funding: 0 };
  const books = new Map<string, SymbolBook>();
  const trips = new RoundTrips();
  const trades: RoundTrip[] = [];
  for (const f of [...fills].reverse()) {
    if (f.symbol === null || f.price === null || (f.side !== 'BUY' && f.side !== 'SELL')) continue;
    let book = books.get(f.symbol);
    if (book === undefined) books.set(f.symbol, (book = new SymbolBook(() => totals)));
    const observation: TradeObservation = {
      ts: Date.parse(f.at),
      clientOrderId: f.client_order_id ?? f.key,
      symbol: f.symbol,
      side: f.side,
      qty: f.qty,
      price: f.price,
      fee: 0,
      liquidity: 'taker',
      strategy: null,
      kind: 'order',
    };
    const closed = trips.fill(observation, book.fill(observation));
    if (closed) trades.push(closed);
  }
  const bySymbol = new Map<string, SymbolTrades>();
  for (const t of trades) {
    const s = bySymbol.get(t.symbol) ?? { symbol: t.symbol, trades: 0, wins: 0, pnl: 0 };
    s.trades += 1;
    s.wins += t.pnl > 0 ? 1 : 0;
    s.pnl += t.pnl;
    bySymbol.set(t.symbol, s);
  }
  const symbols = [...bySymbol.values()].sort((a, b) => a.symbol.localeCompare(b.symbol));
  return {
    trades: trades.reverse(),
    bySymbol: symbols,
    total: {
      trades: trades.length,
      wins: symbols.reduce((n, s) => n + s.wins, 0),
      pnl: symbols.reduce((n, s) => n + s.pnl, 0),
    },
  };
}
