/**
 * What a close needs for a symbol the account holds but the configuration no longer lists (SYMBOLS
 * changed since the position was opened): an instrument and a market to price it on. A close is
 * never refused for want of configuration, so both are made up from what is known:
 *  - the instrument from the built-in table of lot and tick steps (instruments.ts), with the
 *    position's own kind;
 *  - the market, when the feed carries no snapshot of the symbol, from the position's last mark
 *    (the price the venue last valued it at): one level at that price on each side, deep enough for
 *    the whole position many times over (no guard scales it). The paper venue fills the close there (taker fee as
 *    usual); a live exchange fills it at its own market price, the snapshot only serves the risk
 *    engine's arithmetic. Whitelisted and fed symbols are left exactly as they are.
 */
import { barsFromRows } from './bars.js';
import { instrumentOf } from './instruments.js';
import type { Instrument, MarketSnapshot, MarketView } from './market.js';
import type { Position } from './portfolio.js';

/** The made-up book and volume, in multiples of the position. */
const DEPTH_FACTOR = 1_000;

/** `instruments` with one for every held symbol it lacks. */
export function withHeldInstruments(
  instruments: ReadonlyMap<string, Instrument>,
  positions: readonly Pick<Position, 'symbol' | 'kind' | 'qty'>[],
): ReadonlyMap<string, Instrument> {
  const missing = positions.filter((p) => p.qty !== 0 && !instruments.has(p.symbol));
  if (missing.length === 0) return instruments;
  const all = new Map(instruments);
  for (const p of missing) all.set(p.symbol, instrumentOf(p.symbol, p.kind));
  return all;
}

/** `market` with a snapshot at the last mark for every held symbol the feed does not carry. */
export function withHeldQuotes(
  market: MarketView,
  positions: readonly Pick<Position, 'symbol' | 'kind' | 'qty' | 'markPrice'>[],
  now: number,
): MarketView {
  const missing = positions.filter((p) => p.qty !== 0 && !market.has(p.symbol) && p.markPrice > 0);
  if (missing.length === 0) return market;
  const all = new Map(market);
  for (const p of missing) all.set(p.symbol, heldQuote(p, now));
  return all;
}

/** The made-up snapshot of a held symbol the feed does not carry: its last mark, deep enough to close it. */
export function heldQuote(p: Pick<Position, 'symbol' | 'kind' | 'qty' | 'markPrice'>, now: number): MarketSnapshot {
  const price = p.markPrice;
  // Deep and traded enough that the liquidity guard (a share of depth and of volume) never scales the
  // close: nothing is known of this market, and a close is never refused for want of data.
  const depth = [{ price, qty: Math.abs(p.qty) * DEPTH_FACTOR }];
  return {
    symbol: p.symbol,
    ts: now,
    last: price,
    bid: price,
    ask: price,
    bids: depth,
    asks: depth,
    bars: barsFromRows([{ time: now, open: price, high: price, low: price, close: price, volume: 0 }]),
    volume: Math.abs(p.qty) * DEPTH_FACTOR,
    fundingRate: p.kind === 'perp' ? 0 : null,
    nextFundingTs: null,
  };
}
