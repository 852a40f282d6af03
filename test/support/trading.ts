/**
 * A real trading system for tests: the full actor system with the paper venue on a real store,
 * driven by a SimulatedClock (timers and "now"), event lines captured in memory.
 */
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { SimulatedClock } from 'xstate';
import { generateKey } from '../../src/domain/keys.js';
import { createStdoutEventLines } from '../../src/adapters/event-lines/stdout-event-lines.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';
import type { TradingConfig } from '../../src/runtime/trading/trading-config.js';
import { createTradingSystem } from '../../src/runtime/trading/trading-system.js';
import type { TradingSystem, TradingSystemDeps } from '../../src/runtime/trading/trading-system.js';
import { openTestStore } from './stores.js';
import type { StoreKind, TestStore } from './stores.js';

/** A .js strategy: processes started with it load no tsx (see the fixture's comment). */
export const ALWAYS_LONG = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));
export const START = Date.UTC(2026, 0, 5, 12, 0, 0);

export interface TestTrading extends TestStore {
  system: TradingSystem;
  config: TradingConfig;
  clock: SimulatedClock;
  lines: Array<Record<string, unknown> & { event: string }>;
  events(name: string): Array<Record<string, unknown>>;
  /** Advances simulated time and waits for the cycle it triggers to finish. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Settings that make every cycle propose a small passive BTC order that the guards approve. */
export const PERMISSIVE_ENV = {
  STRATEGIES: ALWAYS_LONG,
  SYMBOLS: 'BTCUSDT,ETHUSDT',
  ORDER_STYLE: 'passive',
  RISK_FRACTION: '0.01',
  RISK_MAX_SYMBOL_EXPOSURE: '50',
  RISK_MAX_TOTAL_EXPOSURE: '50',
  RISK_MAX_LEVERAGE: '50',
  // 50× leverage needs margin of at most 2 % (the configuration refuses leverage × margin above 1).
  MARGIN_INITIAL_RATE: '0.02',
  MARGIN_MAINTENANCE_RATE: '0.01',
  CYCLE_SECONDS: '60',
  LOG_LEVEL: 'silent',
};

export async function openTestTrading(
  kind: StoreKind,
  env: Record<string, string> = {},
  existing?: TestStore,
  options: Partial<Pick<TradingSystemDeps, 'inspect' | 'feed' | 'log' | 'publishing'>> = {},
): Promise<TestTrading> {
  const testStore = existing ?? (await openTestStore(kind));
  const config = readTradingConfig({
    RISK_HMAC_SECRET: generateKey(),
    STORE_URL: testStore.url,
    ...PERMISSIVE_ENV,
    // In-process systems have no API process beside them (the fault tests run the real processes).
    CONTROL_PLANE_TIMEOUT: '0',
    ...env,
  });
  const clock = new SimulatedClock();
  clock.set(START);
  const lines: TestTrading['lines'] = [];
  const sink = { write: (line: string) => lines.push(JSON.parse(line)) };
  const system = await createTradingSystem({
    config,
    store: testStore.store,
    lines: createStdoutEventLines(sink),
    clock,
    timers: clock,
    backgroundTimers: false,
    ...options,
    log: options.log ?? pino({ level: 'silent' }),
  });
  await system.settled();
  return {
    ...testStore,
    system,
    config,
    clock,
    lines,
    events: (name) => lines.filter((l) => l.event === name),
    async advance(ms) {
      clock.increment(ms);
      await system.settled();
    },
    async close() {
      await system.stop('test over');
      if (!existing) await testStore.cleanup();
    },
  };
}
