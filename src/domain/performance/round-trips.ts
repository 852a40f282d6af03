/**
 * The round-trip trade list: each trade of a symbol from flat back to flat (or to a flip), with its
 * entry and exit (volume-weighted prices of the fills that opened and closed it), duration, net
 * PnL, fees, how it ended and its excursions. MAE and MFE are the worst and best trading PnL of the
 * trade while it was open (realized so far plus the open part at the price, before fees), taken at
 * each fill and at each cycle's mark, so they are as fine as the cycle. The net PnL is SymbolBook's
 * (symbol-book.ts), so the list sums to the trade statistics exactly. Definitions:
 * docs/strategies/simulation-metrics.md, "Round trips".
 */
import { NO_STRATEGY } from './observations.js';
import type { TradeObservation } from './observations.js';
import { humanDuration, round } from './run-summary.js';
import type { FillResult } from './symbol-book.js';
import type { TradeExit } from './trade-stats.js';

export interface RoundTrip {
  symbol: string;
  strategy: string;
  side: 'long' | 'short';
  entry_time: string;
  entry_price: number;
  exit_time: string;
  exit_price: number;
  /** The largest position held during the trade (base units). */
  qty: number;
  duration_seconds: number;
  duration_human: string;
  /** Net PnL: trading PnL − fees (funding is not in it, as in the trade statistics). */
  pnl: number;
  fees: number;
  exit: TradeExit;
  /** Worst and best trading PnL while open (quote currency; MAE ≤ 0 ≤ MFE). */
  mae: number;
  mfe: number;
}

interface OpenTrip {
  strategy: string;
  direction: 1 | -1;
  entryTs: number;
  entryQty: number;
  entryNotional: number;
  exitQty: number;
  exitNotional: number;
  /** Open quantity, unsigned, and its average cost. */
  open: number;
  avgCost: number;
  peakQty: number;
  realized: number;
  fees: number;
  mae: number;
  mfe: number;
}

export class RoundTrips {
  private readonly trips = new Map<string, OpenTrip>();

  /** One fill and what the symbol's book made of it; the round trip it closed, if any. */
  fill(t: TradeObservation, result: FillResult): RoundTrip | null {
    const direction = t.side === 'BUY' ? 1 : -1;
    const trip = this.trips.get(t.symbol);
    let opening = t.qty;
    let closed: RoundTrip | null = null;
    if (trip !== undefined && trip.direction === direction) {
      trip.avgCost = (trip.avgCost * trip.open + t.price * t.qty) / (trip.open + t.qty);
      trip.open += t.qty;
      trip.entryQty += t.qty;
      trip.entryNotional += t.qty * t.price;
      trip.peakQty = Math.max(trip.peakQty, trip.open);
      trip.fees += t.fee;
      excursion(trip, t.price);
      return null;
    }
    if (trip !== undefined) {
      // The book decides when a trade is over (its dust rule); until then the fill only reduces it.
      const closing = result.closedRoundTrip !== null ? trip.open : Math.min(t.qty, trip.open);
      trip.realized += closing * (t.price - trip.avgCost) * trip.direction;
      trip.open -= closing;
      trip.exitQty += closing;
      trip.exitNotional += closing * t.price;
      // A flip's fee is split by quantity between the trade it closes and the one it opens.
      trip.fees += t.qty > 0 ? (t.fee * Math.min(closing, t.qty)) / t.qty : 0;
      excursion(trip, t.price);
      opening = Math.max(0, t.qty - closing);
      if (result.closedRoundTrip === null) return null;
      closed = finish(t, trip, result.closedRoundTrip);
      this.trips.delete(t.symbol);
    }
    if (result.positionAfter !== 0 && opening > 0) {
      const open = Math.abs(result.positionAfter);
      this.trips.set(t.symbol, {
        strategy: t.strategy ?? NO_STRATEGY,
        direction: result.positionAfter > 0 ? 1 : -1,
        entryTs: t.ts,
        entryQty: open,
        entryNotional: open * t.price,
        exitQty: 0,
        exitNotional: 0,
        open,
        avgCost: t.price,
        peakQty: open,
        realized: 0,
        fees: (t.fee * opening) / t.qty,
        mae: 0,
        mfe: 0,
      });
    }
    return closed;
  }

  /** A cycle's mark of a symbol: the open trade's excursion at it. */
  mark(symbol: string, price: number): void {
    const trip = this.trips.get(symbol);
    if (trip !== undefined && Number.isFinite(price)) excursion(trip, price);
  }

  /** Symbols with an open trade (the ones a cycle's marks update). */
  openSymbols(): IterableIterator<string> {
    return this.trips.keys();
  }
}

function excursion(trip: OpenTrip, price: number): void {
  const pnl = trip.realized + trip.open * (price - trip.avgCost) * trip.direction;
  if (pnl < trip.mae) trip.mae = pnl;
  if (pnl > trip.mfe) trip.mfe = pnl;
}

function finish(t: TradeObservation, trip: OpenTrip, net: number): RoundTrip {
  const seconds = (t.ts - trip.entryTs) / 1000;
  return {
    symbol: t.symbol,
    strategy: trip.strategy,
    side: trip.direction === 1 ? 'long' : 'short',
    entry_time: new Date(trip.entryTs).toISOString(),
    entry_price: round(trip.entryNotional / trip.entryQty),
    exit_time: new Date(t.ts).toISOString(),
    exit_price: round(trip.exitNotional / trip.exitQty),
    qty: round(trip.peakQty),
    duration_seconds: round(seconds),
    duration_human: humanDuration(seconds),
    pnl: round(net),
    fees: round(trip.fees),
    exit: t.kind === 'order' ? 'signal' : t.kind,
    mae: round(trip.mae),
    mfe: round(trip.mfe),
  };
}
