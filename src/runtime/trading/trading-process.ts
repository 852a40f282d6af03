/**
 * Composition root of the trading process: config, store, event lines on stdout, diagnostics on
 * stderr, the actor system, optionally the Stately inspector, and a clean shutdown on SIGINT/SIGTERM
 * (the current step finishes, the event store is written, then the store closes). Strategies that
 * do not load are a configuration error (exit 2), found before the store is opened. With
 * --reset-kill it ends a kill first (audited); started on a killed store it says so on stderr.
 */
import { archivedHash } from '../audit-archive.js';
import { systemClock } from '../../ports/clock.js';
import { readControlSecret, readInt } from '../config.js';
import { createLogger } from '../logger.js';
import { exitCleanlyOnSignals } from '../shutdown.js';
import { createStdoutEventLines } from '../../adapters/event-lines/stdout-event-lines.js';
import { resetKillAsOperator } from '../kill-reset.js';
import { killedHint } from '../killed-hint.js';
import { tellOperator } from '../tell-operator.js';
import { isSupervised } from '../supervisor-channel.js';
import { assertStrategiesLoad } from './strategy-check.js';
import { readTradingConfig } from './trading-config.js';
import type { TradingConfig } from './trading-config.js';
import { attachStore } from './attach-store.js';
import { createTradingSystem } from './trading-system.js';

export interface TradingProcessOptions {
  inspect: boolean;
  /** Present for `tcs trade --reset-kill`: the reset happens before the system starts. */
  resetKill?: { reason: string | undefined };
}

const say = tellOperator;

/**
 * Test-only: how often a process waiting for its store retries it (1 s otherwise). The fault tests
 * set 100 ms and count the retries, instead of watching a waiting process for seconds of wall time.
 * Not an operator setting, so not in .env.example.
 */
const TEST_STORE_RETRY_ENV = 'TCS_TEST_STORE_RETRY_MS';

export async function runTradingProcess(env: NodeJS.ProcessEnv, options: TradingProcessOptions): Promise<void> {
  const config = readTradingConfig(env); // ConfigError → exit 2 with the message
  // Read here, not in the trading config: a simulation or a sweep shares no store with anyone.
  const controlSecret = readControlSecret(env);
  await assertStrategiesLoad(config);
  const log = createLogger('tcs-trading', config.logLevel);
  const { store, memory, remember } = await attachStore({
    storeUrl: config.storeUrl,
    controlSecret,
    storeTimeoutMs: config.storeTimeoutMs,
    latchPath: config.safety.latchPath,
    log,
    retryMs: readInt(env, TEST_STORE_RETRY_ENV, 1_000, 10, 60_000),
    now: () => systemClock.now(),
    archivedHash: (seq) => archivedHash(env, seq),
  });
  if (options.resetKill) {
    const reason = options.resetKill.reason;
    say(await resetKillAsOperator(store, reason).catch(closeAnd(store)));
  }
  const lines = createStdoutEventLines();
  const inspector = options.inspect ? await startInspector(log, config, env) : null;
  const system = await createTradingSystem({
    config,
    store,
    lines,
    log,
    // Wall time for stamps, performance.now for every duration: a wall-clock step never ends a halt
    // nor `reducing` (src/ports/clock.ts, steady-clock.ts).
    clock: systemClock,
    memory,
    remember,
    ...(inspector ? { inspect: inspector.inspect } : {}),
    onLeaseLost: () => {
      // Another process owns the store now: every account write of this one is refused already.
      log.fatal('the trading lease passed to another process; stopping');
      void system.stop('lease lost').finally(() => process.exit(1));
    },
  });
  log.info({ store: store.description, cycleMs: config.cycleMs, state: system.state() }, 'trading process started');
  if (system.state() === 'killed') {
    // Under `tcs start` the reset is the launcher's flag; run alone (docker compose) it is this command's.
    say(killedHint(await store.control.read(), isSupervised() ? 'npm start --' : 'tcs trade'));
  }

  exitCleanlyOnSignals(log, 'trading process', async (signal) => {
    await system.stop(signal);
    await store.close();
    await inspector?.stop();
  });
}

/** Closes the store before rethrowing a start-up failure, so nothing is left half open. */
function closeAnd(store: { close(): Promise<void> }) {
  return async (err: unknown): Promise<never> => {
    await store.close().catch(() => {});
    throw err;
  };
}

/**
 * Connects to the Stately inspector over WebSocket (see docs/develop/inspecting-machines.md: `--inspect`). Loaded only when asked.
 * With nothing listening it says so once on stderr and trading goes on; the secrets are checked out
 * of every frame.
 */
async function startInspector(log: ReturnType<typeof createLogger>, config: TradingConfig, env: NodeJS.ProcessEnv) {
  const { connectInspector, INSPECTOR_RETRY_MS } = await import('../../adapters/inspector/websocket-inspector.js');
  log.info({ url: config.inspectUrl }, 'Stately inspector: actor events are sent over WebSocket');
  return connectInspector({
    url: config.inspectUrl,
    secrets: [config.hmacSecret, env.SERVICE_API_KEY?.trim() ?? '', env.CONTROL_SECRET?.trim() ?? ''],
    warn: say,
    info: (message) => log.info({ url: config.inspectUrl }, message),
    // Test-only (not in .env.example): the e2e test retries every 100 ms instead of waiting out 5 s.
    retryMs: readInt(env, 'TCS_TEST_INSPECT_RETRY_MS', INSPECTOR_RETRY_MS, 10, 60_000),
  });
}
