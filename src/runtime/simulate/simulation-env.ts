/**
 * The trading configuration of a simulation run: the environment as usual, with the flags of
 * `tcs simulate` put in place of the variables they name, and what a run decides for itself:
 * its own store (a file in --out), no control plane to watch (there is no API process), and a fresh
 * RISK_HMAC_SECRET — an approval signed in a simulation must never be valid anywhere else, so the
 * operator's secret is not used even when it is set.
 */
import { join } from 'node:path';
import { generateKey } from '../../domain/keys.js';
import { ConfigError } from '../config.js';
import { readTradingConfig } from '../trading/trading-config.js';
import type { TradingConfig } from '../trading/trading-config.js';
import type { SimulateOptions } from './simulate-options.js';

export const RUN_STORE_FILE = 'events.db';

export function simulationConfig(env: NodeJS.ProcessEnv, options: SimulateOptions): TradingConfig {
  const marketData = env.MARKET_DATA?.trim() || 'synthetic';
  // --data says which market to use; otherwise MARKET_DATA may not name a live feed.
  if (options.data === null && marketData.startsWith('live:'))
    throw new ConfigError(
      `MARKET_DATA=${marketData}: a simulation replays files or the synthetic market, not a live feed`,
    );
  const overrides: Record<string, string | undefined> = {
    STRATEGIES: options.strategies ?? undefined,
    SYMBOLS: options.symbols ?? undefined,
    PAPER_STARTING_CASH: options.cash ?? undefined,
    CYCLE_SECONDS: options.cycleSeconds ?? undefined,
    MARKET_SEED: options.seed === null ? undefined : String(options.seed),
    FILL_MODEL: options.fillModel ?? undefined,
  };
  return readTradingConfig({
    ...env,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
    // The replay (if any) is opened by the simulator from --data; the config reads the synthetic feed's settings.
    MARKET_DATA: 'synthetic',
    // A simulation trades on its own paper account, whatever the operator's .env says for live trading.
    EXECUTION_MODE: 'paper',
    LIVE_MAINNET: '',
    STORE_URL: `sqlite:${join(options.out, RUN_STORE_FILE)}`,
    RISK_HMAC_SECRET: generateKey(),
    CONTROL_PLANE_TIMEOUT: '0',
    LOG_LEVEL: env.LOG_LEVEL?.trim() || 'warn',
  });
}

/** The data directory of a replay: --data, else MARKET_DATA=file:DIR; null for the synthetic market. */
export function replayDirectory(env: NodeJS.ProcessEnv, options: SimulateOptions): string | null {
  if (options.data !== null) return options.data;
  const marketData = env.MARKET_DATA?.trim() ?? '';
  return marketData.startsWith('file:') ? marketData.slice('file:'.length) : null;
}
