/**
 * The cycle's two I/O steps, supplied to the cycle statechart: `loadMarket` (re-read the control
 * record, pick up queued commands, advance the market, let resting orders fill) and
 * `recordDecision` (the DecisionLog entry in the hash-chained event store, then the portfolio,
 * metrics and heartbeat for the API; and the optional drawdown circuit breaker).
 */
import type { ControlRecord } from '../../domain/control.js';
import type { Instrument, MarketView } from '../../domain/market.js';
import { pullKillSwitch } from '../../application/kill-switch.js';
import type { AccountSnapshot } from '../../domain/portfolio.js';
import type { Clock } from '../../ports/clock.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import type { Store } from '../../ports/store.js';
import type { Venue } from '../../ports/venue.js';
import type { CycleRecord, LoadedMarket } from '../../../machines/cycle.machine.js';
import type { EventLines } from './event-lines.js';
import type { TradingMetrics } from './trading-metrics.js';
import { decisionEntry } from './decision-entry.js';

export interface CycleIoDeps {
  store: Store;
  venue: Venue;
  feed: MarketFeed;
  clock: Clock;
  lines: EventLines;
  metrics: TradingMetrics;
  circuitBreakerDrawdown: number | null;
  instruments: readonly Instrument[];
  /** Brings the root actor to a record's state (the same path as store notifications). */
  syncControl(record: ControlRecord): void;
  pumpCommands(): Promise<void>;
  rememberMarket(market: MarketView): void;
  publish(account: AccountSnapshot): Promise<void>;
  cycleStartedAt(cycle: number): number | undefined;
}

export function createCycleIo(deps: CycleIoDeps) {
  const loadMarket = async ({ epoch }: { epoch: number }): Promise<LoadedMarket> => {
    // The notification path is fast but not guaranteed; re-reading here bounds any miss to a cycle.
    const control = await deps.store.control.read();
    deps.syncControl(control);
    const now = deps.clock.now();
    if (control.state !== 'running' || control.epoch !== epoch) {
      // The cycle is superseded: touch neither the market nor the venue (nothing fills while paused).
      return { now, market: new Map(), account: await deps.venue.account(), control };
    }
    await deps.pumpCommands();
    const market = await deps.feed.next(now);
    deps.rememberMarket(market);
    const fills = await deps.venue.onMarket(market);
    for (const fill of fills) {
      deps.metrics.fills.inc({ liquidity: fill.liquidity });
      deps.lines.other('order_filled', {
        symbol: fill.symbol,
        side: fill.side,
        qty: fill.qty,
        price: fill.price,
        fee: fill.fee,
        liquidity: fill.liquidity,
        client_order_id: fill.clientOrderId,
      });
    }
    const account = await deps.venue.account(market);
    return { now, market, account, control };
  };

  const recordDecision = async (record: CycleRecord): Promise<void> => {
    const now = deps.clock.now();
    const startedAt = deps.cycleStartedAt(record.cycle) ?? record.now ?? now;
    const entry = decisionEntry(record, Math.round(now - startedAt));
    await deps.store.events.append({
      kind: 'decision',
      at: new Date(now).toISOString(),
      symbol: entry.symbol,
      body: entry.body,
    });
    const account = await deps.venue.account();
    await deps.publish(account);
    const breaker = deps.circuitBreakerDrawdown;
    if (breaker !== null && account.peakNav > 0 && (account.peakNav - account.nav) / account.peakNav >= breaker) {
      const drawdown = (account.peakNav - account.nav) / account.peakNav;
      // The same kill the API performs: the store transition plus the durable cancel command.
      const reason = `drawdown circuit breaker: ${(drawdown * 100).toFixed(2)}% from peak NAV ≥ ${(breaker * 100).toFixed(2)}%`;
      const { result } = await pullKillSwitch(deps.store, deps.instruments, reason, {
        actor: 'trading:circuit-breaker',
        at: new Date(now).toISOString(),
      });
      deps.syncControl(result.record);
    }
  };

  return { loadMarket, recordDecision };
}
