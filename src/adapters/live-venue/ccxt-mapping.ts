/**
 * ccxt's unified shapes read as the system's own: an exchange order as a VenueOrder, an exchange
 * trade as a Fill, a position as a Position. Symbols are ours (`BTCUSDT`, the exchange's market id);
 * ccxt's unified symbol (`BTC/USDT:USDT`) is used only to call it. Quantities are ours too, in the
 * base: ccxt's are in contracts, converted by the market's contract size (OKX BTC-USDT-SWAP: 0.01),
 * which every function here takes, so none can be read without it. Nothing here calls the exchange.
 */
import type { Order, Position as CcxtPosition, Trade } from 'ccxt';
import type { Fill, OrderRequest, OrderStatus, VenueOrder } from '../../domain/orders.js';
import type { Position } from '../../domain/portfolio.js';
import { contractSizeOf, toBase } from '../exchanges/contract-units.js';

/** Our symbol (the exchange's market id) ↔ ccxt's unified symbol, for the markets we trade. */
export interface SymbolMap {
  unified(symbol: string): string;
  /** Our symbol for a unified one, or null for a market we do not trade. */
  ours(unified: string): string | null;
  /** The base one contract of our symbol's market is worth (1 for spot and most perpetuals). */
  contractSize(symbol: string): number;
  readonly symbols: readonly string[];
}

export function symbolMap(
  pairs: ReadonlyArray<readonly [ours: string, unified: string]>,
  contractSizes: ReadonlyMap<string, number> = new Map(),
): SymbolMap {
  const toUnified = new Map(pairs);
  const toOurs = new Map(pairs.map(([o, u]) => [u, o]));
  const unified = (symbol: string) => {
    const found = toUnified.get(symbol);
    if (found === undefined) throw new Error(`${symbol} is not a market this venue trades`);
    return found;
  };
  return {
    unified,
    ours: (u) => toOurs.get(u) ?? null,
    contractSize: (symbol) => contractSizes.get(unified(symbol)) ?? 1,
    symbols: [...toUnified.keys()],
  };
}

/** ccxt's order status as ours: an expired order (IOC rest, a reduce-only capped at the position) is cancelled. */
export function statusOf(order: Pick<Order, 'status'>): OrderStatus {
  switch (order.status) {
    case 'open':
      return 'open';
    case 'closed':
      return 'filled';
    case 'rejected':
      return 'rejected';
    default:
      return 'cancelled';
  }
}

/**
 * An exchange order as a VenueOrder. `request` is ours when we placed it (its client id, GTT and
 * post-only as we asked); a foreign order (placed by hand, left by another process) is read whole
 * from the exchange, under the client id the exchange shows.
 */
export function toVenueOrder(order: Order, symbol: string, contractSize: number, request?: OrderRequest): VenueOrder {
  const filledQty = toBase(finite(order.filled) ?? 0, contractSize);
  const createdAt = finite(order.timestamp) ?? 0;
  const base: OrderRequest = request ?? {
    clientOrderId: order.clientOrderId ?? order.id ?? '',
    symbol,
    side: order.side === 'sell' ? 'SELL' : 'BUY',
    qty: toBase(finite(order.amount) ?? 0, contractSize),
    type: order.type === 'limit' ? 'limit' : 'market',
    limitPrice: order.type === 'limit' ? (finite(order.price) ?? null) : null,
    reduceOnly: order.reduceOnly === true,
    ...(order.postOnly ? { postOnly: true } : {}),
  };
  return {
    ...base,
    status: statusOf(order),
    filledQty,
    avgFillPrice: filledQty > 0 ? (finite(order.average) ?? finite(order.price) ?? null) : null,
    createdAt,
    updatedAt: finite(order.lastUpdateTimestamp) ?? finite(order.lastTradeTimestamp) ?? createdAt,
  };
}

/** An exchange trade of one of our orders as a Fill (fee in quote; a rebate is negative). */
export function toFill(trade: Trade, clientOrderId: string, symbol: string, contractSize: number): Fill {
  return {
    clientOrderId,
    symbol,
    side: trade.side === 'sell' ? 'SELL' : 'BUY',
    qty: toBase(finite(trade.amount) ?? 0, contractSize),
    price: finite(trade.price) ?? 0,
    fee: finite(trade.fee?.cost) ?? 0,
    liquidity: trade.takerOrMaker === 'maker' ? 'maker' : 'taker',
    ts: finite(trade.timestamp) ?? 0,
  };
}

