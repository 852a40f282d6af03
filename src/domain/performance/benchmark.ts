/**
 * The buy-and-hold benchmark of a run: what the starting cash would have become bought at each
 * symbol's first price and held to its last, per symbol (all the cash in that symbol) and equal-
 * weighted (the cash split equally across the run's symbols, never rebalanced). A frictionless
 * holding: no fees, no funding, no slippage, no leverage, so the strategy's excess over it is what
 * its trading added over simply owning the market, after everything the strategy paid.
 * Definitions: docs/strategies/simulation-metrics.md, "Benchmark".
 */
import { DrawdownTracker } from './drawdown.js';
import { round } from './run-summary.js';

export interface SymbolBenchmark {
  /** The symbol's first and last mark of the run; null when it never had one. */
  first_price: number | null;
  last_price: number | null;
  /** last_price / first_price − 1. */
  return: number | null;
  max_drawdown: number | null;
  /** The strategy's total_return − this return. */
  excess_return: number | null;
}

export interface BenchmarkSummary {
  equal_weight: { final_nav: number; return: number | null; max_drawdown: number; excess_return: number | null };
  by_symbol: Record<string, SymbolBenchmark>;
}

interface Holding {
  first: number;
  last: number;
  drawdown: DrawdownTracker;
}

export class BuyAndHold {
  private readonly holdings = new Map<string, Holding>();
  private readonly share: number;
  private nav: number;
  private drawdown: DrawdownTracker | null = null;

  constructor(
    private readonly startingCash: number,
    private readonly symbols: readonly string[],
  ) {
    this.share = symbols.length > 0 ? startingCash / symbols.length : 0;
    this.nav = startingCash;
  }

  /** One cycle's marks; returns the equal-weighted holding's value after it. */
  add(ts: number, marks: Readonly<Record<string, number>>): number {
    let nav = 0;
    for (const symbol of this.symbols) {
      const price = marks[symbol];
      let holding = this.holdings.get(symbol);
      if (price !== undefined && price > 0) {
        if (holding === undefined) {
          holding = { first: price, last: price, drawdown: new DrawdownTracker(price, ts) };
          this.holdings.set(symbol, holding);
        }
        holding.last = price;
        holding.drawdown.add(price, ts);
      }
      // A symbol with no price yet keeps its share in cash; a missing mark carries the last one.
      nav += holding === undefined ? this.share : (this.share * holding.last) / holding.first;
    }
    if (this.symbols.length === 0) nav = this.startingCash;
    this.drawdown ??= new DrawdownTracker(this.startingCash, ts);
    this.drawdown.add(nav, ts);
    this.nav = nav;
    return nav;
  }

  /** The figures beside the strategy's total return (null when the run had no cycle). */
  summary(strategyReturn: number | null): BenchmarkSummary {
    const excess = (r: number | null) => (r === null || strategyReturn === null ? null : round(strategyReturn - r));
    const bySymbol: Record<string, SymbolBenchmark> = {};
    for (const symbol of [...this.symbols].sort()) {
      const h = this.holdings.get(symbol);
      const r = h === undefined ? null : h.last / h.first - 1;
      bySymbol[symbol] = {
        first_price: h === undefined ? null : round(h.first),
        last_price: h === undefined ? null : round(h.last),
        return: round(r),
        max_drawdown: h === undefined ? null : round(h.drawdown.maxDrawdown),
        excess_return: excess(r),
      };
    }
    const r = this.drawdown === null ? null : this.nav / this.startingCash - 1;
    return {
      equal_weight: {
        final_nav: round(this.nav),
        return: round(r),
        max_drawdown: round(this.drawdown?.maxDrawdown ?? 0),
        excess_return: excess(r),
      },
      by_symbol: bySymbol,
    };
  }
}
