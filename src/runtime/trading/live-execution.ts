/**
 * EXECUTION_MODE=live in the trading process: the authenticated exchange client, the live venue on
 * it, and the start-up reconciliation before the first cycle (issue 21). Opened after the lease is
 * held, so a process that does not own the store never reaches the exchange. What a reconciliation
 * does is told: foreign orders cancelled as an `orders_cancelled` line (reason `foreign_orders`),
 * drift as a `position_drift` line (and metric) and an error log line naming the symbols (the venue
 * refuses openings while it stands); its end as a `position_drift` line with no symbols. Before any of
 * it, the account is checked (issue 32, item 5: position mode, multi-assets mode, leverage and margin
 * type, clock skew; src/adapters/live-venue/account-check.ts): a problem is a ConfigError naming what
 * to change on the exchange, so `tcs start` exits 2 before the first order or cancel. Whether the
 * exchange answers is watched on every request (the safety monitor halts trading when it has not
 * for EXCHANGE_LOSS_HALT_MS); every request goes through one gate that sends nothing while the
 * exchange asked to wait (429) or banned the IP (418, a halt: `exchange_banned`).
 */
import { monotonicNow } from '../../ports/clock.js';
import type { Logger } from 'pino';
import type { Exchange } from 'ccxt';
import type { CcxtErrorClasses } from '../../adapters/live-venue/exchange-errors.js';
import { tradedSymbols } from '../../adapters/live-venue/ccxt-mapping.js';
import { UserStream } from '../../adapters/live-venue/user-stream.js';
import { LiveVenue } from '../../adapters/live-venue/live-venue.js';
import type { Reconciliation } from '../../adapters/live-venue/live-venue.js';
import { watchReachability } from '../../adapters/live-venue/exchange-reachability.js';
import type { ExchangeReachability } from '../../adapters/live-venue/exchange-reachability.js';
import { openLiveExchange } from '../../adapters/exchanges/open-exchange.js';
import { exchangeProfile } from '../../adapters/exchanges/registry.js';
import { watchExchangeClock } from '../../adapters/live-venue/exchange-clock.js';
import { createRequestGate } from '../../adapters/live-venue/request-gate.js';
import type { RequestGate, RequestGateOptions } from '../../adapters/live-venue/request-gate.js';
import { eventLine } from '../../domain/event-lines.js';
import { requestBudget } from '../../domain/request-budget.js';
import { LIVE_PEAKS_KEY } from '../../domain/runtime-documents.js';
import type { PeakEntry } from '../../domain/risk/peak-window.js';
import type { Clock } from '../../ports/clock.js';
import { readDocument, writeDocument } from '../../ports/documents.js';
import type { EventStore } from '../../ports/event-store.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { TradingEvents } from '../../ports/trading-events.js';
import type { TradingConfig } from './trading-config.js';
import { verifyLiveAccount } from './live-account.js';
import { openIncomeTally } from './live-income.js';
import { holdsSwitch, openHeldSwitch } from './live-disconnect-switch.js';
import type { HeldSwitch } from './live-disconnect-switch.js';

/**
 * The countdown the exchange cancels by if no cycle re-arms it: three cycles, at least 10 s, at most
 * what the exchange takes (`maxMs`: OKX's 120 s). Null when the most it takes could run out between
 * two cycles (a cycle plus 10 s of slack beyond it): such a switch would cancel our orders while the
 * process lives, so none is armed, and resting orders are left to the exchange-side stops.
 */
export function countdownMsFor(cycleMs: number, maxMs = Infinity): number | null {
  const wanted = Math.max(3 * cycleMs, 10_000);
  if (wanted <= maxMs) return wanted;
  return cycleMs + 10_000 <= maxMs ? maxMs : null;
}

/** The countdown to arm, or null (with a warning) when the exchange's cap is too short for the cycle. */
function switchCountdown(maxMs: number | undefined, cycleMs: number, log: LiveExecutionDeps['log']): number | null {
  const ms = countdownMsFor(cycleMs, maxMs);
  if (ms === null)
    log.warn(
      { cycleMs, maxMs },
      "live venue: the exchange's dead-man's switch is not armed: its longest countdown could run out between two cycles (shorter CYCLE_SECONDS arms it); the exchange-side stops still protect positions",
    );
  return ms;
}

export interface LiveExecution {
  venue: LiveVenue;
  /**
   * Whether the exchange answers, and for how long it may not (EXCHANGE_LOSS_HALT_MS), and the ban
   * standing (one line, or null): the safety monitor judges them.
   */
  exchange: {
    silence: ExchangeReachability['silence'];
    lossHaltMs: number;
    banned(): string | null;
    clockSkew(): string | null;
    /** A held dead-man's switch down past its grace (./live-disconnect-switch.ts); absent: none held. */
    switchDown?(): string | null;
  };
}