/** A held perpetual position, signed (short negative); null for a flat one. */
export function toPosition(position: CcxtPosition, symbol: string, contractSize: number): Position | null {
  const contracts = finite(position.contracts) ?? 0;
  if (contracts === 0) return null;
  const held = toBase(Math.abs(contracts), contractSize);
  const qty = position.side === 'short' ? -held : held;
  const entryPrice = finite(position.entryPrice) ?? 0;
  const markPrice = finite(position.markPrice) ?? entryPrice;
  return {
    symbol,
    kind: 'perp',
    qty,
    entryPrice,
    markPrice,
    unrealizedPnl: finite(position.unrealizedPnl) ?? qty * (markPrice - entryPrice),
    realizedPnl: finite(position.realizedPnl) ?? 0,
  };
}

function finite(x: number | undefined | null): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

/**
 * Our symbols (`BTCUSDT`: the exchange's market id, or its base and quote where the id says more,
 * as OKX's `BTC-USDT-SWAP` does — as the live feed names them) resolved to the exchange's linear
 * perpetuals once its markets are loaded; a symbol the exchange does not list as one is an error naming it.
 */
export function perpetualSymbols(
  markets: Record<
    string,
    | {
        id?: string;
        symbol?: string;
        swap?: boolean;
        linear?: boolean;
        base?: string;
        quote?: string;
        contractSize?: number | undefined;
      }
    | undefined
  >,
  ours: readonly string[],
): SymbolMap {
  const byId = new Map<string, string>();
  const byPair = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const m of Object.values(markets)) {
    if (!m?.id || !m.symbol || !m.swap || !m.linear) continue;
    sizes.set(m.symbol, contractSizeOf(m));
    if (!byId.has(m.id)) byId.set(m.id, m.symbol);
    const pair = `${m.base ?? ''}${m.quote ?? ''}`.toUpperCase().replace(/[^A-Z0-9]/g, '');
    if (pair !== '' && !byPair.has(pair)) byPair.set(pair, m.symbol);
  }
  // The market id first: where an id and another market's pair agree, the id names it.
  const find = (s: string) => byId.get(s) ?? byPair.get(s);
  const missing = ours.filter((s) => find(s) === undefined);
  if (missing.length > 0)
    throw new Error(
      `the exchange lists no linear perpetual ${missing.join(', ')} (SYMBOLS names its market ids, or base and quote)`,
    );
  return symbolMap(
    ours.map((s) => [s, find(s)!] as const),
    sizes,
  );
}

/**
 * Our symbols (`BTCUSDT`) resolved to the exchange's spot pairs quoted in USDT (`BTC/USDT`), once its
 * markets are loaded: the NAV of a spot account is counted in USDT (./spot-holdings.ts), so a pair in
 * another quote is an error naming it, as is a symbol the exchange does not list as a spot pair.
 */
export function spotSymbols(
  markets: Record<string, { id?: string; symbol?: string; spot?: boolean; quote?: string } | undefined>,
  ours: readonly string[],
): SymbolMap {
  const byId = new Map<string, string>();
  for (const m of Object.values(markets))
    if (m?.id && m.symbol && m.spot && m.quote === 'USDT' && !byId.has(m.id)) byId.set(m.id, m.symbol);
  const missing = ours.filter((s) => !byId.has(s));
  if (missing.length > 0)
    throw new Error(`the exchange lists no USDT spot pair ${missing.join(', ')} (SYMBOLS names its market ids)`);
  return symbolMap(ours.map((s) => [s, byId.get(s)!] as const));
}

/** Our symbols resolved to what the exchange's profile trades: spot pairs, or linear perpetuals. */
export function tradedSymbols(
  market: 'swap' | 'spot' | undefined,
  markets: Parameters<typeof perpetualSymbols>[0] & Parameters<typeof spotSymbols>[0],
  ours: readonly string[],
): SymbolMap {
  return market === 'spot' ? spotSymbols(markets, ours) : perpetualSymbols(markets, ours);
}
