/**
 * The risk engine as an actor: runs the four guards on every proposed order and signs the approved
 * ones. The orders of one request are judged one after another against the running projected
 * account: each approval joins the pending orders the next one is judged with, so two orders that
 * each pass alone cannot together break a limit. The signer is supplied by the composition root as
 * a closure over the HMAC secret, so the secret never sits in actor context (which the inspector shows).
 *
 * Its statechart is the engine's trading state (src/domain/risk/trading-state.ts): `active` →
 * `reducing` when the account a cycle shows it (`risk.observe`) is beyond RISK_MAX_DRAWDOWN; back to
 * `active` only by the operator's reset (`risk.reset`) or the window dropping the breach's peak; any
 * state → `halted` on the kill (`risk.halt`), which the API cannot undo. In `reducing` each cycle's
 * request gets the engine's own reduce-only closes added. Every transition calls `announceRiskState`
 * (the composition root makes it an event line, an audit entry, a metric and the stored state).
 */
import { assign, enqueueActions, sendTo, setup } from 'xstate';
import type { Instrument, InstrumentKind, MarkPrice } from '../src/domain/market.js';
import { valuationPrice } from '../src/domain/market.js';
import { costTrims } from '../src/domain/risk/cost-trims.js';
import type { MarginTable } from '../src/domain/margin.js';
import type { ApprovedOrder, OrderRequest } from '../src/domain/orders.js';
import { pendingEntry } from '../src/domain/risk/expected-fill.js';
import { executionPrice } from '../src/domain/risk/order-impact.js';
import { evaluateOrder, refuseAll } from '../src/domain/risk/risk-engine.js';
import type { PendingOrder, RiskDecision, RiskLimits } from '../src/domain/risk/risk-engine.js';
import { ACTIVE_AT_START, breach, reducingCloses, windowEnded } from '../src/domain/risk/trading-state.js';
import type {
  RiskStateChange,
  RiskStateRecord,
  RiskTradingState,
  WindowWatch,
} from '../src/domain/risk/trading-state.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import type {
  EvaluateRequest,
  EvaluatedReply,
  ObserveRequest,
  ObservedReply,
  RiskStateEvent,
  Verdict,
} from './messages.js';
import { safely } from './safely.js';

export type ApprovalSigner = (order: OrderRequest, epoch: number, expiresAt: number) => ApprovedOrder;

export interface RiskInput {
  limits: RiskLimits;
  /** How long an approval stays valid, in ms. */
  tokenTtlMs: number;
  sign: ApprovalSigner;
  /** Lot sizes (to round a scaled close) and kinds (spot needs no margin); optional for tests. */
  instruments?: readonly Instrument[];
  marginTable?: MarginTable;
  /**
   * Fee rate an order is expected to pay (the venue's taker rate): limits are judged on the NAV after
   * it and the spread. Default 0 (tests); the composition root passes the venue's.
   */
  feeRate?: number;
  /** SLIPPAGE_BPS: the venue's slippage, counted in a market order's expected fill price (default 0). */
  slippageBps?: number;
  /** MARK_PRICE: every symbol is valued as the venue marks it (default the mid). */
  markPrice?: MarkPrice;
  /** FEED_STALE_MS: market data older than this at the cycle's `now` opens no new exposure; unset = not judged. */
  feedStaleMs?: number;
  /** The state to start in (startingState() of the stored one); `active` when absent. */
  tradingState?: RiskStateRecord;
  /** RISK_DRAWDOWN_WINDOW in ms: `reducing` ends by the window once a whole one has passed since the breach. */
  drawdownWindowMs?: number;
}

