/**
 * Random accounts, books, limits and fee rates for the risk properties of issue 20 (trading states,
 * protective exits). The books follow order-costs.property.test.ts (spread and level gaps in ticks,
 * depth and traded volume as shares of NAV's worth of the symbol) and add what the trading states must
 * survive: empty books, data older than FEED_STALE_MS, drawdowns down to NAV ≤ 0, resting orders, off-
 * grid position sizes, and a position in a symbol the cycle has no market data for (ORPHAN).
 */
import fc from 'fast-check';
import type { RiskInput } from '../../machines/risk.machine.js';
import { barsFromCloses } from '../../src/domain/bars.js';
import type { Bars } from '../../src/domain/bars.js';
import type { BookLevel, Instrument, MarketSnapshot } from '../../src/domain/market.js';
import { floorToLot } from '../../src/domain/market.js';
import { signApproval } from '../../src/domain/order-token.js';
import type { OrderRequest, Side, VenueOrder } from '../../src/domain/orders.js';
import type { AccountSnapshot, Position } from '../../src/domain/portfolio.js';
import type { RiskLimits } from '../../src/domain/risk/limits.js';

export const NOW = 1_700_000_000_000;
export const STALE_MS = 5_000;

const SYMBOLS = [
  { symbol: 'BTCUSDT', kind: 'perp', price: 100, tick: 0.01, lot: 0.001 },
  { symbol: 'ETHUSDT', kind: 'perp', price: 2_000, tick: 0.1, lot: 0.001 },
  // Spot: long only, and no margin.
  { symbol: 'SOLUSDT', kind: 'spot', price: 20, tick: 0.001, lot: 0.01 },
] as const;
export const INSTRUMENTS: Instrument[] = SYMBOLS.map((s) => ({
  symbol: s.symbol,
  kind: s.kind,
  lotSize: s.lot,
  tickSize: s.tick,
  minNotional: 1,
}));
export const LOTS = new Map(INSTRUMENTS.map((i) => [i.symbol, i.lotSize]));
/** Held, but neither an instrument nor in the cycle's market data. */
export const ORPHAN = 'XRPUSDT';

export const num = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** As risk.property.test.ts: every limit anywhere in its valid range, and often a
 * loose per-symbol limit with a tight net one, so that EXPOSURE_TOTAL is met (EXPOSURE_SYMBOL is reported first). */
export const limitsArb: fc.Arbitrary<RiskLimits> = fc.record({
  maxDrawdown: num(0.01, 1),
  maxLeverage: num(0.3, 10),
  maxVolumeFraction: num(0.001, 1),
  maxDepthFraction: num(0.01, 1),
  maxSymbolExposure: fc.oneof(num(0.05, 3), num(3, 10)),
  maxTotalExposure: fc.oneof(num(0.1, 0.6), num(0.6, 10)),
});
export const feeArb = fc.oneof(fc.constantFrom(0, 0.0002, 0.0005, 0.001), num(0, 0.01));

const bookArb = fc.record({
  /** The bid as a multiple of the symbol's base price. */
  scale: num(0.2, 5),
  spreadTicks: fc.integer({ min: 1, max: 40 }),
  lastInSpread: num(0, 1),
  /** 0: no visible level at all (the thinnest book there is). */
  levels: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 6, arbitrary: fc.integer({ min: 1, max: 8 }) }),
  gapTicks: fc.integer({ min: 1, max: 20 }),
  /** Depth of one level, as a fraction of NAV's worth of the symbol. */
  levelDepth: fc.oneof(num(0.0001, 0.01), num(0.01, 0.05), num(0.05, 2)),
  /** Traded notional, as a multiple of NAV. */
  volume: fc.oneof(fc.constant(0), num(0.001, 1), num(1, 100)),
  /** The data's age in ms; beyond STALE_MS is stale. */
  age: fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 0, max: STALE_MS }) },
    { weight: 1, arbitrary: fc.integer({ min: STALE_MS + 1, max: 600_000 }) },
  ),
  /** Position as a multiple of NAV's worth (spot: its absolute value). */
  exposure: fc.oneof(
    { weight: 1, arbitrary: fc.constant(0) },
    { weight: 3, arbitrary: num(-3, 3) },
    { weight: 2, arbitrary: num(-0.05, 0.05) },
  ),
  /** On the lot grid, or a size left by float sums (off the grid). */
  onLot: fc.boolean(),
  /** Entry price as a multiple of last. */
  entry: num(0.5, 1.5),
});
type Book = typeof bookArb extends fc.Arbitrary<infer T> ? T : never;