interface LiveExecutionDeps {
  clock: Clock;
  windowClock?: Clock;
  log: Logger;
  events: TradingEvents;
  kv: KeyValueStore;
  /** The audit trail, where drift is recorded as it starts, changes and ends (the notifier tells it). */
  audit?: EventStore;
  /** The account's request gate, shared with the live feed's client (`accountGate`); one of its own otherwise. */
  gate?: RequestGate;
}

/**
 * One request gate for the exchange account the live venue trades on, when the live market feed reads
 * the same exchange: Binance limits and bans by IP, so a 418 either client is given must hold back
 * both (issue 32). Null in paper mode or when the feed reads another exchange. A feed on mainnet for
 * a testnet venue shares it too: holding back more than needed after a ban is the safe error.
 */
export function accountGate(config: TradingConfig, clock: Clock): RequestGate | undefined {
  if (config.executionMode !== 'live' || !config.exchange) return undefined;
  if (config.marketData !== `live:${config.exchange.exchange}`) return undefined;
  return createRequestGate(gateClocks(clock));
}

/** Durations on the monotonic clock (no step moves them); the wall clock only names a ban's end. */
function gateClocks(clock: Clock): RequestGateOptions {
  return { monotonic: () => monotonicNow(clock), now: () => clock.now() };
}

/** A start that could only fall behind the exchange's request budget says so (it is an estimate: a warning). */
function warnOfRequestBudget(config: TradingConfig, log: Logger): void {
  const budget = requestBudget({ symbols: config.instruments.length, cycleMs: config.cycleMs });
  if (budget.warning)
    log.warn(
      { weightPerMinute: budget.weightPerMinute, budgetPerMinute: budget.budgetPerMinute },
      `request budget: ${budget.warning}`,
    );
}

/** What the safety monitor judges of the exchange, from hooks on the venue's client (and the gate). */
function watchExchange(
  exchange: Exchange,
  errors: CcxtErrorClasses,
  lossHaltMs: number,
  recvWindowMs: number,
  deps: LiveExecutionDeps,
): { gate: RequestGate; watched: LiveExecution['exchange'] } {
  // Durations only (how long the exchange has not answered, how long it asked to wait): the monotonic
  // clock, which no step moves. The gate first, so a request it holds back is not a silence.
  const gate = deps.gate ?? createRequestGate(gateClocks(deps.clock));
  gate.install(exchange);
  const reachability = watchReachability(exchange, errors, { now: () => monotonicNow(deps.clock) });
  const clock = watchExchangeClock(exchange, {
    now: () => deps.clock.now(),
    monotonic: () => monotonicNow(deps.clock),
    recvWindowMs,
  });
  return {
    gate,
    watched: {
      silence: () => reachability.silence(),
      lossHaltMs,
      banned: () => gate.ban(),
      clockSkew: () => clock.skew(),
    },
  };
}

