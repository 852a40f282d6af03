/**
 * Issue 20, item 5: the system's own orders never take leverage, exposure or the book's depth past a
 * limit once they have filled and paid for it. Over random accounts, books, limits and signals, the
 * real allocator sizes a cycle's orders and the risk actor's `review` judges them one after another;
 * the approved ones are then filled here as the paper venue fills them (its own `priceMarketOrder`
 * and taker fee), each on the book the earlier fills of the cycle left, in the order of the verdicts
 * (closes first), and the figures are measured afterwards from positions valued as the venue marks
 * them (mid) and the NAV that paid the fees and spread:
 *  - an approved order that adds risk leaves every symbol's exposure (its own and, through the NAV
 *    its costs take, the others'), the net exposure and the gross leverage within their limits (when
 *    they were within before it);
 *  - the cycle's orders on one side of a symbol take at most the depth share of the visible book;
 *  - a reduce-only close is never refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { review } from '../../machines/risk.machine.js';
import { priceMarketOrder } from '../../src/adapters/paper-venue/fill-pricing.js';
import { allocate } from '../../src/domain/allocation.js';
import { barsFromCloses } from '../../src/domain/bars.js';
import type { BookLevel, Instrument, MarketSnapshot } from '../../src/domain/market.js';
import { valuationPrice } from '../../src/domain/market.js';
import { signApproval } from '../../src/domain/order-token.js';
import type { Side } from '../../src/domain/orders.js';
import type { AccountSnapshot, Position } from '../../src/domain/portfolio.js';
import type { RiskLimits } from '../../src/domain/risk/limits.js';
import type { Signal } from '../../src/domain/signal.js';

const FEE = 0.0005;
const TS = 1_700_000_000_000;
const SYMBOLS = [
  { symbol: 'BTCUSDT', price: 100, tick: 0.01 },
  { symbol: 'ETHUSDT', price: 2_000, tick: 0.1 },
] as const;
const INSTRUMENTS: Instrument[] = SYMBOLS.map((s) => ({
  symbol: s.symbol,
  kind: 'perp',
  lotSize: 0.001,
  tickSize: s.tick,
  minNotional: 1,
}));
const num = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

const bookArb = fc.record({
  spreadTicks: fc.integer({ min: 1, max: 40 }),
  lastInSpread: num(0, 1),
  levels: fc.integer({ min: 1, max: 8 }),
  gapTicks: fc.integer({ min: 1, max: 20 }),
  // Depth of one level as a fraction of NAV's worth of the symbol.
  levelDepth: fc.oneof(num(0.001, 0.05), num(0.05, 2)),
  volume: fc.oneof(num(0.01, 1), num(1, 100)),
  exposure: fc.oneof(fc.constant(0), num(-0.8, 0.8)),
});

const scenarioArb = fc.record({
  nav: num(1_000, 1e6),
  books: fc.tuple(bookArb, bookArb),
  limits: fc.record({
    maxDrawdown: fc.constant(1),
    maxLeverage: num(0.3, 3),
    maxVolumeFraction: num(0.01, 1),
    maxDepthFraction: num(0.05, 1),
    maxSymbolExposure: num(0.05, 1),
    maxTotalExposure: num(0.1, 2),
  }),
  riskFraction: num(0.05, 1),
  signals: fc.array(
    fc.record({ symbol: fc.constantFrom(0, 1), direction: fc.constantFrom(-1, 0, 1), confidence: num(0, 1) }),
    { minLength: 1, maxLength: 4 },
  ),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario): { account: AccountSnapshot; markets: Map<string, MarketSnapshot> } {
  const markets = new Map<string, MarketSnapshot>();
  const positions: Position[] = [];
  SYMBOLS.forEach((sym, i) => {
    const b = s.books[i]!;
    const bid = sym.price;
    const ask = bid + b.spreadTicks * sym.tick;
    const last = Math.round((bid + (ask - bid) * b.lastInSpread) / sym.tick) * sym.tick;
    const levelQty = Math.max(0.001, Math.round(((b.levelDepth * s.nav) / sym.price) * 1000) / 1000);
    const side = (start: number, dir: number): BookLevel[] =>
      Array.from({ length: b.levels }, (_, k) => ({ price: start + dir * k * b.gapTicks * sym.tick, qty: levelQty }));
    markets.set(sym.symbol, {
      symbol: sym.symbol,
      ts: TS,
      last,
      bid,
      ask,
      bids: side(bid, -1),
      asks: side(ask, 1),
      bars: barsFromCloses([last]),
      volume: (b.volume * s.nav) / last,
      fundingRate: null,
      nextFundingTs: null,
    });
    const qty = Math.round(((b.exposure * s.nav) / last) * 1000) / 1000;
    if (qty !== 0)
      positions.push({
        symbol: sym.symbol,
        kind: 'perp',
        qty,
        entryPrice: last,
        markPrice: last,
        unrealizedPnl: 0,
        realizedPnl: 0,
      });
  });
  const account: AccountSnapshot = {
    nav: s.nav,
    peakNav: s.nav,
    cash: s.nav,
    realizedPnl: 0,
    unrealizedPnl: 0,
    fundingPnl: 0,
    feesPaid: 0,
    positions,
    openOrders: [],
    ts: TS,
  };
  return { account, markets };
}

/** The account figures, measured from positions at the venue's mark (mid) and the NAV. */
function measure(positions: Map<string, number>, markets: Map<string, MarketSnapshot>, nav: number) {
  let gross = 0;
  let net = 0;
  const symbol = new Map<string, number>();
  for (const [sym, qty] of positions) {
    const notional = qty * valuationPrice(markets.get(sym)!);
    gross += Math.abs(notional);
    net += notional;
    symbol.set(sym, Math.abs(notional) / nav);
  }
  return { gross: gross / nav, net: Math.abs(net) / nav, symbol };
}

