/**
 * The interface every strategy agent implements, built-in or user-supplied (see
 * src/strategies/strategy.ts for how to write one). Machines and the strategy layer both use it, so
 * it lives in the domain.
 */
import type { Instrument, MarketSnapshot } from './market.js';
import type { Signal } from './signal.js';

export interface StrategyAgent {
  /** Unique among loaded agents; becomes `Signal.agent` and the key of the arbitration weights. */
  readonly name: string;
  /**
   * One symbol, one cycle. Returns null when there is nothing to say (not enough data, no edge).
   * A returned Signal has `agent === name`, `symbol === snapshot.symbol`, direction +1 or −1 and
   * confidence in [0, 1]; arbitration discards anything else as INVALID_SIGNAL.
   */
  analyse(snapshot: MarketSnapshot, instrument: Instrument): Signal | null;
}

/**
 * How parameterised agents are made: every parameter is optional and falls back to the strategy's
 * documented default. Factories validate what they receive (params may come from configuration)
 * and throw an Error naming the strategy and the parameter.
 */
export type StrategyFactory<P extends object = Record<string, unknown>> = (params?: Partial<P>) => StrategyAgent;
