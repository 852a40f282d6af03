/**
 * The trading process's event lines (spec section 6) as one discriminated union, with one
 * constructor per event so every line of a kind is built in exactly one place. The six spec events
 * carry exactly the spec's fields, `event` first; the others are this service's own, documented in
 * docs/reference/events.md. Writers (stdout, metrics) only consume these values.
 */
import type { RiskStateChange } from './risk/trading-state.js';
import type { SystemState } from './control.js';
import type { Liquidation } from './margin.js';
import type { Fill, OrderRequest, Side, VenueOrder } from './orders.js';
import type { ExitMark } from './allocation.js';
import type { ExitReason } from './protection.js';
import type { GuardCheck } from './risk/risk-engine.js';
import type { Signal } from './signal.js';
import type { OrderRefusalCode } from './order-refusals.js';
import type { StaleSymbol } from './stale-market.js';

export interface SessionStartedLine {
  event: 'session_started';
  mode: string;
  strategies: string[];
}
export interface CycleStartLine {
  event: 'cycle_start';
  cycle: number;
  timestamp: string;
}
export interface SignalGeneratedLine {
  event: 'signal_generated';
  agent: string;
  symbol: string;
  direction: number;
  confidence: number;
}
/**
 * A strategy threw while analysing a symbol: that symbol's signal is lost for the cycle, the agent
 * keeps running. `message` is what it threw, cut to AGENT_ERROR_MESSAGE_MAX characters.
 */
export interface AgentErrorLine {
  event: 'agent_error';
  agent: string;
  symbol: string;
  message: string;
}
export interface RiskApprovedLine {
  event: 'risk_approved';
  symbol: string;
  size: number;
  token: string;
}
export interface OrderSubmittedLine {
  event: 'order_submitted';
  symbol: string;
  side: Side;
  qty: number;
  mode: string;
}
export interface CycleEndLine {
  event: 'cycle_end';
  cycle: number;
  duration_ms: number;
}
export interface RiskRejectedLine {
  event: 'risk_rejected';
  symbol: string;
  guard: string;
  code: string;
  value: number | null;
  limit: number | null;
}
export interface OrderFilledLine {
  event: 'order_filled';
  symbol: string;
  side: Side;
  qty: number;
  price: number;
  fee: number;
  liquidity: Fill['liquidity'];
  client_order_id: string;
  /** A paper taker fill's costs beyond the mid (Fill.costs); absent on maker and live fills. */
  spread_cost?: number;
  slippage_cost?: number;
}
export interface OrderRejectedLine {
  event: 'order_rejected';
  symbol: string;
  client_order_id: string;
  reason: string;
}
/** The order manager refused to submit (token, epoch, state): the venue never saw the order. */
export interface OrderRefusedLine {
  event: 'order_refused';
  client_order_id: string;
  code: OrderRefusalCode;
}
export interface OrdersCancelledLine {
  event: 'orders_cancelled';
  reason: string;
  symbols: string[] | 'all';
  count: number;
  client_order_ids: string[];
}
/** The venue closed a position because the account's equity fell to maintenance margin. */
export interface PositionLiquidatedLine {
  event: 'position_liquidated';
  symbol: string;
  /** The closing trade's side: SELL closed a long, BUY a short. */
  side: Side;
  qty: number;
  price: number;
  /** The taker fee charged on the close. */
  fee: number;
  /** The liquidation fee charged on top, paid into the insurance fund (issue 20). */
  liquidation_fee: number;
  /** What the insurance fund paid into the account so NAV does not end below zero. */
  insurance_cover: number;
  /** The insurance fund's balance after this close. */
  insurance_fund: number;
  equity: number;
  maintenance_margin: number;
}
/**
 * A protective exit filled (STOP_LOSS, TAKE_PROFIT, TRAILING_STOP): follows the close's
 * order_filled line, which keeps exactly its own fields, and names the same client_order_id.
 */
export interface PositionExitLine {
  event: 'position_exit';
  symbol: string;
  reason: ExitReason;
  /** The agent whose position it was ('protection' when the owner is unknown after a restart). */
  agent: string;
  side: Side;
  qty: number;
  price: number;
  entry_price: number;
  trigger_price: number;
  client_order_id: string;
}
export interface ControlChangedLine {
  event: 'control_changed';
  state: SystemState;
  epoch: number;
}
export interface CommandExecutedLine {
  event: 'command_executed';
  command_id: string;
  type: string;
  status: string;
}
/**
 * A command's work was done but completing it with its audit entry was refused (the store did not
 * take the write): it is not done, no entry was written, and it is handed out again when its lease
 * expires. `message` is the store's refusal.
 */
export interface CommandUnrecordedLine {
  event: 'command_unrecorded';
  command_id: string;
  type: string;
  message: string;
}
/**
 * A flatten command ended: `status` is `flat` (every chosen position closed), `nothing` (already flat)
 * or `partial` (`remaining` lists what is still open). Its orders have their own order lines.
 */
