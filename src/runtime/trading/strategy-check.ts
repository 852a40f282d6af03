/**
 * Whether the configured strategies load, as a ConfigError (exit 2) when they do not: an unknown name
 * or a module that does not import fails the same way on every restart, so a supervisor must stop
 * rather than loop. Two depths: the trading process loads them all before it opens the store; the
 * launcher checks what it can without importing user modules (built-in names and their parameters,
 * that each module file exists), because importing a TypeScript module there would load tsx into
 * the supervisor for its whole life (about 35 MB) and delay every start by seconds.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isModulePath, loadStrategies } from '../../strategies/registry.js';
import type { StrategyAgent } from '../../strategies/strategy.js';
import { ConfigError } from '../config.js';
import type { TradingConfig } from './trading-config.js';

type StrategySettings = Pick<TradingConfig, 'strategies' | 'strategyParams'>;

/** Loads every strategy (user modules included) and answers them. */
export async function assertStrategiesLoad(config: StrategySettings): Promise<StrategyAgent[]> {
  try {
    return await loadStrategies(config.strategies, config.strategyParams);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

/** Builds the built-in agents and checks that each user module file exists, importing nothing. */
export async function assertStrategiesResolve(config: StrategySettings, cwd = process.cwd()): Promise<void> {
  const entries = config.strategies
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const entry of entries.filter(isModulePath)) {
    if (!existsSync(resolve(cwd, entry))) {
      throw new ConfigError(`STRATEGIES entry "${entry}": no such file ${resolve(cwd, entry)}`);
    }
  }
  const stray = Object.keys(config.strategyParams).filter((key) => !entries.includes(key));
  if (stray.length > 0) await assertStrategiesLoad(config); // the registry names the stray keys
  const builtins = entries.filter((entry) => !isModulePath(entry));
  const builtinParams = Object.fromEntries(Object.entries(config.strategyParams).filter(([k]) => builtins.includes(k)));
  // The registry's own messages (unknown name, bad parameters, empty list); built-ins import nothing.
  if (builtins.length > 0 || entries.length === 0)
    await assertStrategiesLoad({ strategies: builtins.join(','), strategyParams: builtinParams });
}