/** The book after `taken` units of the `side` a taker on `side` consumes were taken. */
function depleted(m: MarketSnapshot, side: Side, taken: number): MarketSnapshot {
  let left = taken;
  const levels: BookLevel[] = [];
  for (const l of side === 'BUY' ? m.asks : m.bids) {
    const take = Math.min(left, l.qty);
    left -= take;
    if (l.qty - take > 1e-12) levels.push({ price: l.price, qty: l.qty - take });
  }
  return side === 'BUY' ? { ...m, asks: levels } : { ...m, bids: levels };
}

describe('the system\u2019s own orders, once filled and paid for, stay within the limits', () => {
  it('over random accounts, books, limits and signals', () => {
    let filledIncreases = 0;
    let closes = 0;
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { account, markets } = build(s);
        const limits: RiskLimits = s.limits;
        const signals: Signal[] = s.signals.map((g) => ({
          agent: 'a',
          symbol: SYMBOLS[g.symbol]!.symbol,
          direction: g.direction,
          confidence: g.confidence,
        }));
        const proposals = allocate(
          signals,
          { account, market: markets, instruments: new Map(INSTRUMENTS.map((i) => [i.symbol, i])), cycle: 1 },
          { riskFraction: s.riskFraction, orderStyle: 'market', sessionId: 's', limits, noTradeBand: 0, feeRate: FEE },
        );
        const orders = proposals.flatMap((p) => (p.order ? [p.order] : []));
        if (orders.length === 0) return;
        const reply = review(
          {
            limits,
            tokenTtlMs: 10_000,
            feeRate: FEE,
            instruments: INSTRUMENTS,
            sign: (o, epoch, expiresAt) => signApproval(o, { secret: 'x'.repeat(32), epoch, expiresAt }),
          },
          { type: 'risk.evaluate', cycle: 1, epoch: 1, now: TS, account, market: markets, orders, replyTo: null! },
        );

        const positions = new Map(account.positions.map((p) => [p.symbol, p.qty]));
        let nav = account.nav;
        const taken = new Map<string, number>();
        for (const v of reply.verdicts) {
          const held = positions.get(v.order.symbol) ?? 0;
          const sign = v.order.side === 'BUY' ? 1 : -1;
          const reducing = v.order.reduceOnly && held !== 0 && Math.sign(held) === -sign;
          if (reducing) {
            closes += 1;
            expect(v.approval).not.toBeNull();
          }
          if (!v.approval) continue;
          const order = v.approval.order;
          // The venue fills a reduce-only order only toward flat: nothing once an earlier close got there.
          if (order.reduceOnly && !reducing) continue;
          const m = markets.get(order.symbol)!;
          const key = `${order.symbol}:${order.side}`;
          const already = taken.get(key) ?? 0;
          // The venue caps a reduce-only fill at the position.
          const qty = reducing ? Math.min(order.qty, Math.abs(held)) : order.qty;
          const tick = INSTRUMENTS.find((i) => i.symbol === order.symbol)!.tickSize;
          const fill = priceMarketOrder(
            depleted(m, order.side, already),
            order.side,
            qty,
            { overflowPenalty: 0.001 },
            tick,
          );
          taken.set(key, already + qty);
          const before = measure(positions, markets, nav);
          nav -= qty * fill.price * FEE + sign * qty * (fill.price - valuationPrice(m));
          positions.set(order.symbol, held + sign * qty);
          if (reducing) continue;
          filledIncreases += 1;
          const after = measure(positions, markets, nav);
          const slack = 1 + 1e-9;
          for (const [sym, ratio] of after.symbol)
            if ((before.symbol.get(sym) ?? 0) <= limits.maxSymbolExposure)
              expect(ratio, sym).toBeLessThanOrEqual(limits.maxSymbolExposure * slack);
          if (before.net <= limits.maxTotalExposure)
            expect(after.net).toBeLessThanOrEqual(limits.maxTotalExposure * slack);
          if (before.gross <= limits.maxLeverage) expect(after.gross).toBeLessThanOrEqual(limits.maxLeverage * slack);
          // The cycle's orders on this side took at most the depth share of the book.
          const visible = (order.side === 'BUY' ? m.asks : m.bids).reduce((sum, l) => sum + l.qty, 0);
          expect(taken.get(key)!).toBeLessThanOrEqual(limits.maxDepthFraction * visible * slack);
        }
      }),
      { numRuns: 1_000 },
    );
    // Not vacuous: orders that add risk were filled and closes were judged.
    expect(filledIncreases).toBeGreaterThan(30);
    expect(closes).toBeGreaterThan(10);
  });
});
