/**
 * Metrics of the trading process (label process="trading"; its own metrics are prefixed tcs_trading_,
 * prom-client's process and Node.js metrics keep their standard names, which the API shares). Counters are derived from the event lines (`observe`), so a
 * line and its metric can never disagree; the account and state gauges are set by the publisher.
 * The text is published to the store with the heartbeat and the API appends it to its /metrics.
 */
import { RISK_TRADING_STATES } from '../../domain/risk/trading-state.js';
import type { RiskTradingState } from '../../domain/risk/trading-state.js';
import { HELD_KINDS } from '../../domain/request-weight.js';
import type { HeldKind, RequestWeight } from '../../domain/request-weight.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SYSTEM_STATES } from '../../domain/control.js';
import type { EventLine } from '../../domain/event-lines.js';
import type { SystemState } from '../../domain/control.js';
import type { AccountSnapshot } from '../../domain/portfolio.js';
import { positionNotional } from '../../domain/portfolio.js';
import { DEFAULT_MARGIN_TABLE, marginRatesFor } from '../../domain/margin.js';
import type { MarginTable } from '../../domain/margin.js';
import { projectAccount, worstAbsPosition } from '../../domain/risk/projection.js';
import { cycleFunnel } from '../../domain/signal-funnel.js';
import type { FunnelRecord } from '../../domain/signal-funnel.js';

/**
 * Initial margin the account ties up as the risk engine counts it: per perpetual symbol, the configured
 * initial rate × the worst-case |position| (every resting order on the larger side filling) at its
 * mark. Spot needs none. A symbol with orders but no position counts as a perpetual.
 */
function marginUsed(account: AccountSnapshot, table: MarginTable): number {
  let total = 0;
  for (const book of projectAccount(account).books.values()) {
    if (book.kind === 'spot') continue;
    total += marginRatesFor(table, book).initial * worstAbsPosition(book) * book.mark;
  }
  return total;
}

/** Notional of what resting orders can still add: Σ remaining × limit price, reduce-only ones excluded. */
export function restingExposure(account: AccountSnapshot): number {
  let total = 0;
  for (const o of account.openOrders) {
    const remaining = o.qty - o.filledQty;
    if (o.status !== 'open' || o.reduceOnly || !(remaining > 0) || o.limitPrice === null) continue;
    total += remaining * o.limitPrice;
  }
  return total;
}

