/**
 * The risk engine's decision (spec step 4): an order is approved only when all four guards pass —
 * drawdown, leverage, liquidity, exposure — and all four are always reported, in that order, for the
 * audit trail. Signing the approval is a separate step (../order-token.ts) so this stays a pure
 * function of the order, the account (with its resting orders), this cycle's earlier approvals, the
 * market and the limits. The figures before and after are returned for the operator's audit trail.
 */
import type { MarketSnapshot, MarkPrice } from '../market.js';
import type { OrderRequest } from '../orders.js';
import type { AccountSnapshot } from '../portfolio.js';
import type { GuardCheck, GuardName } from './check.js';
import { checkDrawdown, drawdown } from './drawdown-guard.js';
import type { TradingStateContext } from './drawdown-guard.js';
import { checkExposure } from './exposure-guard.js';
import { checkLeverage } from './leverage-guard.js';
import { assertRiskLimits, DEFAULT_RISK_LIMITS } from './limits.js';
import type { RiskLimits } from './limits.js';
import { checkLiquidity } from './liquidity-guard.js';
import type { Freshness } from './liquidity-guard.js';
import { computeImpact } from './order-impact.js';
import type { OrderImpact } from './order-impact.js';
import type { InstrumentKind } from '../market.js';
import type { MarginTable } from '../margin.js';
import { floorToStep } from '../steps.js';
import type { PendingOrder } from './projection.js';

// The one entry point for callers: the vocabulary they need comes with the engine.
export type { GuardCheck, GuardName } from './check.js';
export type { RiskLimits } from './limits.js';
export { DEFAULT_RISK_LIMITS, parseRiskLimits } from './limits.js';
export type { PendingOrder } from './projection.js';
export type { Freshness } from './liquidity-guard.js';
export type { TradingStateContext } from './drawdown-guard.js';

export interface RiskContext {
  account: AccountSnapshot;
  /** The snapshot of the order's symbol from this cycle. */
  market: MarketSnapshot;
  /** Default DEFAULT_RISK_LIMITS; out-of-range limits throw a RangeError (a programming error). */
  limits?: RiskLimits;
  /** Orders approved earlier in this cycle and not yet acknowledged by the venue. */
  pending?: readonly PendingOrder[];
  /** Instrument kinds by symbol (spot needs no margin) and the margin rates; see ./order-impact.ts. */
  kinds?: ReadonlyMap<string, InstrumentKind>;
  marginTable?: MarginTable;
  /** This cycle's mark per symbol (valuationPrice: mid, else last), to value every symbol alike. */
  marks?: ReadonlyMap<string, number>;
  /**
   * Fee rate the order is expected to pay (the venue's taker rate) and the symbol's tick: the ratios
   * after the order divide by the NAV less its fee and spread (./order-impact.ts). Fee default 0.
   */
  feeRate?: number;
  tickSize?: number;
  /** SLIPPAGE_BPS: the venue's slippage, counted in the expected fill price of a market order (./expected-fill.ts). */
  slippageBps?: number;
  /** MARK_PRICE: the order's symbol is valued as the venue marks it; `marks` should follow the same rule. */
  markPrice?: MarkPrice;
  /** The symbol's lot size, to round a scaled reduce-only close; without it the close is not scaled below one unit of its own size. */
  lotSize?: number;
  /**
   * The cycle's time and FEED_STALE_MS: a snapshot older than that opens no new exposure (the
   * liquidity guard fails with LIQUIDITY_STALE). Without it, the data's age is not judged.
   */
  freshness?: Freshness;
  /** The engine's trading state and the order's purpose (./trading-state.ts); absent: `active`. */
  trading?: TradingStateContext;
}

/**
 * The account figures an operator reads: ratios to NAV, worst case with every counted order filling;
 * before the order to the NAV once this cycle's earlier orders paid their costs, after it to that NAV
 * less the order's own fee and spread.
 */
export interface ProjectedFigures {
  symbolExposure: number | null;
  totalExposure: number | null;
  leverage: number | null;
  drawdown: number;
  marginUsed: number;
}