export interface FlattenCompletedLine {
  event: 'flatten_completed';
  command_id: string;
  status: string;
  closed: string[];
  remaining: string[];
}
/** An operator reset the drawdown reference (`risk_reset` command): the peak NAV is now the NAV. */
export interface DrawdownResetLine {
  event: 'drawdown_reset';
  command_id: string;
  previous_peak_nav: number;
  peak_nav: number;
  reason: string;
  actor: string;
}
/**
 * The risk engine's trading state changed (active, reducing, halted; src/domain/risk/trading-state.ts):
 * why, and the account's drawdown, NAV and peak NAV when they were known (null for a kill).
 */
export interface RiskStateChangedLine {
  event: 'risk_state_changed';
  from: string;
  to: string;
  reason: string;
  drawdown: number | null;
  nav: number | null;
  peak_nav: number | null;
}
/**
 * The live venue's reconciliation (src/adapters/live-venue/): the exchange holds positions the
 * system's own fills do not explain (`drift`, per symbol: what the fills explain, what is held), so
 * no order that adds exposure is sent; an empty `drift` says it ended (the exchange agrees again).
 */
export interface PositionDriftLine {
  event: 'position_drift';
  drift: Array<{ symbol: string; expected: number; actual: number }>;
}
/**
 * The cycle's market data is too old to trade (src/domain/stale-market.ts): openings in the symbols
 * listed are refused LIQUIDITY_STALE. Said when it starts and when the symbols change; an empty
 * `stale` says it ended (every symbol fresh again).
 */
export interface MarketDataStaleLine {
  event: 'market_data_stale';
  limit_ms: number;
  stale: Array<{ symbol: string; age_ms: number | null }>;
}
/** The trading process stopped opening exposure for safety (the store or the control plane was lost). */
export interface TradingHaltedLine {
  event: 'trading_halted';
  reason: string;
}
/** The safety halt ended: the store and the control record agree again. */
export interface TradingHaltEndedLine {
  event: 'trading_halt_ended';
}
export interface SessionStoppedLine {
  event: 'session_stopped';
  reason: string;
}

export type EventLine =
  | SessionStartedLine
  | CycleStartLine
  | SignalGeneratedLine
  | AgentErrorLine
  | RiskApprovedLine
  | OrderSubmittedLine
  | CycleEndLine
  | RiskRejectedLine
  | OrderFilledLine
  | OrderRejectedLine
  | OrderRefusedLine
  | OrdersCancelledLine
  | PositionLiquidatedLine
  | PositionExitLine
  | ControlChangedLine
  | CommandExecutedLine
  | CommandUnrecordedLine
  | FlattenCompletedLine
  | DrawdownResetLine
  | RiskStateChangedLine
  | PositionDriftLine
  | MarketDataStaleLine
  | TradingHaltedLine
  | TradingHaltEndedLine
  | SessionStoppedLine;

/** A thrown message longer than this is cut (a strategy could throw a whole data dump). */
export const AGENT_ERROR_MESSAGE_MAX = 500;

/** `message` cut to AGENT_ERROR_MESSAGE_MAX characters, an ellipsis marking the cut. */
export function boundedMessage(message: string): string {
  return message.length <= AGENT_ERROR_MESSAGE_MAX ? message : `${message.slice(0, AGENT_ERROR_MESSAGE_MAX - 1)}…`;
}