export function review(
  input: RiskInput,
  request: EvaluateRequest,
  trading: Pick<RiskStateRecord, 'state' | 'reason'> = ACTIVE_AT_START,
): EvaluatedReply {
  const instruments = new Map((input.instruments ?? []).map((i) => [i.symbol, i]));
  const kinds = new Map<string, InstrumentKind>([...instruments.values()].map((i) => [i.symbol, i.kind]));
  const marks = new Map([...request.market.values()].map((m) => [m.symbol, valuationPrice(m, input.markPrice)]));
  const purpose = request.purpose ?? (request.cycle === 0 ? 'command' : 'cycle');
  const state = { state: trading.state, purpose, reason: trading.reason } as const;
  const pending: PendingOrder[] = [];
  const verdicts: Verdict[] = [];
  /** The engine's decision on one order, judged after the approvals before it (no side effect). */
  const decide = (requested: OrderRequest): RiskDecision => {
    const market = request.market.get(requested.symbol);
    if (!market) return refuseAll(`no market data for ${requested.symbol}`);
    const lotSize = instruments.get(requested.symbol)?.lotSize;
    const tickSize = instruments.get(requested.symbol)?.tickSize;
    return evaluateOrder(requested, {
      account: request.account,
      market,
      limits: input.limits,
      pending,
      kinds,
      marks,
      trading: state,
      ...(input.marginTable ? { marginTable: input.marginTable } : {}),
      ...(lotSize !== undefined ? { lotSize } : {}),
      ...(tickSize !== undefined ? { tickSize } : {}),
      ...(input.feeRate !== undefined ? { feeRate: input.feeRate } : {}),
      ...(input.slippageBps !== undefined ? { slippageBps: input.slippageBps } : {}),
      ...(input.markPrice !== undefined ? { markPrice: input.markPrice } : {}),
      ...(input.feedStaleMs !== undefined ? { freshness: { now: request.now, staleMs: input.feedStaleMs } } : {}),
    });
  };
  /** Signs an approved decision and counts it for the orders after it: the book it left, the NAV it cost. */
  const settle = (requested: OrderRequest, decision: RiskDecision): Verdict => {
    // A close scaled for liquidity is signed at the size the engine allowed.
    const order = decision.scaledQty ? { ...requested, qty: decision.scaledQty } : requested;
    const approval = decision.approved ? input.sign(order, request.epoch, request.now + input.tokenTtlMs) : null;
    const market = request.market.get(order.symbol);
    if (approval && market) {
      const tickSize = instruments.get(order.symbol)?.tickSize;
      const reference = executionPrice(order, market);
      pending.push(
        typeof reference === 'number'
          ? pendingEntry(order, market, reference, pending, {
              ...(input.feeRate !== undefined ? { feeRate: input.feeRate } : {}),
              ...(input.slippageBps !== undefined ? { slippageBps: input.slippageBps } : {}),
              ...(input.markPrice !== undefined ? { markPrice: input.markPrice } : {}),
              ...(tickSize !== undefined ? { tickSize } : {}),
            })
          : { order, price: market.last },
      );
    }
    return { order, decision, approval };
  };
  // Any error (bad limits, a failing signer) refuses that order; it never stops the actor system.
  const refused = (requested: OrderRequest) => (err: string) => ({
    order: requested,
    decision: refuseAll(`risk engine error: ${err}`),
    approval: null,
  });
  // Closes first: they pass in every state, so their fee and spread will be paid whatever else is
  // decided, and an opening judged after them counts that cost against the NAV its ratios divide by
  // (judged before them, an opening sized to a limit ended above it once a later close had paid).
  // The verdicts keep this order, so the order manager submits the closes first too.
  const closesFirst = [...request.orders.filter((o) => o.reduceOnly), ...request.orders.filter((o) => !o.reduceOnly)];
  for (const requested of closesFirst)
    verdicts.push(safely(() => settle(requested, decide(requested)), refused(requested)));
  // Reducing: what the cycle's own orders leave open, the engine closes itself, at the book's pace.
  if (trading.state === 'reducing' && purpose === 'cycle') {
    const closes = reducingCloses({
      epoch: request.epoch,
      cycle: request.cycle,
      positions: request.account.positions,
      instruments,
      approved: verdicts.flatMap((v) => (v.approval ? [v.order] : [])),
    });
    for (const close of closes) {
      const verdict = safely((): Verdict | null => {
        const decision = decide(close);
        // Nobody asked for this close: when the cycle's closes already took what the book allows,
        // it waits for the next cycle instead of going one lot past the liquidity limit.
        return beyondBook(decision, instruments.get(close.symbol)?.lotSize) ? null : settle(close, decision);
      }, refused(close));
      if (verdict) verdicts.push({ ...verdict, by: 'risk' });
    }
  }
  // What the cycle's closes cost took a symbol past its limit: the engine trims it back (cost-trims.ts).
  // Only when active: in `reducing` the engine closes every position anyway, and `halted` trades nothing.
  if (purpose === 'cycle' && trading.state === 'active')
    for (const trim of trimsFor(input, request, pending, marks, instruments))
      verdicts.push({ ...safely(() => settle(trim, decide(trim)), refused(trim)), by: 'risk' });
  return { type: 'risk.evaluated', cycle: request.cycle, verdicts };
}

