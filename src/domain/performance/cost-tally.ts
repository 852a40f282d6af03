/**
 * A run's trading costs itemised (issue 34, item 4): beside the fees, what taker fills paid beyond
 * the mid of the book they met — the spread (the half spread, the walk through the book, the tick
 * rounding) and the slippage (SLIPPAGE_BPS) — per symbol and in total. Spread and slippage are
 * already in the fill prices, hence in the trading PnL; they are shown here, never charged again.
 */
import { round } from './run-summary.js';
import type { RunCosts, SymbolCosts } from './run-summary.js';

export class CostTally {
  readonly #bySymbol = new Map<string, { spread: number; slippage: number }>();

  add(symbol: string, spread: number | undefined, slippage: number | undefined): void {
    let costs = this.#bySymbol.get(symbol);
    if (costs === undefined) this.#bySymbol.set(symbol, (costs = { spread: 0, slippage: 0 }));
    costs.spread += spread ?? 0;
    costs.slippage += slippage ?? 0;
  }

  /** The summary's `costs`: `fees` is the account's total, `feesBySymbol` each symbol's own fills'. */
  summary(fees: number, feesBySymbol: ReadonlyMap<string, number>): RunCosts {
    const symbols = [...new Set([...this.#bySymbol.keys(), ...feesBySymbol.keys()])].sort();
    const bySymbol: Record<string, SymbolCosts> = {};
    let spread = 0;
    let slippage = 0;
    for (const symbol of symbols) {
      const own = this.#bySymbol.get(symbol) ?? { spread: 0, slippage: 0 };
      const symbolFees = feesBySymbol.get(symbol) ?? 0;
      spread += own.spread;
      slippage += own.slippage;
      bySymbol[symbol] = costsOf(symbolFees, own.spread, own.slippage);
    }
    return { ...costsOf(fees, spread, slippage), by_symbol: bySymbol };
  }
}

function costsOf(fees: number, spread: number, slippage: number): SymbolCosts {
  return {
    fees: round(fees),
    spread: round(spread),
    slippage: round(slippage),
    total: round(fees + spread + slippage),
  };
}
