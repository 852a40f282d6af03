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

export async function checkTrials(trials: readonly Trial[]): Promise<void> {
  const loaded = new Set<string>();
  for (const trial of trials) {
    const named = `trial ${trial.id} (${Object.entries(trial.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')})`;
    try {
      if (trial.window.dir !== null && !isDirectory(trial.window.dir))
        throw new ConfigError(`data.dir ${trial.window.dir}: no such directory`);
      const config = simulationConfig(trial.env, trialOptions(trial.window, '.'));
      const key = JSON.stringify([config.strategies, config.strategyParams]);
      if (!loaded.has(key)) await assertStrategiesLoad(config);
      loaded.add(key);
    } catch (err) {
      if (err instanceof ConfigError) throw new ConfigError(`sweep spec: ${named}: ${err.message}`);
      throw err;
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