function trimsFor(
  input: RiskInput,
  request: EvaluateRequest,
  pending: readonly PendingOrder[],
  marks: ReadonlyMap<string, number>,
  instruments: ReadonlyMap<string, Instrument>,
): OrderRequest[] {
  return costTrims({
    account: request.account,
    pending,
    marks,
    market: request.market,
    limits: input.limits,
    lotSizes: new Map([...instruments.values()].map((i) => [i.symbol, i.lotSize])),
    feeRate: input.feeRate ?? 0,
    slippageBps: input.slippageBps ?? 0,
    epoch: request.epoch,
    cycle: request.cycle,
  });
}

/** A liquidity-scaled close with less than one lot left within the limits (or no lot to round to). */
function beyondBook(decision: RiskDecision, lotSize: number | undefined): boolean {
  const liquidity = decision.checks[2];
  if (liquidity.code !== 'LIQUIDITY_SCALED') return false;
  const allowed = liquidity.metrics.allowedQty ?? 0;
  return lotSize === undefined || !(lotSize > 0) || allowed < lotSize;
}

interface RiskContext extends RiskInput {
  trading: RiskStateRecord;
  /** The last transition, as it was announced (null before the first). */
  change: RiskStateChange | null;
  /**
   * When this process entered the current state, or first observed it after resuming it, on the
   * cycle's `steady` clock (a wall-clock step cannot move it); null until then. Never stored.
   */
  watchedFrom: number | null;
  /** The current state was resumed from the store at start, not entered by this process. */
  resumed: boolean;
}

type RiskEvent = EvaluateRequest | ObserveRequest | RiskStateEvent;

const steadyOf = (event: ObserveRequest) => event.steady ?? event.now;

/** The window as this process watched it (trading-state.ts windowEnded): never a wall-clock difference. */
const windowOf = (context: RiskContext, event: ObserveRequest): WindowWatch | undefined => {
  if (context.drawdownWindowMs === undefined) return undefined;
  const now = steadyOf(event);
  return { ms: context.drawdownWindowMs, watchedMs: now - (context.watchedFrom ?? now), resumed: context.resumed };
};

const drawdownOf = (account: Pick<AccountSnapshot, 'nav' | 'peakNav'>) =>
  account.peakNav > 0 ? Math.max(0, (account.peakNav - account.nav) / account.peakNav) : null;

/** The record and the announcement of a move from `from` to `to`, read from the event that caused it. */
function changeOf(
  context: RiskContext,
  event: RiskEvent,
  { from, to }: { from: RiskTradingState; to: RiskTradingState },
): Pick<RiskContext, 'trading' | 'change' | 'watchedFrom' | 'resumed'> {
  const max = context.limits.maxDrawdown;
  let reason = '';
  let at: number | null = null;
  let figures: Pick<RiskStateChange, 'drawdown' | 'nav' | 'peakNav'> = { drawdown: null, nav: null, peakNav: null };
  if (event.type === 'risk.observe') {
    at = event.now;
    reason =
      (to === 'reducing'
        ? breach(event.account, max)
        : windowEnded(context.trading, event.account, max, windowOf(context, event))) ?? '';
    figures = { drawdown: drawdownOf(event.account), nav: event.account.nav, peakNav: event.account.peakNav };
  } else if (event.type === 'risk.reset') {
    at = event.at;
    reason = `drawdown reset by an operator: ${event.reason}`;
    figures = { drawdown: drawdownOf(event), nav: event.nav, peakNav: event.peakNav };
  } else if (event.type === 'risk.halt') {
    at = event.at;
    reason = event.reason;
  }
  // The breach's reference: set entering reducing, kept through a kill that interrupts it.
  const peakNav =
    to === 'reducing' && event.type === 'risk.observe'
      ? event.account.peakNav
      : to === 'halted' && from === 'reducing'
        ? context.trading.peakNav
        : null;
  return {
    trading: { state: to, since: at, reason, peakNav },
    change: { from, to, at, reason, ...figures, reference: peakNav },
    watchedFrom: event.type === 'risk.observe' ? steadyOf(event) : null,
    resumed: false,
  };
}

