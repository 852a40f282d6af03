/**
 * `tcs start` / `npm start`: prepares the environment (first-run .env), validates once what can be
 * validated before anything starts (the configuration of both processes, the restart limits, the
 * strategies' names and files), creates a first start's control record (store-init.ts: so the API's
 * first answer can record a kill), applies an operator's --reset-kill, then supervises the API and the
 * trading process. The trading process starts only once the API listens.
 */
import { resolve } from 'node:path';
import { readApiConfig } from './config.js';
import { readLatchPath } from './trading/safety-config.js';
import type { StoreInitOptions } from './store-init.js';
import { readTradingConfig } from './trading/trading-config.js';
import { assertStrategiesResolve } from './trading/strategy-check.js';
import { ENV_FILE, loadEnv } from './environment.js';
import { SECRETS, writeFirstRunEnvFile } from './env-file.js';
import { tcsNodeArgs } from './package-root.js';
import { readRestartPolicy } from './restart-policy.js';
import { supervise } from './supervisor.js';
import type { ChildSpec } from './supervisor.js';
import { tellOperator } from './tell-operator.js';
import { apiKeySource, consoleHint } from './console-hint.js';

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

  await prepareStore({ ...config, latchPath: readLatchPath(env) });

  if (options.resetKill) {
    // Loaded only here: the supervisor otherwise never touches the store, and the adapters (SQLite,
    // Redis clients) would add to its memory for as long as it runs.
    const { openStore } = await import('../adapters/open-store.js');
    const { resetKillAsOperator } = await import('./kill-reset.js');
    const { authenticatedStore } = await import('../application/authenticated-store.js');
    const store = authenticatedStore(await openStore(config.storeUrl), config.controlSecret);
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
  const code = await supervise({
    command: process.execPath,
    env: { ...env },
    children,
    log: say,
    restart,
    onListening: tellConsoleOnce(config.apiKeys.length),
  });
  process.exit(code);
}

/**
 * A first start's control record, before anything serves. A store that cannot be reached now is not a
 * reason to stop: the processes wait for it and say so, and the trading process's own first start
 * creates the record when it answers (the API answers 503 "unavailable" meanwhile, as /health does).
 */
async function prepareStore(options: Omit<StoreInitOptions, 'now'>): Promise<void> {
  const { initialiseStore, describeInit } = await import('./store-init.js');
  const { storeKey } = await import('../adapters/latch/store-key.js');
  try {
    say(describeInit(await initialiseStore({ ...options, now: Date.now }), storeKey(options.storeUrl)));
  } catch (err) {
    say(`could not prepare the store before starting (${(err as Error).message}); the processes will wait for it`);
  }
}

/** First run: a `.env` with fresh keys for the secrets the environment lacks, and a truthful word about it. */
function writeSecretsOnFirstRun(): void {
  const envPath = resolve(process.cwd(), ENV_FILE);
  const written = writeFirstRunEnvFile(envPath, process.env);
  if (written.length === 0) return;
  const fromEnv = SECRETS.filter((name) => !written.includes(name));
  say(
    `first run: wrote ${envPath} (mode 0600) with a fresh ${written.join(' and ')}` +
      (fromEnv.length > 0
        ? `; ${fromEnv.join(' and ')} ${fromEnv.length > 1 ? 'come' : 'comes'} from the environment`
        : '') +
      (written.includes('SERVICE_API_KEY') ? '; your API key is in that file' : ''),
  );
}

/** Where the console is and how to sign in, once: when the API first listens (a restart says nothing new). */
function tellConsoleOnce(keyCount: number): (child: string, address: string) => void {
  let told = false;
  return (child, address) => {
    if (child !== 'api' || told) return;
    told = true;
    say(consoleHint(address, apiKeySource(process.env, resolve(process.cwd(), ENV_FILE)), keyCount));
  };
}
