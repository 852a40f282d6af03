/**
 * The messages the trading actors exchange. Commands are imperative (`oms.submit`), replies past
 * tense (`oms.submitted`); every request names the actor to reply to, so actors never hold each
 * other's references.
 */
import type { AnyActorRef } from 'xstate';
import type { ArbitrationResult, Holdings } from '../src/domain/arbitration.js';
import type { Proposal } from '../src/domain/allocation.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import type { MarketView } from '../src/domain/market.js';
import type { ApprovedOrder, OrderRequest } from '../src/domain/orders.js';
import type { RiskDecision } from '../src/domain/risk/risk-engine.js';
import type { RiskTradingState } from '../src/domain/risk/trading-state.js';
import type { Signal } from '../src/domain/signal.js';
import type { ProtectionState } from '../src/domain/protection.js';
import type { ResampleCache } from '../src/domain/strategy-input.js';
import type { CancelCommandRecord, CommandRecord } from '../src/domain/commands.js';

export interface AnalyseRequest {
  type: 'agent.analyse';
  cycle: number;
  market: MarketView;
  /** The account the cycle decides on: each agent is told its own position and the NAV. */
  account?: AccountSnapshot;
  /** symbol → the agent whose signal set its position (the allocator's memory). */
  owners?: ReadonlyMap<string, string>;
  /** Higher-timeframe candles of this cycle, shared by every agent. */
  resampled?: ResampleCache;
  replyTo: AnyActorRef;
}
export interface SignalsReply {
  type: 'agent.signals';
  cycle: number;
  agent: string;
  signals: Signal[];
  /** Errors thrown by the strategy, one per symbol that failed (the agent itself keeps running). */
  errors: AgentError[];
  /** Signals discarded as INVALID_SIGNAL: they broke the contract (another symbol or agent, bad numbers). */
  invalid: { symbol: string; reason: string }[];
}

/** What a strategy threw while analysing one symbol. */
export interface AgentError {
  symbol: string;
  message: string;
}

export interface SelectRequest {
  type: 'arbiter.select';
  cycle: number;
  signals: Signal[];
  /** What is held or resting per symbol and which agent set it: exits for anything else change nothing. */
  holdings?: Holdings;
  replyTo: AnyActorRef;
}
export interface SelectedReply {
  type: 'arbiter.selected';
  cycle: number;
  result: ArbitrationResult;
}

export interface SizeRequest {
  type: 'allocator.size';
  cycle: number;
  selected: Signal[];
  /** Selected signals that may become orders (ArbitrationResult.maxOrders); exits are not counted. */
  maxOrders?: number;
  account: AccountSnapshot;
  market: MarketView;
  /** The cycle's monotonic time (LoadedMarket.steady), which closes are spaced on; absent: not spaced. */
  steady?: number;
  /** Symbols whose exchange-side stop triggered since the last cycle (LoadedMarket.stopped): each starts its cooldown. */
  stopped?: readonly string[];
  replyTo: AnyActorRef;
}
export interface SizedReply {
  type: 'allocator.sized';
  cycle: number;
  proposals: Proposal[];
  /** The protective exits' state, when this request changed it (the cycle's recorder stores it). */
  protection?: ProtectionState;
  /** symbol → owning agent, when this request changed it (the cycle's recorder stores it). */
  owners?: Readonly<Record<string, string>>;
}

export interface Verdict {
  order: OrderRequest;
  decision: RiskDecision;
  /** Present when approved: the signed order. */
  approval: ApprovedOrder | null;
  /** Set on the risk engine's own closes in `reducing` (no strategy asked for them). */
  by?: 'risk';
}
export interface EvaluateRequest {
  type: 'risk.evaluate';
  /**
   * A cycle's orders (in `reducing` the engine adds its own closes; in `halted` none pass), or a
   * command's reduce-only closes (pass in every state). Absent: `command` when cycle is 0, else `cycle`.
   */
  purpose?: SubmissionPurpose;
  cycle: number;
  orders: OrderRequest[];
  account: AccountSnapshot;
  market: MarketView;
  epoch: number;
  /** Epoch ms from the cycle's clock reading; tokens expire relative to it. */
  now: number;
  replyTo: AnyActorRef;
}
export interface EvaluatedReply {
  type: 'risk.evaluated';
  cycle: number;
  verdicts: Verdict[];
}