export class TradingMetrics {
  readonly registry = new Registry();
  /** Wall-clock steps seen (src/application/clock-steps.ts): durations are not affected, timestamps are. */
  readonly clockSteps = new Counter({
    name: 'tcs_trading_clock_steps_total',
    help: 'Steps of the wall clock beyond 2 s seen by the trading process (durations use the monotonic clock)',
    labelNames: ['direction'] as const,
    registers: [this.registry],
  });
  readonly cycles = new Counter({
    name: 'tcs_trading_cycles_total',
    help: 'Cycles run, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly cycleDuration = new Histogram({
    name: 'tcs_trading_cycle_duration_seconds',
    help: 'Duration of a cycle from cycle_start to cycle_end',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });
  readonly signals = new Counter({
    name: 'tcs_trading_signals_total',
    help: 'Signals by agent and what the cycle made of them: outcome (ordered, filled, refused, risk_denied, skipped, no_change, invalid, errored) and reason (the arbiter, allocator or guard code)',
    labelNames: ['agent', 'outcome', 'reason'] as const,
    registers: [this.registry],
  });
  readonly agentErrors = new Counter({
    name: 'tcs_trading_agent_errors_total',
    help: 'Errors thrown by strategy agents (one per symbol and cycle), by agent',
    labelNames: ['agent'] as const,
    registers: [this.registry],
  });
  readonly invalidSignals = new Counter({
    name: 'tcs_trading_invalid_signals_total',
    help: 'Signals discarded as INVALID_SIGNAL (another symbol or agent, bad numbers), by agent',
    labelNames: ['agent'] as const,
    registers: [this.registry],
  });
  readonly approvals = new Counter({
    name: 'tcs_trading_risk_approvals_total',
    help: 'Orders approved by the risk engine',
    registers: [this.registry],
  });
  readonly denials = new Counter({
    name: 'tcs_trading_risk_denials_total',
    help: 'Orders denied, by guard and code',
    labelNames: ['guard', 'code'] as const,
    registers: [this.registry],
  });
  readonly orders = new Counter({
    name: 'tcs_trading_orders_total',
    help: 'Orders offered to the venue, by result',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly fills = new Counter({
    name: 'tcs_trading_fills_total',
    help: 'Fills received from the venue',
    labelNames: ['liquidity'] as const,
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: 'tcs_trading_submissions_refused_total',
    help: 'Submissions the order manager refused, by code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  readonly commandsUnrecorded = new Counter({
    name: 'tcs_trading_commands_unrecorded_total',
    help: 'Commands whose completion and audit entry the store refused (not done; handed out again when their lease expires), by type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  readonly nav = new Gauge({
    name: 'tcs_trading_nav',
    help: 'Net asset value (quote currency)',
    registers: [this.registry],
  });
  readonly drawdown = new Gauge({
    name: 'tcs_trading_drawdown_ratio',
    help: 'Drawdown from peak NAV (fraction)',
    registers: [this.registry],
  });
  readonly leverage = new Gauge({
    name: 'tcs_trading_leverage_ratio',
    help: 'Gross notional / NAV',
    registers: [this.registry],
  });
  readonly marginUsed = new Gauge({
    name: 'tcs_trading_margin_used',
    help: 'Initial margin tied up by perpetual positions and the resting orders that can add to them (quote currency)',
    registers: [this.registry],
  });
  readonly restingExposure = new Gauge({
    name: 'tcs_trading_resting_order_exposure',
    help: 'Notional resting orders can still add when they fill (quote currency; reduce-only excluded)',
    registers: [this.registry],
  });
  readonly state = new Gauge({
    name: 'tcs_trading_state',
    help: 'State of the trading root actor (1 = current): running, paused, killed, or halted (a safety halt while running or paused: it opens nothing; tcs_trading_halt says why)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly halt = new Gauge({
    name: 'tcs_trading_halt',
    help: 'The safety halt the trading process is in, by reason (1 = current; every reason seen before is 0)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  /** The control state last seen and the current halt's reason, from which tcs_trading_state derives. */
  private control: SystemState | null = null;
  private halted: string | null = null;
  readonly riskState = new Gauge({
    name: 'tcs_trading_risk_state',
    help: 'State of the risk engine: active, reducing (drawdown beyond its limit: only closes), halted (killed) (1 = current)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly positionDrift = new Gauge({
    name: 'tcs_trading_position_drift',
    help: "Symbols whose exchange position the system's own fills do not explain (live venue); openings are refused while above 0",
    registers: [this.registry],
  });
  readonly marketDataAge = new Gauge({
    name: 'tcs_trading_market_data_age_seconds',
    help: "Age of each symbol's market data at the last cycle's time; beyond FEED_STALE_MS openings in it are refused LIQUIDITY_STALE",
    labelNames: ['symbol'] as const,
    registers: [this.registry],
  });
  readonly marketDataStale = new Gauge({
    name: 'tcs_trading_market_data_stale',
    help: 'Symbols whose market data was older than FEED_STALE_MS at the last cycle (openings in them refused LIQUIDITY_STALE)',
    registers: [this.registry],
  });
  readonly riskTransitions = new Counter({
    name: 'tcs_trading_risk_state_transitions_total',
    help: "The risk engine's state changes, by the state left and the state entered",
    labelNames: ['from', 'to'] as const,
    registers: [this.registry],
  });

  /** The live venue's request weight (src/domain/request-weight.ts): the share of the minute's limit used. */
  readonly requestWeightShare = new Gauge({
    name: 'tcs_trading_request_weight_share',
    help: "Share of the exchange's request weight limit used this minute (reads and openings are held from 0.8, everything at 1)",
    registers: [this.registry],
  });
  readonly requestsHeld = new Counter({
    name: 'tcs_trading_requests_held_total',
    help: 'Exchange requests held back unsent by the request weight budget or an exchange wait (429/418), by kind (read, opening, close)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  /** The held totals last counted: the venue reports totals, the counter is raised by the difference. */
  private heldCounted: Record<HeldKind, number> = { read: 0, opening: 0, close: 0 };

  /** `margin`: the same rates the paper venue and the risk engine use. */
  constructor(private readonly margin: MarginTable = DEFAULT_MARGIN_TABLE) {
    this.registry.setDefaultLabels({ process: 'trading' });
    // No prefix: the same names as the API's process metrics, told apart by process="trading".
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts what an event line reports. */
  observe(line: EventLine): void {
    switch (line.event) {
      case 'agent_error':
        return this.agentErrors.inc({ agent: line.agent });
      case 'risk_approved':
        return this.approvals.inc();
      case 'risk_rejected':
        return this.denials.inc({ guard: line.guard, code: line.code });
      case 'order_submitted':
        return this.orders.inc({ result: 'submitted' });
      case 'order_rejected':
        return this.orders.inc({ result: 'rejected' });
      case 'order_refused':
        return this.refusals.inc({ code: line.code });
      case 'order_filled':
        return this.fills.inc({ liquidity: line.liquidity });
      case 'cycle_end':
        return this.cycleDuration.observe(line.duration_ms / 1000);
      case 'control_changed':
        return this.observeState(line.state);
      case 'trading_halted':
        return this.observeHalt(line.reason);
      case 'trading_halt_ended':
        return this.observeHalt(null);
      case 'command_unrecorded':
        return this.commandsUnrecorded.inc({ type: line.type });
      case 'position_drift':
        return this.positionDrift.set(line.drift.length);
      case 'market_data_stale':
        return this.marketDataStale.set(line.stale.length);
      case 'risk_state_changed':
        this.riskTransitions.inc({ from: line.from, to: line.to });
        return this.observeRiskState(line.to as RiskTradingState);
      default:
        return;
    }
  }

  /**
   * What became of each signal of a cycle (src/domain/signal-funnel.ts), from its record. Every label
   * value comes from a bounded set: the agents of STRATEGIES, the outcomes, and the codes of the
   * arbiter, the allocator, the guards and the order manager. The outcome is the one the cycle ended
   * with: an order that fills at a later cycle stays `ordered` here (its fill is in tcs_trading_fills_total).
   */
  observeSignals(record: FunnelRecord): void {
    for (const fate of cycleFunnel(record))
      this.signals.inc({ agent: fate.agent, outcome: fate.outcome, reason: fate.reason });
  }

  /**
   * The configured agents' error counters at 0, so a rate can be taken from the start and a failing
   * agent is a rise, not a new series. Agent names come from STRATEGIES only: the label stays bounded.
   */
  knowAgents(agents: readonly string[]): void {
    for (const agent of agents) {
      this.agentErrors.inc({ agent }, 0);
      this.invalidSignals.inc({ agent }, 0);
    }
  }

  observeAccount(account: AccountSnapshot): void {
    this.nav.set(account.nav);
    this.drawdown.set(account.peakNav > 0 ? Math.max(0, (account.peakNav - account.nav) / account.peakNav) : 0);
    const gross = account.positions.reduce((sum, p) => sum + positionNotional(p), 0);
    this.leverage.set(account.nav > 0 ? gross / account.nav : 0);
    this.marginUsed.set(marginUsed(account, this.margin));
    this.restingExposure.set(restingExposure(account));
  }

  /**
   * Each symbol's data age at the cycle's time (every cycle: the line says only when staleness starts
   * or ends). Symbols come from SYMBOLS: the label stays bounded. A stamp that is not a number is NaN.
   */
  observeMarketAges(ages: ReadonlyMap<string, number | null>): void {
    for (const [symbol, ms] of ages) this.marketDataAge.set({ symbol }, ms === null ? Number.NaN : ms / 1000);
  }

  /** The venue's request weight now (set before each rendering of the text). */
  observeRequestWeight(weight: RequestWeight): void {
    this.requestWeightShare.set(weight.share);
    for (const kind of HELD_KINDS) {
      this.requestsHeld.inc({ kind }, Math.max(0, weight.held[kind] - this.heldCounted[kind]));
      this.heldCounted[kind] = Math.max(this.heldCounted[kind], weight.held[kind]);
    }
  }

  /** The risk engine's state, one series per state (1 for the current one), like tcs_trading_state. */
  observeRiskState(current: RiskTradingState): void {
    for (const s of RISK_TRADING_STATES) this.riskState.set({ state: s }, s === current ? 1 : 0);
  }

  observeState(current: SystemState): void {
    this.control = current;
    this.publishState();
  }

  /** The safety halt now (null: none). Halt reasons are the monitor's few codes: the label stays bounded. */
  observeHalt(reason: string | null): void {
    if (this.halted !== null) this.halt.set({ reason: this.halted }, 0);
    this.halted = reason;
    if (reason !== null) this.halt.set({ reason }, 1);
    this.publishState();
  }

  /** A kill outranks a halt (nothing leaves it); a halt outranks running and paused (nothing opens). */
  private publishState(): void {
    const current = this.control === 'killed' ? 'killed' : this.halted !== null ? 'halted' : this.control;
    if (current === null) return;
    for (const s of [...SYSTEM_STATES, 'halted'] as const) this.state.set({ state: s }, s === current ? 1 : 0);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