/** `deps.windowClock`: what the drawdown window is timed on (steady-clock.ts); `clock` when omitted. */
export async function openLiveExecution(config: TradingConfig, deps: LiveExecutionDeps): Promise<LiveExecution> {
  // The drawdown reference survives a restart (a malformed document fails the start, as a fault).
  const account = `${config.exchange?.exchange}:${config.exchange?.testnet ? 'testnet' : 'mainnet'}`;
  const found = await readDocument(deps.kv, LIVE_PEAKS_KEY);
  if (found && found.account !== account)
    deps.log.warn(
      { stored: found.account, account },
      "live venue: the stored drawdown reference is another account's; starting from this one's NAV",
    );
  const stored = found?.account === account ? found : null;
  const { exchange: settings, exchangeCredentials } = config;
  if (!settings || !exchangeCredentials) throw new Error('EXECUTION_MODE=live without exchange settings');
  // The user-data stream only where the exchange's profile says how its trades name our orders.
  const streamed = (settings.userStream ?? false) && exchangeProfile(settings.exchange).userStream !== null;
  // A held dead-man's switch (Bybit's DCP) needs the WebSocket client too (./live-disconnect-switch.ts).
  const holding = holdsSwitch(exchangeProfile(settings.exchange), settings.stops);
  const { exchange, errors, profile } = await openLiveExchange(settings, exchangeCredentials(), {
    timeoutMs: settings.timeoutMs,
    ...(config.exchangeThrottleMs !== null ? { rateLimitMs: config.exchangeThrottleMs } : {}),
    pro: streamed || holding,
  });
  let held: HeldSwitch | null = null;
  const { gate, watched } = watchExchange(exchange, errors, settings.lossHaltMs, profile.recvWindowMs, deps);
  warnOfRequestBudget(config, deps.log);
  const report = reconciliationReporter(deps);
  try {
    await exchange.loadMarkets();
    const { deadMansSwitch: countdown, income } = profile;
    const countdownMs = countdown ? switchCountdown(profile.deadMansSwitchMaxMs, config.cycleMs, deps.log) : null;
    const symbols = tradedSymbols(
      profile.market,
      exchange.markets ?? {},
      config.instruments.map((i) => i.symbol),
    );
    await verifyLiveAccount(exchange, symbols, settings.account, deps);
    held = await openHeldSwitch(profile, exchange, holding, {
      monotonic: () => monotonicNow(deps.clock),
      log: deps.log,
    });
    const userStream = streamed ? userStreamOf(exchange, deps) : undefined;
    const venue = new LiveVenue({
      exchange,
      errors,
      gate,
      symbols,
      ...(income
        ? {
            income: await openIncomeTally(income(exchange), exchange, symbols, account, deps, profile.incomePageSize),
          }
        : {}),
      now: () => deps.clock.now(),
      monotonic: () => monotonicNow(deps.clock),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      drawdownWindowMs: config.drawdownWindowMs,
      windowNow: () => (deps.windowClock ?? deps.clock).now(),
      peaks: {
        initial: (stored?.peaks ?? []) as PeakEntry[],
        save: (peaks) => writeDocument(deps.kv, LIVE_PEAKS_KEY, { account, peaks }),
      },
      report,
      exchangeStops: settings.stops,
      ...(userStream ? { userStream } : {}),
      ...(countdown && countdownMs !== null ? { countdownMs, armCountdown: countdown(exchange) } : {}),
      ...(held ? { disconnectSwitch: held.venue } : {}),
    });
    // Before the first cycle: foreign orders cancelled, positions and our stops adopted, the switch armed.
    await venue.reconcile();
    await venue.armCountdowns();
    userStream?.start();
    deps.log.info(
      { exchange: settings.exchange, testnet: settings.testnet, url: settings.url },
      'live venue: reconciled with the exchange',
    );
    return { venue, exchange: held ? { ...watched, switchDown: held.switchDown } : watched };
  } catch (err) {
    // Let go of the switch before the client closes, or its guard would reconnect on a closed client.
    held?.venue.stop();
    await exchange.close().catch(() => {});
    throw err;
  }
}

/** The user-data stream on the venue's client (./user-stream.ts), its changes logged. */
function userStreamOf(exchange: Exchange, deps: LiveExecutionDeps): UserStream {
  return new UserStream({
    exchange,
    monotonic: () => monotonicNow(deps.clock),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    report: (change) =>
      change.up
        ? deps.log.info({}, 'live venue: user-data stream up')
        : deps.log.warn({ reason: change.reason }, 'live venue: user-data stream down, polling'),
  });
}

/**
 * What each reconciliation found, told: foreign orders cancelled, drift as it starts, changes and
 * ends (an event line, and an audit entry for the notifier: best effort, trading never waits on it).
 */
function reconciliationReporter(deps: {
  log: Logger;
  events: TradingEvents;
  clock: Clock;
  audit?: EventStore | undefined;
}): (r: Reconciliation) => void {
  let drifting = false;
  let lastDrift = '[]';
  return (r) => {
    if (r.foreignCancelled.length > 0)
      deps.events.emit(eventLine.ordersCancelled('foreign_orders', undefined, r.foreignCancelled));
    // One line when the drift starts, changes or ends; not one per cycle while it stands.
    const drift = JSON.stringify(r.drift);
    if (drift !== lastDrift) {
      deps.events.emit(eventLine.positionDrift(r.drift));
      void deps.audit
        ?.append({
          kind: 'position_drift',
          at: new Date(deps.clock.now()).toISOString(),
          body: { drift: r.drift.map((d) => ({ ...d })) },
        })
        .catch((err: unknown) => deps.log.warn({ err }, 'position drift could not be recorded in the audit trail'));
    }
    lastDrift = drift;
    if (r.drift.length > 0) {
      drifting = true;
      deps.log.error(
        { drift: r.drift },
        'position drift: the exchange holds what the system did not trade; no new exposure until it agrees again',
      );
    } else if (drifting) {
      drifting = false;
      deps.log.warn('position drift ended: the exchange agrees with the system again');
    }
  };
}