/**
 * The cycle's account, shown to the risk engine before anything is decided: a drawdown beyond
 * RISK_MAX_DRAWDOWN moves it to `reducing`, the window dropping the breach's peak back to `active`.
 */
export interface ObserveRequest {
  type: 'risk.observe';
  cycle: number;
  account: AccountSnapshot;
  /** Epoch ms from the cycle's clock reading. */
  now: number;
  /**
   * The same instant on a clock a wall-clock step cannot move (steady-clock.ts): the drawdown window
   * is judged on it. `now` when absent.
   */
  steady?: number;
  replyTo: AnyActorRef;
}
export interface ObservedReply {
  type: 'risk.observed';
  cycle: number;
  state: RiskTradingState;
}

/** The risk engine's state moves by these too: the kill (root) and the operator's drawdown reset. */
export type RiskStateEvent =
  /** `at`: when the kill was stored; null when the root was not told (the composition root stamps it). */
  | { type: 'risk.halt'; reason: string; at: number | null }
  | { type: 'risk.reset'; reason: string; at: number; nav: number; peakNav: number };

export type SubmissionOutcome =
  | {
      clientOrderId: string;
      status: 'submitted';
      venueStatus: string;
      filledQty: number;
      avgFillPrice: number | null;
      duplicate: boolean;
      /** Why the venue rejected it, when `venueStatus` is `rejected`. */
      rejectReason?: string;
    }
  | { clientOrderId: string; status: 'refused'; code: string; message: string };

/**
 * What an approval is for: a cycle's orders, submitted only while running; or a command's reduce-only
 * order (deleverage, flatten), which only lowers risk and so is submitted in every state.
 */
export type SubmissionPurpose = 'cycle' | 'command';

export interface SubmitRequest {
  type: 'oms.submit';
  purpose: SubmissionPurpose;
  /** The cycle number; 0 for a command's submission. */
  cycle: number;
  approvals: ApprovedOrder[];
  replyTo: AnyActorRef;
}
export interface SubmittedReply {
  type: 'oms.submitted';
  cycle: number;
  outcomes: SubmissionOutcome[];
}

/** Order manager control: follows the root's state. */
export type OrderManagerControl =
  | { type: 'oms.resume' }
  | { type: 'oms.halt' }
  /**
   * Killed at `epoch` (null when started killed): stop for good and cancel at once, first in line. The
   * kill's command (kill_cancels, same key) then completes with this cancel's result: one venue call,
   * one audit entry (the command's).
   */
  | { type: 'oms.kill'; reason: string; epoch: number | null }
  /** A safety halt (store or control plane lost): stop accepting and cancel every open order. */
  | { type: 'oms.safety'; reason: string }
  /**
   * Cancel open orders (of `symbols`, or all): a job like any other venue mutation, first in line.
   * `receipt` names a waiter outside the actor system to tell when it is done (src/application/job-receipts.ts).
   */
  | { type: 'oms.cancel'; reason: string; symbols: readonly string[] | null; receipt: string | null }
  | { type: 'oms.command'; command: CancelCommandRecord };

/** A queued command as the root receives it: cancels go to the order manager, deleverage and flatten to their own actors. */
export interface CommandReceived {
  type: 'command.received';
  command: CommandRecord;
}

/** The root tells its long-lived cycle actor to run cycle `cycle` at control epoch `epoch` (approvals are signed for it). */
export interface CycleBegin {
  type: 'cycle.begin';
  cycle: number;
  epoch: number;
}
