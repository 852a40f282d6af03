/**
 * Orders, approvals and fills. One order path with no shortcuts: OrderRequest → (risk) ApprovedOrder
 * → (order manager) venue → Fill.
 */

export type Side = 'BUY' | 'SELL';
export type OrderType = 'market' | 'limit';
/**
 * How long a resting limit order lives: GTC until filled or cancelled; GTT until `goodTill` (epoch
 * ms), when the venue cancels what is left. Market orders fill at once and ignore it.
 */
export type TimeInForce = 'GTC' | 'GTT';

export interface OrderRequest {
  /** Unique per order; the venue is idempotent on it. */
  clientOrderId: string;
  symbol: string;
  side: Side;
  qty: number;
  type: OrderType;
  /** Required for limit orders, null for market orders. */
  limitPrice: number | null;
  reduceOnly: boolean;
  /** Default GTC. */
  timeInForce?: TimeInForce;
  /** Epoch ms a GTT order is cancelled at; required with GTT, refused otherwise. */
  goodTill?: number;
  /** Limit orders only: rest as maker or be refused (POST_ONLY_WOULD_CROSS), never take. Default false. */
  postOnly?: boolean;
}

/** A risk-approved order with its HMAC token (`hmac:<hex>`) over the order, epoch and expiry. */
export interface ApprovedOrder {
  order: OrderRequest;
  token: string;
  /** The control epoch at approval; the order manager refuses it once the epoch has moved on. */
  epoch: number;
  /** Epoch ms after which the token is refused. */
  expiresAt: number;
}

export type OrderStatus = 'open' | 'filled' | 'cancelled' | 'rejected';

export interface VenueOrder extends OrderRequest {
  status: OrderStatus;
  filledQty: number;
  /** Volume-weighted fill price, null until something filled. */
  avgFillPrice: number | null;
  /** Epoch ms. */
  createdAt: number;
  updatedAt: number;
  rejectReason?: string;
}

export interface Fill {
  clientOrderId: string;
  symbol: string;
  side: Side;
  qty: number;
  price: number;
  /** Fee paid in quote currency (negative = rebate). */
  fee: number;
  liquidity: 'maker' | 'taker';
  /** Epoch ms. */
  ts: number;
  /** What a paper taker fill paid beyond the mid of the book it met; absent on maker and live fills. */
  costs?: FillCosts;
}

/**
 * A taker fill's costs in quote currency, beside its fee: `spread` = |price before slippage − mid| ×
 * qty (the half spread, the walk through the book and the tick rounding), `slippage` = |price −
 * price before slippage| × qty (SLIPPAGE_BPS). Kept to QUOTE_STEP.
 */
export interface FillCosts {
  spread: number;
  slippage: number;
}

/** +1 for BUY, −1 for SELL. */
export function sideSign(side: Side): 1 | -1 {
  return side === 'BUY' ? 1 : -1;
}