export interface RiskDecision {
  approved: boolean;
  /** drawdown, leverage, liquidity, exposure — always all four, in this order. */
  checks: [GuardCheck, GuardCheck, GuardCheck, GuardCheck];
  /** The figures the guards judged; null when the order could not be evaluated. */
  impact: {
    price: number;
    /** Effective quantity (a reducing reduce-only order is capped at the position). */
    qty: number;
    notional: number;
    /** The order's expected fee plus the cost of crossing to its expected fill price. */
    cost: number;
    positionBefore: number;
    positionAfter: number;
    reducesPosition: boolean;
    /** Worst-case figures before and after the order. */
    before: ProjectedFigures;
    after: ProjectedFigures;
    /** Resting orders at the venue and orders approved earlier this cycle that the figures count. */
    restingCounted: number;
    pendingCounted: number;
  } | null;
  /**
   * Set when a reduce-only close was approved at a smaller size than asked (liquidity): the quantity
   * the approval is for. Null otherwise.
   */
  scaledQty?: number | null;
}

export function evaluateOrder(order: OrderRequest, ctx: RiskContext): RiskDecision {
  const limits = ctx.limits ?? DEFAULT_RISK_LIMITS;
  assertRiskLimits(limits);
  const result = computeImpact(order, ctx.account, ctx.market, {
    pending: ctx.pending ?? [],
    ...(ctx.kinds ? { kinds: ctx.kinds } : {}),
    ...(ctx.marginTable ? { marginTable: ctx.marginTable } : {}),
    ...(ctx.marks ? { marks: ctx.marks } : {}),
    ...(ctx.feeRate !== undefined ? { feeRate: ctx.feeRate } : {}),
    ...(ctx.tickSize !== undefined ? { tickSize: ctx.tickSize } : {}),
    ...(ctx.slippageBps !== undefined ? { slippageBps: ctx.slippageBps } : {}),
    ...(ctx.markPrice !== undefined ? { markPrice: ctx.markPrice } : {}),
  });
  if (!result.ok) return refuseAll(result.message);
  const impact = result.impact;
  const checks: RiskDecision['checks'] = [
    checkDrawdown(impact, limits, ctx.trading),
    checkLeverage(impact, limits),
    checkLiquidity(impact, limits, ctx.freshness),
    checkExposure(impact, limits),
  ];
  return {
    approved: checks.every((c) => c.passed),
    checks,
    impact: {
      price: impact.price,
      qty: impact.qty,
      notional: impact.notional,
      cost: impact.cost,
      positionBefore: impact.positionBefore,
      positionAfter: impact.positionAfter,
      reducesPosition: impact.reducesPosition,
      before: figures(impact, 'before'),
      after: figures(impact, 'after'),
      restingCounted: impact.restingCounted,
      pendingCounted: impact.pendingCounted,
    },
    scaledQty: scaledClose(checks[2], impact, ctx.lotSize),
  };
}

function figures(impact: OrderImpact, when: 'before' | 'after'): ProjectedFigures {
  const b = when === 'before';
  const nav = b ? impact.navBefore : impact.navAfter;
  const ratio = (x: number): number | null => (nav > 0 ? x / nav : null);
  return {
    symbolExposure: ratio(b ? impact.symbolNotionalBefore : impact.symbolNotionalAfter),
    totalExposure: ratio(Math.abs(b ? impact.netBefore : impact.netAfter)),
    leverage: ratio(b ? impact.grossBefore : impact.grossAfter),
    drawdown: drawdown(b ? impact.nav : impact.navAfter, impact.peakNav),
    marginUsed: b ? impact.marginBefore : impact.marginAfter,
  };
}

/** The size a liquidity-scaled close is signed at: the allowed quantity down to a lot, at least one lot. */
function scaledClose(liquidity: GuardCheck, impact: OrderImpact, lotSize: number | undefined): number | null {
  if (liquidity.code !== 'LIQUIDITY_SCALED') return null;
  const allowed = liquidity.metrics.allowedQty ?? 0;
  const lot = lotSize !== undefined && lotSize > 0 ? lotSize : null;
  const rounded = lot === null ? allowed : Math.max(lot, floorToStep(allowed, lot));
  // With no lot size and nothing allowed there is no smaller size to send: the close goes out whole.
  if (!(rounded > 0)) return null;
  return Math.min(rounded, impact.qty);
}

/** When an order cannot be judged (bad input, no market data, an error), every guard refuses it. */
export function refuseAll(message: string): RiskDecision {
  const refuse = (guard: GuardName): GuardCheck => ({
    guard,
    passed: false,
    code: 'INVALID_ORDER',
    value: null,
    limit: null,
    message,
    metrics: {},
  });
  return {
    approved: false,
    checks: [refuse('drawdown'), refuse('leverage'), refuse('liquidity'), refuse('exposure')],
    impact: null,
    scaledQty: null,
  };
}