const restingArb = fc.record({
  symbol: fc.integer({ min: 0, max: 2 }),
  side: fc.constantFrom<Side>('BUY', 'SELL'),
  /** Quantity as a multiple of NAV's worth. */
  size: num(0.001, 1),
  filled: num(0, 0.9),
  reduceOnly: fc.boolean(),
  priceFactor: num(0.8, 1.2),
});

export const accountArb = fc.record({
  /** The reference (peak) NAV. */
  peak: num(1_000, 1e6),
  /** Fall from the peak: none, mild, deep, or through zero (the value is then NAV / peak, ≤ 0). */
  fall: fc.oneof(
    { weight: 2, arbitrary: fc.constant(0) },
    { weight: 3, arbitrary: num(0, 0.3) },
    { weight: 3, arbitrary: num(0.3, 0.999) },
    { weight: 2, arbitrary: num(1, 1.5) },
  ),
  books: fc.tuple(bookArb, bookArb, bookArb),
  resting: fc.array(restingArb, { maxLength: 3 }),
  orphan: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: num(-1, 1) }),
});
export type AccountScenario = typeof accountArb extends fc.Arbitrary<infer T> ? T : never;

function round(value: number, step: number): number {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
  return Number((Math.round(value / step) * step).toFixed(decimals));
}

export interface Built {
  account: AccountSnapshot;
  markets: Map<string, MarketSnapshot>;
  /** Signed position per symbol (ORPHAN included), 0 when none. */
  held: Map<string, number>;
  /** NAV's worth of one unit: the reference NAV, for sizing orders. */
  refNav: number;
}

/**
 * One symbol's snapshot from a generated book, its prices moved by `priceScale`; `bars` gives the
 * candles ending at `last` (default: that one close).
 */
export function snapshotOf(i: number, b: Book, priceScale = 1, bars?: (last: number) => Bars): MarketSnapshot {
  const s = SYMBOLS[i]!;
  const bid = Math.max(s.tick, round(s.price * b.scale * priceScale, s.tick));
  const ask = round(bid + b.spreadTicks * s.tick, s.tick);
  const last = round(bid + (ask - bid) * b.lastInSpread, s.tick);
  return { ...bookLevels(i, b, bid, ask, last), bars: bars ? bars(last) : barsFromCloses([last]) };
}

function bookLevels(i: number, b: Book, bid: number, ask: number, last: number): Omit<MarketSnapshot, 'bars'> {
  const s = SYMBOLS[i]!;
  // Depth and volume are fractions of a 100 000 NAV here; the accounts range 1 000 to 1e6 around it.
  const levelQty = Math.max(s.lot, round((b.levelDepth * 100_000) / last, s.lot));
  const side = (start: number, dir: number): BookLevel[] =>
    Array.from({ length: b.levels }, (_, k) => ({
      price: round(start + dir * k * b.gapTicks * s.tick, s.tick),
      qty: levelQty,
    })).filter((l) => l.price > 0);
  return {
    symbol: s.symbol,
    ts: NOW - b.age,
    last,
    bid,
    ask,
    bids: side(bid, -1),
    asks: side(ask, 1),
    volume: (b.volume * 100_000) / last,
    fundingRate: s.kind === 'perp' ? 0.0001 : null,
    nextFundingTs: s.kind === 'perp' ? NOW + 3_600_000 : null,
  };
}

