/**
 * The cycle's two I/O steps, supplied to the cycle statechart: `loadMarket` (re-read the control
 * record, pick up queued commands, advance the market, cancel through the order manager what could add
 * risk in a drawdown breach, let resting orders fill, record their fills and the venue's liquidations
 * as event lines and audit entries) and `recordDecision`
 * (the DecisionLog entry in the hash-chained event store, then the account for the API, and the
 * optional drawdown circuit breaker).
 */
import type { ControlRecord } from '../domain/control.js';
import { eventLine } from '../domain/event-lines.js';
import type { Liquidation } from '../domain/margin.js';
import type { Instrument, MarketView } from '../domain/market.js';
import { exchangeStops, isExchangeStopId } from '../domain/exchange-stops.js';
import { EMPTY_PROTECTION_STATE } from '../domain/protection.js';
import type { ProtectionSettings, ProtectionState } from '../domain/protection.js';
import type { AccountSnapshot } from '../domain/portfolio.js';
import type { RiskTradingState } from '../domain/risk/trading-state.js';
import type { Clock } from '../ports/clock.js';
import type { MarketFeed } from '../ports/market-feed.js';
import type { Store } from '../ports/store.js';
import type { TradingEvents } from '../ports/trading-events.js';
import type { Venue } from '../ports/venue.js';
import type { CycleRecord, LoadedMarket } from '../../machines/cycle.machine.js';
import { checkCircuitBreaker, drawdownOf } from './circuit-breaker.js';
import { decisionEntry } from './decision-entry.js';
import type { FillAudit } from './fill-audit.js';
import type { CancelRequest } from './oms-cancel.js';

export interface CycleIoDeps {
  store: Store;
  venue: Venue;
  feed: MarketFeed;
  clock: Clock;
  /** What the drawdown window is timed on (a wall-clock step cannot move it); `clock` when omitted. */
  windowClock?: Clock;
  events: TradingEvents;
  /** Where the fills the market's advance reports (resting orders, exchange stops) are told and recorded. */
  fillAudit: FillAudit;
  circuitBreakerDrawdown: number | null;
  /** RISK_MAX_DRAWDOWN: in a breach, resting orders that could add risk are cancelled. */
  maxDrawdown: number;
  instruments: readonly Instrument[];
  /** Keeps the cycle's market for work done between cycles (commands). */
  rememberMarket(market: MarketView): void;
  /** Told the cycle's market and the time its orders are judged at (market-freshness.ts: stale data said). */
  marketJudged?(market: MarketView, now: number): void;
  /** Publishes the account after the cycle. */
  accountChanged(): Promise<void>;
  /** When the cycle began (its cycle_start), for the entry's duration. */
  cycleStartedAt(cycle: number): number | undefined;
  /** Stores the protective exits' state (trailing best prices, cooldowns) when a cycle changed it. */
  saveProtection?(state: ProtectionState): Promise<void>;
  /** Stores who owns each held position (symbol → agent) when a cycle changed it. */
  saveOwners?(owners: Readonly<Record<string, string>>): Promise<void>;
  /**
   * EXCHANGE_STOPS in live mode: after each decision the venue rests a stop per open position at the
   * protective exits' level (src/domain/exchange-stops.ts), from the stored protection state (trailing
   * best prices, owners). `failed` is told when the exchange refused or could not be reached: the
   * stop already resting stays, and the next cycle tries again.
   */
  exchangeStops?: {
    settings: ProtectionSettings;
    state(): Promise<ProtectionState | null>;
    failed(err: unknown): void;
  };
}

/** What a cycle's steps reach in the running system, given per cycle by the actor that runs them. */
export interface CycleLinks {
  /** Cancels through the order manager (a job like every venue mutation). */
  cancel: CancelRequest;
  /** Brings the root actor to a record's state (the same path as store notifications). */
  syncControl(record: ControlRecord): void;
  /** Claims queued commands and hands them to the root actor. */
  pumpCommands(): Promise<void>;
  /** The risk engine's state (machines/system.ts riskStateOf); null when unknown. */
  riskState?(): RiskTradingState | null;
}