/** One constructor per event; field order is the order on the line. */
export const eventLine = {
  sessionStarted: (mode: string, strategies: string[]): SessionStartedLine => ({
    event: 'session_started',
    mode,
    strategies,
  }),
  cycleStart: (cycle: number, at: number): CycleStartLine => ({
    event: 'cycle_start',
    cycle,
    timestamp: new Date(at).toISOString(),
  }),
  signalGenerated: (s: Signal): SignalGeneratedLine => ({
    event: 'signal_generated',
    agent: s.agent,
    symbol: s.symbol,
    direction: s.direction,
    confidence: s.confidence,
  }),
  agentError: (agent: string, error: { symbol: string; message: string }): AgentErrorLine => ({
    event: 'agent_error',
    agent,
    symbol: error.symbol,
    message: boundedMessage(error.message),
  }),
  riskApproved: (symbol: string, size: number, token: string): RiskApprovedLine => ({
    event: 'risk_approved',
    symbol,
    size,
    token,
  }),
  orderSubmitted: (order: VenueOrder, mode: string): OrderSubmittedLine => ({
    event: 'order_submitted',
    symbol: order.symbol,
    side: order.side,
    qty: order.qty,
    mode,
  }),
  cycleEnd: (cycle: number, durationMs: number): CycleEndLine => ({
    event: 'cycle_end',
    cycle,
    duration_ms: durationMs,
  }),
  riskRejected: (symbol: string, check: GuardCheck): RiskRejectedLine => ({
    event: 'risk_rejected',
    symbol,
    guard: check.guard,
    code: check.code,
    value: check.value,
    limit: check.limit,
  }),
  orderFilled: (fill: Fill): OrderFilledLine => ({
    event: 'order_filled',
    symbol: fill.symbol,
    side: fill.side,
    qty: fill.qty,
    price: fill.price,
    fee: fill.fee,
    liquidity: fill.liquidity,
    client_order_id: fill.clientOrderId,
    ...(fill.costs !== undefined && { spread_cost: fill.costs.spread, slippage_cost: fill.costs.slippage }),
  }),
  orderRejected: (order: VenueOrder): OrderRejectedLine => ({
    event: 'order_rejected',
    symbol: order.symbol,
    client_order_id: order.clientOrderId,
    reason: order.rejectReason ?? 'rejected',
  }),
  orderRefused: (clientOrderId: string, code: OrderRefusalCode): OrderRefusedLine => ({
    event: 'order_refused',
    client_order_id: clientOrderId,
    code,
  }),
  ordersCancelled: (reason: string, symbols: string[] | undefined, cancelled: VenueOrder[]): OrdersCancelledLine => ({
    event: 'orders_cancelled',
    reason,
    symbols: symbols ?? 'all',
    count: cancelled.length,
    client_order_ids: cancelled.map((o) => o.clientOrderId),
  }),
  positionLiquidated: (l: Liquidation): PositionLiquidatedLine => ({
    event: 'position_liquidated',
    symbol: l.symbol,
    side: l.side,
    qty: l.qty,
    price: l.price,
    fee: l.fee,
    liquidation_fee: l.liquidationFee,
    insurance_cover: l.insuranceCover,
    insurance_fund: l.insuranceFund,
    equity: l.equity,
    maintenance_margin: l.maintenanceMargin,
  }),
  positionExit: (
    order: Pick<OrderRequest, 'symbol' | 'side' | 'clientOrderId'>,
    agent: string,
    exit: ExitMark,
    fill: { qty: number; price: number },
  ): PositionExitLine => ({
    event: 'position_exit',
    symbol: order.symbol,
    reason: exit.reason,
    agent,
    side: order.side,
    qty: fill.qty,
    price: fill.price,
    entry_price: exit.entryPrice,
    trigger_price: exit.triggerPrice,
    client_order_id: order.clientOrderId,
  }),
  controlChanged: (state: SystemState, epoch: number): ControlChangedLine => ({
    event: 'control_changed',
    state,
    epoch,
  }),
  commandExecuted: (commandId: string, type: string, status: string): CommandExecutedLine => ({
    event: 'command_executed',
    command_id: commandId,
    type,
    status,
  }),
  commandUnrecorded: (commandId: string, type: string, message: string): CommandUnrecordedLine => ({
    event: 'command_unrecorded',
    command_id: commandId,
    type,
    message: boundedMessage(message),
  }),
  flattenCompleted: (commandId: string, result: Record<string, unknown> & { status: string }): FlattenCompletedLine => {
    const symbolsOf = (list: unknown): string[] =>
      Array.isArray(list) ? [...new Set(list.map((x) => String((x as { symbol?: unknown }).symbol)))] : [];
    return {
      event: 'flatten_completed',
      command_id: commandId,
      status: result.status,
      closed: symbolsOf(result.closes),
      remaining: symbolsOf(result.remaining),
    };
  },
  drawdownReset: (
    commandId: string,
    reset: { previousPeakNav: number; peakNav: number },
    by: { reason: string; actor: string },
  ): DrawdownResetLine => ({
    event: 'drawdown_reset',
    command_id: commandId,
    previous_peak_nav: reset.previousPeakNav,
    peak_nav: reset.peakNav,
    reason: by.reason,
    actor: by.actor,
  }),
  positionDrift: (drift: PositionDriftLine['drift']): PositionDriftLine => ({
    event: 'position_drift',
    drift: drift.map((d) => ({ ...d })),
  }),
  marketDataStale: (stale: readonly StaleSymbol[], limitMs: number): MarketDataStaleLine => ({
    event: 'market_data_stale',
    limit_ms: limitMs,
    stale: stale.map((s) => ({ symbol: s.symbol, age_ms: s.ageMs === null ? null : Math.round(s.ageMs) })),
  }),
  riskStateChanged: (change: RiskStateChange): RiskStateChangedLine => ({
    event: 'risk_state_changed',
    from: change.from,
    to: change.to,
    reason: change.reason,
    drawdown: change.drawdown,
    nav: change.nav,
    peak_nav: change.peakNav,
  }),
  tradingHalted: (reason: string): TradingHaltedLine => ({ event: 'trading_halted', reason }),
  tradingHaltEnded: (): TradingHaltEndedLine => ({ event: 'trading_halt_ended' }),
  sessionStopped: (reason: string): SessionStoppedLine => ({ event: 'session_stopped', reason }),
};
