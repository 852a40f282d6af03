/**
 * Trims for what a cycle's own costs did: a close is never refused, but its fee and spread lower the
 * NAV every other symbol's exposure divides by, so a symbol held just under RISK_MAX_SYMBOL_EXPOSURE
 * can end the cycle just over it by the close's cost alone (the 100,000-cycle runs saw 0.49997 →
 * 0.50006). When a symbol was within its limit at the NAV the cycle started from and is beyond it at
 * the NAV the cycle's approved orders leave, the engine adds a reduce-only market order of its own
 * (`rtr-<epoch>-<cycle>-<symbol>`) that takes it back to the limit after paying for itself. A symbol
 * already beyond its limit at the cycle's start (a price move) is not trimmed: the guards keep
 * orders from adding to it, and trimming every price wiggle would trade on noise.
 */
import type { MarketView } from '../market.js';
import type { OrderRequest } from '../orders.js';
import type { AccountSnapshot } from '../portfolio.js';
import { ceilToStep } from '../steps.js';
import type { RiskLimits } from './limits.js';
import { projectAccount, worstAbsPosition } from './projection.js';
import type { PendingOrder } from './projection.js';

/** Aim a hair under the limit, so the trims' own costs (≈ fee × the trim) cannot lift another symbol past it. */
const AIM = 1 - 1e-6;

const TRIM_PREFIX = 'rtr-';

export function trimOrderId(epoch: number, cycle: number, symbol: string): string {
  return `${TRIM_PREFIX}${epoch}-${cycle}-${symbol}`;
}

/** Whether a client order id is one of the engine's trims. */
export function isTrimOrderId(clientOrderId: string): boolean {
  return clientOrderId.startsWith(TRIM_PREFIX);
}

export interface CostTrimInput {
  account: AccountSnapshot;
  /** The cycle's approved orders, with their expected costs (the risk actor's pending list). */
  pending: readonly PendingOrder[];
  marks: ReadonlyMap<string, number>;
  market: MarketView;
  limits: Pick<RiskLimits, 'maxSymbolExposure'>;
  lotSizes: ReadonlyMap<string, number>;
  feeRate: number;
  /** SLIPPAGE_BPS: a trim is a market order and slips like any other. */
  slippageBps: number;
  epoch: number;
  cycle: number;
}

export function costTrims(input: CostTrimInput): OrderRequest[] {
  const { account, limits } = input;
  const projection = projectAccount(account, input.pending, input.marks);
  const navAfter = account.nav - projection.pendingCost;
  if (!(account.nav > 0 && navAfter > 0)) return [];
  const limit = limits.maxSymbolExposure;
  const trims: OrderRequest[] = [];
  for (const book of projection.books.values()) {
    const worst = worstAbsPosition(book) * book.mark;
    // Within after the cycle, or already beyond before it (the market's doing): nothing to trim.
    if (worst <= limit * navAfter || worst > limit * account.nav || book.position === 0) continue;
    const snapshot = input.market.get(book.symbol);
    if (!snapshot) continue;
    const side = book.position > 0 ? 'SELL' : 'BUY';
    const price = side === 'SELL' ? snapshot.bid : snapshot.ask;
    if (!(price > 0)) continue;
    // Each unit trimmed lowers the exposure by its mark and the NAV by its fee, spread and slippage.
    const unitCost = Math.abs(price - book.mark) + (input.feeRate + input.slippageBps / 10_000) * price;
    const target = limit * AIM;
    const wanted = (worst - target * navAfter) / (book.mark - target * unitCost);
    const lot = input.lotSizes.get(book.symbol);
    const qty = Math.min(lot !== undefined && lot > 0 ? ceilToStep(wanted, lot) : wanted, Math.abs(book.position));
    if (!(qty > 0)) continue;
    trims.push({
      clientOrderId: trimOrderId(input.epoch, input.cycle, book.symbol),
      symbol: book.symbol,
      side,
      qty,
      type: 'market',
      limitPrice: null,
      reduceOnly: true,
    });
  }
  return trims;
}
