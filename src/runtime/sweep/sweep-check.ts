/**
 * Every trial's configuration checked before the first one runs, as `tcs simulate` would check it:
 * a parameter value the trading configuration refuses (RISK_FRACTION=5), a strategy that does not
 * load or a missing data directory is a ConfigError (exit 2) naming the trial and its parameters,
 * not a failure found on a remote worker an hour into the sweep.
 */
import { statSync } from 'node:fs';
import { ConfigError } from '../config.js';
import { simulationConfig } from '../simulate/simulation-env.js';
import { assertStrategiesLoad } from '../trading/strategy-check.js';
import { trialOptions } from './trial-runner.js';
import type { Trial } from './sweep-trials.js';

/**
 * Checks every trial (throws a ConfigError at the first bad one) and answers the notes to print:
 * one per strategy module given STRATEGY_PARAMS that declares no `parameters`, whose parameter
 * names nothing can check (a typo there still runs with the default).
 */
export async function checkTrials(trials: readonly Trial[]): Promise<string[]> {
  const loaded = new Set<string>();
  const undeclared = new Set<string>();
  for (const trial of trials) {
    const named = `trial ${trial.id} (${Object.entries(trial.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')})`;
    try {
      if (trial.window.dir !== null && !isDirectory(trial.window.dir))
        throw new ConfigError(`data.dir ${trial.window.dir}: no such directory`);
      const config = simulationConfig(trial.env, trialOptions(trial.window, '.'));
      const key = JSON.stringify([config.strategies, config.strategyParams]);
      if (!loaded.has(key)) {
        const agents = await assertStrategiesLoad(config);
        const entries = config.strategies
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry.length > 0);
        // loadStrategies answers one agent per entry, in order.
        entries.forEach((entry, i) => {
          if (config.strategyParams[entry] !== undefined && agents[i]?.parameters === undefined) undeclared.add(entry);
        });
      }
      loaded.add(key);
    } catch (err) {
      if (err instanceof ConfigError) throw new ConfigError(`sweep spec: ${named}: ${err.message}`);
      throw err;
    }
  }
  return [...undeclared].map(
    (entry) =>
      `${entry} declares no parameters, so the names STRATEGY_PARAMS gives it are not checked (a misspelt one runs with its default): declare them, see docs/strategies/writing-a-strategy.md`,
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