export function createCycleIo(deps: CycleIoDeps) {
  /** Each liquidation as an event line and an audit entry: the venue acted, not the system. */
  const recordLiquidations = async (liquidations: readonly Liquidation[]): Promise<void> => {
    for (const liquidation of liquidations) {
      const line = eventLine.positionLiquidated(liquidation);
      deps.events.emit(line);
      const at = new Date(liquidation.ts).toISOString();
      await deps.store.events.append({
        kind: 'position_liquidated',
        at,
        symbol: liquidation.symbol,
        body: { ...line },
      });
    }
  };

  /**
   * In a drawdown breach (and while the risk engine is `reducing`) the risk engine approves nothing that adds risk, but orders approved before
   * the breach may still rest at the venue and fill during it. So when the account, marked to the new
   * market, is in breach, the resting orders of every symbol that has an order able to add risk are
   * cancelled before the market can fill them (cancels are always allowed; a reduce-only close caught
   * up in it is sized again by the allocator in the same cycle). The cancel is an order manager job.
   */
  const cancelOpeningOrdersInBreach = async (
    market: MarketView,
    cancel: CancelRequest,
    reducing: boolean,
  ): Promise<void> => {
    const marked = await deps.venue.account(market);
    // `reducing` outlives the breach that started it (a bounce, a restart with a looser limit): while
    // the engine reduces, nothing resting may open exposure either.
    if (!reducing && drawdownOf(marked) < deps.maxDrawdown) return;
    const symbols = [
      ...new Set(marked.openOrders.filter((o) => o.status === 'open' && !o.reduceOnly).map((o) => o.symbol)),
    ];
    if (symbols.length === 0) return;
    await cancel('drawdown_breach', symbols);
  };

  const loadMarket = async ({ epoch }: { epoch: number }, links: CycleLinks): Promise<LoadedMarket> => {
    // The notification path is fast but not guaranteed; re-reading here bounds any miss to a cycle.
    const control = await deps.store.control.read();
    links.syncControl(control);
    const now = deps.clock.now();
    if (control.state !== 'running' || control.epoch !== epoch) {
      // The cycle is superseded: touch neither the market nor the venue (nothing fills while paused).
      return { now, market: new Map(), account: await deps.venue.account(), control };
    }
    await links.pumpCommands();
    const market = await deps.feed.next(now);
    deps.rememberMarket(market);
    await cancelOpeningOrdersInBreach(market, links.cancel, links.riskState?.() === 'reducing');
    const update = await deps.venue.onMarket(market);
    // Not the cycle's own submissions (those are in its decision): each gets an entry of its own.
    await deps.fillAudit.record(update.fills, 'market');
    if (update.cancelled.length > 0) {
      const reason = update.liquidations.length > 0 ? 'liquidation' : 'expired';
      deps.events.emit(eventLine.ordersCancelled(reason, undefined, update.cancelled));
    }
    await recordLiquidations(update.liquidations);
    // A fill of our exchange stop: the exchange stopped the position out, and the cooldown starts.
    const stopped = [...new Set(update.fills.filter((f) => isExchangeStopId(f.clientOrderId)).map((f) => f.symbol))];
    const account = await deps.venue.account(market);
    // The cycle's time from here on (tokens, the data's age in the risk engine) is read after the
    // market: a live feed may take its whole budget, and data judged by the time before the wait
    // would look up to that budget fresher than it is.
    const judgedAt = deps.clock.now();
    deps.marketJudged?.(market, judgedAt);
    return {
      now: judgedAt,
      steady: (deps.windowClock ?? deps.clock).now(),
      market,
      account,
      control,
      ...(stopped.length > 0 ? { stopped } : {}),
    };
  };

  /** The exchange's stops brought to the positions after the cycle's fills (a failure never ends the cycle). */
  const restStops = async (positions: AccountSnapshot['positions']): Promise<void> => {
    const stops = deps.exchangeStops;
    if (!stops || !deps.venue.protect) return;
    try {
      const state = (await stops.state()) ?? EMPTY_PROTECTION_STATE;
      await deps.venue.protect(exchangeStops(positions, state, stops.settings));
    } catch (err) {
      stops.failed(err);
    }
  };

  const recordDecision = async (record: CycleRecord, links: CycleLinks): Promise<void> => {
    const now = deps.clock.now();
    const startedAt = deps.cycleStartedAt(record.cycle) ?? record.now ?? now;
    const entry = decisionEntry(record, Math.round(now - startedAt));
    const at = new Date(now).toISOString();
    await deps.store.events.append({ kind: 'decision', at, symbol: entry.symbol, body: entry.body });
    // After the decision: a restart between the two judges the next bar against the older best price.
    if (record.protection) await deps.saveProtection?.(record.protection);
    if (record.owners) await deps.saveOwners?.(record.owners);
    await deps.accountChanged();
    const account = await deps.venue.account();
    await restStops(account.positions);
    const tripped = await checkCircuitBreaker(deps.store, deps.instruments, account, deps.circuitBreakerDrawdown, at);
    if (tripped) links.syncControl(tripped);
    // Last: what it starts may hold the exchange client's throttle for a while, and nothing of this
    // cycle is left to send.
    deps.venue.idle?.();
  };

  return { loadMarket, recordDecision };
}
