/**
 * The trading system for benchmarks: config from an env-like object (fresh RISK_HMAC_SECRET, silent
 * logs), a no-op event-line sink, the symbol lists, and the whole actor system on a SimulatedClock
 * (clock and timers) with background timers off, driven one cycle at a time.
 */
import { pino } from 'pino';
import { SimulatedClock } from 'xstate';
import type { Store } from '../src/ports/store.js';
import { generateKey } from '../src/domain/keys.js';
import { createStdoutEventLines } from '../src/adapters/event-lines/stdout-event-lines.js';
import type { StdoutEventLines } from '../src/adapters/event-lines/stdout-event-lines.js';
import { readTradingConfig } from '../src/runtime/trading/trading-config.js';
import type { TradingConfig } from '../src/runtime/trading/trading-config.js';
import { createTradingSystem } from '../src/runtime/trading/trading-system.js';
import type { TradingSystem } from '../src/runtime/trading/trading-system.js';

export const TEN_SYMBOLS = 'BTCUSDT,ETHUSDT,SOLUSDT,BNBUSDT,XRPUSDT,ADAUSDT,DOGEUSDT,AVAXUSDT,DOTUSDT,LINKUSDT';

/** S001USDT,S002USDT,… */
export function generatedSymbols(count: number): string {
  return Array.from({ length: count }, (_, i) => `S${String(i + 1).padStart(3, '0')}USDT`).join(',');
}

export const noopLines = (): StdoutEventLines => createStdoutEventLines({ write: () => true });
export const silentLog = () => pino({ level: 'silent' });

export function benchTradingConfig(url: string, env: Record<string, string> = {}): TradingConfig {
  // No API process runs beside a bench's trading system, so there is no control plane to wait for.
  const base = { RISK_HMAC_SECRET: generateKey(), STORE_URL: url, LOG_LEVEL: 'silent', CONTROL_PLANE_TIMEOUT: '0' };
  if (env.MARKET_DATA !== undefined && env.MARKET_DATA !== 'synthetic') return readTradingConfig({ ...base, ...env });
  // A configuration may name only the five markets the synthetic market knows (d2ee5d9: a typo is not
  // a new market), but the 10- and 100-symbol benches want the feed's made-up markets on purpose. So
  // the rest of the configuration is read as for a replay (which skips only that check) and the
  // market set back to synthetic; everything else comes from the same variables.
  const config = readTradingConfig({ ...base, ...env, MARKET_DATA: 'file:unused' });
  return { ...config, marketData: 'synthetic' };
}

/** Simulated start time (a Monday noon UTC), as the tests use. */
export const SIM_START = Date.UTC(2026, 0, 5, 12, 0, 0);

export interface SimulatedTrading {
  system: TradingSystem;
  clock: SimulatedClock;
  config: TradingConfig;
  /** One cycle: advance simulated time by the cycle interval and wait until it settled. */
  cycle(): Promise<void>;
}

/** The whole actor system on `store`, with a SimulatedClock as both clock and timers; the first cycle has settled. */
export async function openSimulatedTrading(
  store: Store,
  url: string,
  env: Record<string, string>,
): Promise<SimulatedTrading> {
  const config = benchTradingConfig(url, env);
  const clock = new SimulatedClock();
  clock.set(SIM_START);
  const system = await createTradingSystem({
    config,
    store,
    lines: noopLines(),
    log: silentLog(),
    clock,
    timers: clock,
    backgroundTimers: false,
  });
  await system.settled();
  return {
    system,
    clock,
    config,
    async cycle() {
      clock.increment(config.cycleMs);
      await system.settled();
    },
  };
}