/** The actions of one transition: the new record, its announcement, and the cycle's reply if it asked. */
function move(from: RiskTradingState, to: RiskTradingState) {
  return [
    { type: 'enter', params: { from, to } },
    { type: 'announceRiskState', params: ({ context }: { context: RiskContext }) => context.change! },
    'replyObserved',
  ] as const;
}

export const riskMachine = setup({
  types: {} as { context: RiskContext; input: RiskInput; events: RiskEvent },
  actions: {
    /** Supplied by the composition root: the event line, audit entry, metric and stored state. */
    announceRiskState: (_, _params: RiskStateChange) => {},
    enter: assign(({ context, event }, params: { from: RiskTradingState; to: RiskTradingState }) =>
      changeOf(context, event, params),
    ),
    /** A state resumed from the store is watched from this process's first look at it. */
    watch: assign(({ context, event }) =>
      context.watchedFrom === null && event.type === 'risk.observe' ? { watchedFrom: steadyOf(event) } : {},
    ),
    // Only a cycle's observation asks for an answer; a reset or a halt has nobody waiting.
    replyObserved: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'risk.observe') return;
      const reply: ObservedReply = { type: 'risk.observed', cycle: event.cycle, state: context.trading.state };
      enqueue.sendTo(event.replyTo, reply);
    }),
  },
  guards: {
    startsIn: ({ context }, params: { state: RiskTradingState }) => context.trading.state === params.state,
    breached: ({ context, event }) =>
      event.type === 'risk.observe' && breach(event.account, context.limits.maxDrawdown) !== null,
    windowEnded: ({ context, event }) =>
      event.type === 'risk.observe' &&
      windowEnded(context.trading, event.account, context.limits.maxDrawdown, windowOf(context, event)) !== null,
  },
}).createMachine({
  id: 'risk',
  context: ({ input }) => ({
    ...input,
    trading: input.tradingState ?? ACTIVE_AT_START,
    change: null,
    watchedFrom: null,
    resumed: input.tradingState !== undefined && input.tradingState.state !== 'active',
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: { type: 'startsIn', params: { state: 'reducing' } }, target: 'reducing' },
        { guard: { type: 'startsIn', params: { state: 'halted' } }, target: 'halted' },
        { target: 'active' },
      ],
    },
    active: {
      on: {
        'risk.observe': [
          { guard: 'breached', target: 'reducing', actions: move('active', 'reducing') },
          { actions: 'replyObserved' },
        ],
        'risk.halt': { target: 'halted', actions: move('active', 'halted') },
      },
    },
    reducing: {
      on: {
        'risk.observe': [
          { guard: 'windowEnded', target: 'active', actions: move('reducing', 'active') },
          { actions: ['watch', 'replyObserved'] },
        ],
        'risk.reset': { target: 'active', actions: move('reducing', 'active') },
        'risk.halt': { target: 'halted', actions: move('reducing', 'halted') },
      },
    },
    /** Killed: final while this process runs (a kill is never undone through the API). */
    halted: {
      on: { 'risk.observe': { actions: 'replyObserved' } },
    },
  },
  on: {
    'risk.evaluate': {
      actions: sendTo(
        ({ event }) => (event as EvaluateRequest).replyTo,
        ({ context, event }) => review(context, event as EvaluateRequest, context.trading),
      ),
    },
  },
});
