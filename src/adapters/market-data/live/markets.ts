/**
 * The system's symbols (BTCUSDT) against ccxt's unified ones ('BTC/USDT:USDT' for a USDT-margined
 * perpetual, 'BTC/USDT' for spot), resolved through the exchange's loaded markets, and the
 * instrument's lot, tick, minimum notional, largest order quantities and price band taken from those
 * markets instead of a built-in table.
 */
import type { MarketInterface as Market } from 'ccxt';
import type { Instrument } from '../../../domain/market.js';
import { contractSizeOf, toBase } from '../../exchanges/contract-units.js';

export interface ResolvedMarket {
  /** In units of the base, as the whole system counts (a lot of 0.0001 BTC, not 0.01 contracts). */
  instrument: Instrument;
  ccxtSymbol: string;
  /** The base one contract is worth (OKX BTC-USDT-SWAP 0.01; 1 elsewhere): book sizes arrive in contracts. */
  contractSize: number;
}

/** The system symbol for a ccxt market: base + quote, upper case, letters and digits only. */
export function systemSymbol(market: Pick<Market, 'base' | 'quote'>): string {
  return `${market.base}${market.quote}`.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * Picks the market of each wanted symbol: the linear perpetual settled in the quote when there is
 * one (what `binanceusdm` lists), else the spot market. `kindHint` (the built-in table's kind)
 * prefers the matching type when an exchange lists both.
 */
export function resolveMarkets(
  markets: Readonly<Record<string, Market>>,
  wanted: readonly { symbol: string; kind?: 'perp' | 'spot' }[],
  exchangeId: string,
  /** ccxt's precisionMode is TICK_SIZE (precision = a step) rather than a count of decimals. */
  tickMode = true,
): ResolvedMarket[] {
  const bySymbol = new Map<string, Market[]>();
  for (const market of Object.values(markets)) {
    if (!market || market.active === false) continue;
    const linearPerp = market.swap && market.linear && market.settle === market.quote;
    if (!linearPerp && !market.spot) continue;
    const list = bySymbol.get(systemSymbol(market)) ?? [];
    list.push(market);
    bySymbol.set(systemSymbol(market), list);
  }
  const missing: string[] = [];
  const resolved: ResolvedMarket[] = [];
  for (const { symbol, kind } of wanted) {
    const candidates = bySymbol.get(symbol) ?? [];
    const perp = candidates.find((m) => m.swap);
    const spot = candidates.find((m) => m.spot);
    const market = kind === 'spot' ? (spot ?? perp) : (perp ?? spot);
    if (!market) {
      missing.push(symbol);
      continue;
    }
    resolved.push({
      ccxtSymbol: market.symbol,
      instrument: instrumentOf(symbol, market, tickMode),
      contractSize: contractSizeOf(market),
    });
  }
  if (missing.length > 0) {
    throw new Error(`${exchangeId} lists no active perpetual or spot market for ${missing.join(', ')}`);
  }
  return resolved;
}

function positive(value: number | undefined | null): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function instrumentOf(symbol: string, market: Market, tickMode: boolean): Instrument {
  // ccxt gives a derivative's amounts in contracts; the system counts the base. The lot (and the
  // smallest amount standing in for it) is converted here, book sizes where they are read, order
  // amounts where they are sent (../../exchanges/contract-units.ts). Candle volumes need nothing:
  // ccxt reads OKX's in the base (volCcy).
  const contractSize = contractSizeOf(market);
  const step = (precision: number | undefined): number | null =>
    tickMode ? positive(precision) : typeof precision === 'number' ? 10 ** -precision : null;
  const lotContracts = step(market.precision.amount) ?? positive(market.limits.amount?.min);
  const lotSize = lotContracts === null ? null : toBase(lotContracts, contractSize);
  const tickSize = step(market.precision.price) ?? positive(market.limits.price?.min);
  if (lotSize === null || tickSize === null) {
    throw new Error(`market ${market.symbol} has no usable lot or tick size`);
  }
  return {
    symbol,
    kind: market.swap ? 'perp' : 'spot',
    lotSize,
    tickSize,
    minNotional: positive(market.limits.cost?.min) ?? 0,
    ...orderFilters(market),
  };
}

/**
 * The largest quantities and the price band from Binance's own filters (`info.filters` of
 * exchangeInfo, which ccxt keeps as it came): ccxt's unified limits carry no PERCENT_PRICE. Absent on
 * other exchanges: then nothing is limited by them.
 */
function orderFilters(market: Market): Pick<Instrument, 'maxQty' | 'marketMaxQty' | 'percentPrice'> {
  const info = market.info as { filters?: unknown } | undefined;
  const filters = Array.isArray(info?.filters) ? (info.filters as Array<Record<string, unknown>>) : [];
  const filter = (type: string) => filters.find((f) => f['filterType'] === type);
  const num = (value: unknown): number | null =>
    positive(typeof value === 'string' ? Number(value) : (value as number));
  const maxQty = num(filter('LOT_SIZE')?.['maxQty']);
  const marketMaxQty = num(filter('MARKET_LOT_SIZE')?.['maxQty']);
  const percent = filter('PERCENT_PRICE');
  const up = num(percent?.['multiplierUp']);
  const down = num(percent?.['multiplierDown']);
  return {
    ...(maxQty !== null ? { maxQty } : {}),
    ...(marketMaxQty !== null ? { marketMaxQty } : {}),
    ...(up !== null && down !== null ? { percentPrice: { up, down } } : {}),
  };
}
