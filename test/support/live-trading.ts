/**
 * A trading system in this process on real time (the system clock, XState's real timers and the
 * background timers: safety ticks, lease renewals, heartbeats), over a store a fault test breaks on
 * purpose. For faults whose timing is the point (a lease that must not expire unseen, a store that
 * stops taking writes); the rest of the suite drives a SimulatedClock (test/support/trading.ts).
 */
import { pino } from 'pino';
import { createStdoutEventLines } from '../../src/adapters/event-lines/stdout-event-lines.js';
import { generateKey } from '../../src/domain/keys.js';
import { systemClock } from '../../src/ports/clock.js';
import type { MarketFeed } from '../../src/ports/market-feed.js';
import type { Store } from '../../src/ports/store.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';
import { createTradingSystem } from '../../src/runtime/trading/trading-system.js';
import type { TradingSystem } from '../../src/runtime/trading/trading-system.js';
import { PERMISSIVE_ENV } from './trading.js';

export interface LiveTrading {
  system: TradingSystem;
  lines: Array<Record<string, unknown> & { event: string }>;
  /** How many times the system said its lease passed to another process. */
  leaseLost(): number;
  /** The reason of the root's safety halt now (null when none). */
  halt(): string | null;
  /** The message of the root's safety halt now (null when none). */
  haltMessage(): string | null;
  close(): Promise<void>;
}

/** `feed`: market data of the test's own instead of the live feed (the venue stays the live one). */
export async function openLiveTrading(
  store: Store,
  url: string,
  env: Record<string, string>,
  feed?: MarketFeed,
): Promise<LiveTrading> {
  const config = readTradingConfig({
    RISK_HMAC_SECRET: generateKey(),
    STORE_URL: url,
    ...PERMISSIVE_ENV,
    CONTROL_PLANE_TIMEOUT: '0',
    CYCLE_SECONDS: '0.25',
    HEARTBEAT_MS: '200',
    ...env,
  });
  const lines: LiveTrading['lines'] = [];
  let lost = 0;
  const system = await createTradingSystem({
    config,
    store,
    lines: createStdoutEventLines({ write: (line: string) => lines.push(JSON.parse(line)) }),
    log: pino({ level: 'silent' }),
    clock: systemClock,
    onLeaseLost: () => void lost++,
    ...(feed ? { feed } : {}),
  });
  return {
    system,
    lines,
    leaseLost: () => lost,
    halt: () => system.actor.getSnapshot().context.halt?.reason ?? null,
    haltMessage: () => system.actor.getSnapshot().context.halt?.message ?? null,
    close: () => system.stop('test over'),
  };
}

/** Polls `condition` every 10 ms until it holds; fails after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
