/**
 * Statistics of closed trades (round trips: a symbol's position from flat back to flat, or to a
 * flip, as SymbolBook closes them): average win and loss, best and worst, holding time and how each
 * ended, for the run, per symbol and per strategy. A trade belongs to the strategy of the fill that
 * opened it ("(none)" when no strategy did). Its exit is the kind of the fill that closed it, with a
 * strategy's ordinary order named `signal`. Definitions: docs/strategies/simulation-metrics.md, "Trade statistics".
 */
import { NO_STRATEGY } from './observations.js';
import type { TradeObservation } from './observations.js';
import { humanDuration, ratio, round, sortedRecord } from './run-summary.js';
import type { FillResult } from './symbol-book.js';

/** How a trade ended: `signal` (a strategy's order) or the closing fill's kind. */
export type TradeExit = 'signal' | Exclude<TradeObservation['kind'], 'order'>;

export interface TradeStats {
  trades: number;
  /** Trades with a net PnL > 0, and < 0 (a trade at exactly 0 is neither). */
  wins: number;
  losses: number;
  avg_win: number | null;
  avg_loss: number | null;
  best_trade: number | null;
  worst_trade: number | null;
  avg_holding_seconds: number | null;
  avg_holding_human: string | null;
  /** Trades by how they ended, only the kinds that occurred, keys sorted. */
  exits: Partial<Record<TradeExit, number>>;
}

export interface TradeStatsSummary {
  trade_stats: TradeStats;
  trade_stats_by_symbol: Record<string, TradeStats>;
  trade_stats_by_strategy: Record<string, TradeStats>;
}

class Accumulator {
  trades = 0;
  wins = 0;
  losses = 0;
  private winSum = 0;
  private lossSum = 0;
  private best = -Infinity;
  private worst = Infinity;
  private holdingMs = 0;
  private readonly exits = new Map<TradeExit, number>();

  add(pnl: number, holdingMs: number, exit: TradeExit): void {
    this.trades += 1;
    if (pnl > 0) {
      this.wins += 1;
      this.winSum += pnl;
    } else if (pnl < 0) {
      this.losses += 1;
      this.lossSum += pnl;
    }
    this.best = Math.max(this.best, pnl);
    this.worst = Math.min(this.worst, pnl);
    this.holdingMs += holdingMs;
    this.exits.set(exit, (this.exits.get(exit) ?? 0) + 1);
  }

  stats(): TradeStats {
    const holding = this.trades > 0 ? this.holdingMs / 1000 / this.trades : null;
    return {
      trades: this.trades,
      wins: this.wins,
      losses: this.losses,
      avg_win: ratio(this.winSum, this.wins),
      avg_loss: ratio(this.lossSum, this.losses),
      best_trade: this.trades > 0 ? round(this.best) : null,
      worst_trade: this.trades > 0 ? round(this.worst) : null,
      avg_holding_seconds: round(holding),
      avg_holding_human: holding === null ? null : humanDuration(holding),
      exits: sortedRecord(this.exits),
    };
  }
}

interface OpenTrade {
  openedAt: number;
  strategy: string;
}

export class TradeLedger {
  private readonly all = new Accumulator();
  private readonly bySymbol = new Map<string, Accumulator>();
  private readonly byStrategy = new Map<string, Accumulator>();
  private readonly open = new Map<string, OpenTrade>();

  /** One fill and what the symbol's book made of it (in fill order). */
  fill(t: TradeObservation, result: FillResult): void {
    if (result.closedRoundTrip !== null) {
      const trade = this.open.get(t.symbol);
      // A book only closes a trade it opened, so `trade` is there; the guard keeps bad input harmless.
      const openedAt = trade?.openedAt ?? t.ts;
      const strategy = trade?.strategy ?? NO_STRATEGY;
      const exit: TradeExit = t.kind === 'order' ? 'signal' : t.kind;
      for (const acc of [this.all, group(this.bySymbol, t.symbol), group(this.byStrategy, strategy)])
        acc.add(result.closedRoundTrip, t.ts - openedAt, exit);
      this.open.delete(t.symbol);
    }
    // Opened from flat, or by the rest of a flip: the new trade starts with this fill.
    if (result.positionAfter !== 0 && !this.open.has(t.symbol))
      this.open.set(t.symbol, { openedAt: t.ts, strategy: t.strategy ?? NO_STRATEGY });
  }

  summary(): TradeStatsSummary {
    const each = (m: Map<string, Accumulator>) => {
      const out = new Map<string, TradeStats>();
      for (const [k, acc] of m) out.set(k, acc.stats());
      return sortedRecord(out);
    };
    return {
      trade_stats: this.all.stats(),
      trade_stats_by_symbol: each(this.bySymbol),
      trade_stats_by_strategy: each(this.byStrategy),
    };
  }
}

function group(m: Map<string, Accumulator>, key: string): Accumulator {
  let acc = m.get(key);
  if (acc === undefined) m.set(key, (acc = new Accumulator()));
  return acc;
}