/** The position a book asks for at `last`, against a reference NAV. */
function positionQty(i: number, b: Book, refNav: number, last: number): number {
  const s = SYMBOLS[i]!;
  const raw = ((s.kind === 'spot' ? Math.abs(b.exposure) : b.exposure) * refNav) / last;
  if (!b.onLot) return raw;
  return Math.sign(raw) * floorToLot(Math.abs(raw), s.lot);
}

export function buildAccount(a: AccountScenario, markets: Map<string, MarketSnapshot>): Built {
  const refNav = a.peak;
  const nav = a.fall <= 1 ? a.peak * (1 - a.fall) : -a.peak * (a.fall - 1);
  const positions: Position[] = [];
  const held = new Map<string, number>([[ORPHAN, 0]]);
  SYMBOLS.forEach((s, i) => {
    const m = markets.get(s.symbol)!;
    const b = a.books[i]!;
    const qty = positionQty(i, b, refNav, m.last);
    held.set(s.symbol, qty);
    if (qty !== 0)
      positions.push({
        symbol: s.symbol,
        kind: s.kind,
        qty,
        entryPrice: round(m.last * b.entry, s.tick),
        markPrice: m.last,
        unrealizedPnl: 0,
        realizedPnl: 0,
      });
  });
  if (a.orphan !== 0) {
    const qty = (a.orphan * refNav) / 0.5;
    held.set(ORPHAN, qty);
    positions.push({
      symbol: ORPHAN,
      kind: 'perp',
      qty,
      entryPrice: 0.5,
      markPrice: 0.5,
      unrealizedPnl: 0,
      realizedPnl: 0,
    });
  }
  const openOrders: VenueOrder[] = a.resting.map((r, k) => {
    const s = SYMBOLS[r.symbol]!;
    const last = markets.get(s.symbol)!.last;
    const qty = Math.max(s.lot, round((r.size * refNav) / last, s.lot));
    return {
      clientOrderId: `rest-${k}`,
      symbol: s.symbol,
      side: r.side,
      qty,
      type: 'limit',
      limitPrice: round(last * r.priceFactor, s.tick) || s.tick,
      reduceOnly: r.reduceOnly,
      status: 'open',
      filledQty: floorToLot(qty * r.filled, s.lot),
      avgFillPrice: null,
      createdAt: NOW - 60_000,
      updatedAt: NOW - 60_000,
    };
  });
  const account: AccountSnapshot = {
    nav,
    peakNav: a.peak,
    cash: nav,
    realizedPnl: 0,
    unrealizedPnl: 0,
    fundingPnl: 0,
    feesPaid: 0,
    positions,
    openOrders,
    ts: NOW,
  };
  return { account, markets, held, refNav };
}

/** The account and this cycle's market data (every symbol but ORPHAN). */
export function build(a: AccountScenario): Built {
  const markets = new Map(SYMBOLS.map((s, i) => [s.symbol, snapshotOf(i, a.books[i]!)]));
  return buildAccount(a, markets);
}

/** The risk actor's input, with the real signer (approvals carry a token as in production). */
export function riskInput(limits: RiskLimits, feeRate: number, judgeStaleness: boolean): RiskInput {
  return {
    limits,
    tokenTtlMs: 30_000,
    feeRate,
    instruments: INSTRUMENTS,
    ...(judgeStaleness ? { feedStaleMs: STALE_MS } : {}),
    sign: (o, epoch, expiresAt) => signApproval(o, { secret: 'p'.repeat(32), epoch, expiresAt }),
  };
}

/** A reduce-only order on the side opposite a nonzero position: the engine's "reduces the position". */
export function closesPosition(
  order: Pick<OrderRequest, 'symbol' | 'side' | 'reduceOnly'>,
  held: ReadonlyMap<string, number>,
): boolean {
  const position = held.get(order.symbol) ?? 0;
  return order.reduceOnly && position !== 0 && (order.side === 'SELL') === position > 0;
}

export const SYMBOL_NAMES: string[] = SYMBOLS.map((s) => s.symbol);
export const TICKS = new Map(INSTRUMENTS.map((i) => [i.symbol, i.tickSize]));
export { round };
