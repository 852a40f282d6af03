/**
 * Loads the configured strategies once to find out whether they load, and turns a failure into a
 * ConfigError (exit 2): an unknown name or a module that does not import fails the same way on every
 * restart, so a supervisor must stop rather than loop. `tcs start` runs it before starting anything,
 * and the trading process before it opens the store.
 */
import { loadStrategies } from '../../strategies/registry.js';
import { ConfigError } from '../config.js';
import type { TradingConfig } from './trading-config.js';

export async function assertStrategiesLoad(
  config: Pick<TradingConfig, 'strategies' | 'strategyParams'>,
): Promise<void> {
  try {
    await loadStrategies(config.strategies, config.strategyParams);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}
