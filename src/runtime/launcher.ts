/**
 * `tcs start` / `npm start`: prepares the environment (first-run .env), validates once what can be
 * validated before anything starts (the configuration of both processes, the restart limits, the
 * strategies' names and files), applies an operator's --reset-kill, then supervises the API and the
 * trading process. The trading process starts only once the API listens.
 */
import { resolve } from 'node:path';
import { readApiConfig } from './config.js';
import { readTradingConfig } from './trading/trading-config.js';
import { assertStrategiesResolve } from './trading/strategy-check.js';
import { ENV_FILE, loadEnv } from './environment.js';
import { writeFirstRunEnvFile } from './env-file.js';
import { tcsNodeArgs } from './package-root.js';
import { readRestartPolicy } from './restart-policy.js';
import { supervise } from './supervisor.js';
import type { ChildSpec } from './supervisor.js';
import { tellOperator } from './tell-operator.js';

export interface LauncherOptions {
  resetKill: boolean;
  reason?: string | undefined;
  inspect: boolean;
}

const say = tellOperator;

export async function runLauncher(options: LauncherOptions): Promise<void> {
  writeSecretsOnFirstRun();
  const env = loadEnv();
  // Fail here, once, with a clear message (exit 2), rather than in a child that would be restarted.
  const config = readApiConfig(env);
  const restart = readRestartPolicy(env);
  // Names and files only: a module that fails to import stops everything from the trading child (exit 2).
  await assertStrategiesResolve(readTradingConfig(env));

  if (options.resetKill) {
    // Loaded only here: the supervisor otherwise never touches the store, and the adapters (SQLite,
    // Redis clients) would add to its memory for as long as it runs.
    const { openStore } = await import('../adapters/open-store.js');
    const { resetKillAsOperator } = await import('./kill-reset.js');
    const store = await openStore(config.storeUrl);
    try {
      say(await resetKillAsOperator(store, options.reason));
    } finally {
      await store.close();
    }
  }

  const children: ChildSpec[] = [
    // The children run the same code as this process: compiled with source maps, or (npm run dev) the sources.
    { name: 'api', args: tcsNodeArgs(['api']) },
    { name: 'trading', args: tcsNodeArgs(['trade', ...(options.inspect ? ['--inspect'] : [])]), after: 'api' },
  ];
  say(
    `starting: API on http://${config.host}:${config.port}, store ${config.storeUrl.replace(/\/\/[^@/]*@/, '//***@')}; ` +
      'the trading process starts once the API listens',
  );
  const code = await supervise({ command: process.execPath, env: { ...env }, children, log: say, restart });
  process.exit(code);
}

/** First run: a `.env` with fresh keys for the secrets the environment lacks, and a truthful word about it. */
function writeSecretsOnFirstRun(): void {
  const envPath = resolve(process.cwd(), ENV_FILE);
  const written = writeFirstRunEnvFile(envPath, process.env);
  if (written.length === 0) return;
  const fromEnv = ['SERVICE_API_KEY', 'RISK_HMAC_SECRET'].filter((name) => !written.includes(name));
  say(
    `first run: wrote ${envPath} (mode 0600) with a fresh ${written.join(' and ')}` +
      (fromEnv.length > 0 ? `; ${fromEnv.join(' and ')} comes from the environment` : '') +
      (written.includes('SERVICE_API_KEY') ? '; your API key is in that file' : ''),
  );
}
