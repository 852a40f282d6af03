/**
 * Composition root of the trading process: config, store, event lines on stdout, diagnostics on
 * stderr, the actor system, optionally the Stately inspector, and a clean shutdown on SIGINT/SIGTERM
 * (the current step finishes, the event store is written, then the store closes).
 */
import { openStore } from '../../adapters/open-store.js';
import { systemClock } from '../../ports/clock.js';
import { createLogger } from '../logger.js';
import { exitCleanlyOnSignals } from '../shutdown.js';
import { createStdoutEventLines } from '../../adapters/event-lines/stdout-event-lines.js';
import { readTradingConfig } from './trading-config.js';
import { createTradingSystem } from './trading-system.js';

export async function runTradingProcess(env: NodeJS.ProcessEnv, options: { inspect: boolean }): Promise<void> {
  const config = readTradingConfig(env); // ConfigError → exit 2 with the message
  const log = createLogger('tcs-trading', config.logLevel);
  const store = await openStore(config.storeUrl, { timeoutMs: config.storeTimeoutMs });
  const lines = createStdoutEventLines();
  const inspector = options.inspect ? await startInspector(log, config.inspectUrl) : null;
  const system = await createTradingSystem({
    config,
    store,
    lines,
    log,
    clock: systemClock,
    ...(inspector ? { inspect: inspector.inspect } : {}),
  });
  log.info({ store: store.description, cycleMs: config.cycleMs, state: system.state() }, 'trading process started');

  exitCleanlyOnSignals(log, 'trading process', async (signal) => {
    await system.stop(signal);
    await store.close();
    await inspector?.stop();
  });
}

/** Connects to the Stately inspector over WebSocket (see README: `--inspect`). Loaded only when asked. */
async function startInspector(log: ReturnType<typeof createLogger>, url: string) {
  const { createWebSocketInspector } = await import('@statelyai/inspect');
  const inspector = createWebSocketInspector({ url });
  log.info({ url }, 'Stately inspector: actor events are sent over WebSocket');
  return inspector;
}
