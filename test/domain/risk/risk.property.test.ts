// Properties of the risk engine over random accounts, markets and orders, checked against figures
// recomputed here independently of the engine.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '../../../src/domain/market.js';
import type { OrderRequest } from '../../../src/domain/orders.js';
import type { AccountSnapshot } from '../../../src/domain/portfolio.js';
import { GUARD_NAMES } from '../../../src/domain/risk/check.js';
import type { RiskLimits } from '../../../src/domain/risk/limits.js';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { roundQuote } from '../../../src/domain/steps.js';
import { account, market, order, position } from './builders.js';

const RUNS = { numRuns: 200 };
const num = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

const limitsArb: fc.Arbitrary<RiskLimits> = fc.record({
  maxDrawdown: num(0.01, 1),
  maxLeverage: num(0.5, 10),
  maxVolumeFraction: num(0.001, 1),
  maxDepthFraction: num(0.01, 1),
  maxSymbolExposure: num(0.05, 3),
  maxTotalExposure: num(0.1, 10),
});

// Positions, order size, volume and depth are drawn relative to NAV and to the order, so that a
// good share of scenarios is approved and the properties are not vacuous (checked below).
const scenarioArb = fc
  .record({
    nav: num(100, 1e6),
    peakExtra: fc.oneof(fc.constant(0), num(0, 0.2)),
    btcExposure: fc.oneof(fc.constant(0), num(-1, 1)),
    ethExposure: fc.oneof(fc.constant(0), num(-1.5, 1.5)),
    solExposure: fc.oneof(fc.constant(0), num(-1, 1)),
    // On the quote grid, so the venue's mark (mid, kept to QUOTE_STEP) is `last` itself.
    last: num(10, 1_000).map(roundQuote),
    orderFraction: fc.oneof(num(0.0001, 0.3), num(0.0001, 1.5)),
    volumeMultiple: fc.oneof(num(0, 100), num(100, 10_000)),
    depthMultiple: fc.oneof(num(0, 10), num(10, 1_000)),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    reduceOnly: fc.boolean(),
    limits: limitsArb,
  })
  .map((r) => {
    const qty = (r.orderFraction * r.nav) / r.last;
    return {
      ...r,
      qty,
      btcQty: (r.btcExposure * r.nav) / r.last,
      ethQty: (r.ethExposure * r.nav) / 2_000,
      solQty: (r.solExposure * r.nav) / 50,
      volume: r.volumeMultiple * qty,
      depth: r.depthMultiple * qty,
    };
  });

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario): { o: OrderRequest; a: AccountSnapshot; m: MarketSnapshot } {
  const m = market({
    last: s.last,
    bid: s.last * 0.999,
    ask: s.last * 1.001,
    volume: s.volume,
    bids: [{ price: s.last * 0.999, qty: s.depth }],
    asks: [{ price: s.last * 1.001, qty: s.depth / 2 }],
  });
  const positions = [position('ETHUSDT', s.ethQty, 2_000), position('SOLUSDT', s.solQty, 50)];
  if (s.btcQty !== 0) positions.push(position('BTCUSDT', s.btcQty, s.last));
  const a = account({ nav: s.nav, peakNav: s.nav * (1 + s.peakExtra), positions });
  const o = order({ side: s.side, qty: s.qty, reduceOnly: s.reduceOnly });
  return { o, a, m };
}

/**
 * Per-symbol, gross and net figures (all / NAV) recomputed from scratch for a given BTC position:
 * gross sums |notional|, net is |Σ signed notional|, so a long and a short offset only in the net.
 */
function figures(s: Scenario, btc: number, nav = s.nav) {
  const eth = s.ethQty * 2_000;
  const sol = s.solQty * 50;
  const btcNotional = btc * s.last;
  return {
    symbol: Math.abs(btcNotional) / nav,
    gross: (Math.abs(eth) + Math.abs(sol) + Math.abs(btcNotional)) / nav,
    net: Math.abs(eth + sol + btcNotional) / nav,
  };
}

/**
 * The NAV once the order has filled: the book has one level on each side at the best quote (0.1 %
 * from last), and no fee rate is given, so the order pays qty × (its quote − last) to cross it.
 */
function navAfter(s: Scenario): number {
  const quote = s.side === 'BUY' ? s.last * 1.001 : s.last * 0.999;
  return s.nav - s.qty * Math.abs(quote - s.last);
}

/** Whether the order is a reduce-only one that can only shrink the BTC position, decided here. */
function shrinks(s: Scenario): boolean {
  return s.reduceOnly && s.btcQty !== 0 && Math.sign(s.btcQty) === (s.side === 'BUY' ? -1 : 1);
}

/** `after` breaches `limit` and grows, or null when too close to a boundary to call in floating point. */
function breaches(after: number, before: number, limit: number): boolean | null {
  const eps = 1e-9 * Math.max(1, limit, after);
  if (Math.abs(after - limit) <= eps || Math.abs(after - before) <= eps) return null;
  return after > limit && after > before;
}

describe('risk engine properties', () => {
  let approvedSeen = 0;

  it('an approved order that is not a shrinking reduce-only never takes leverage or exposure past a limit it was within', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { o, a, m } = build(s);
        const decision = evaluateOrder(o, { account: a, market: m, limits: s.limits });
        if (decision.approved) approvedSeen++;
        if (!decision.approved || decision.impact?.reducesPosition) return;
        const before = figures(s, s.btcQty);
        const after = figures(s, s.btcQty + (s.side === 'BUY' ? s.qty : -s.qty), navAfter(s));
        const ok = (afterV: number, beforeV: number, limit: number) =>
          afterV <= limit * (1 + 1e-12) || afterV <= beforeV * (1 + 1e-12);
        expect(ok(after.gross, before.gross, s.limits.maxLeverage)).toBe(true);
        expect(ok(after.net, before.net, s.limits.maxTotalExposure)).toBe(true);
        expect(ok(after.symbol, before.symbol, s.limits.maxSymbolExposure)).toBe(true);
        // And from a book within a limit: within it outright.
        if (before.gross <= s.limits.maxLeverage)
          expect(after.gross).toBeLessThanOrEqual(s.limits.maxLeverage * (1 + 1e-12));
        if (before.net <= s.limits.maxTotalExposure)
          expect(after.net).toBeLessThanOrEqual(s.limits.maxTotalExposure * (1 + 1e-12));
        if (before.symbol <= s.limits.maxSymbolExposure)
          expect(after.symbol).toBeLessThanOrEqual(s.limits.maxSymbolExposure * (1 + 1e-12));
      }),
      RUNS,
    );
    // Guard against a vacuous property: the generator must produce approvals.
    expect(approvedSeen).toBeGreaterThan(RUNS.numRuns / 20);
  });

  it('leverage judges gross and exposure judges net, each matching the figures recomputed here', () => {
    let leverageOnly = 0; // leverage fails, exposure passes: a hedged book
    let netOnly = 0; // EXPOSURE_TOTAL fails, leverage passes: a one-directional book
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { o, a, m } = build(s);
        const decision = evaluateOrder(o, { account: a, market: m, limits: s.limits });
        const [, lev, , exp] = decision.checks;
        expect(decision.impact?.reducesPosition).toBe(shrinks(s));
        if (shrinks(s)) return;
        const before = figures(s, s.btcQty);
        const after = figures(s, s.btcQty + (s.side === 'BUY' ? s.qty : -s.qty), navAfter(s));
        expect(lev.metrics.leverageAfter).toBeCloseTo(after.gross, 9);
        expect(exp.metrics.symbolExposureAfter).toBeCloseTo(after.symbol, 9);
        expect(exp.metrics.totalExposureAfter).toBeCloseTo(after.net, 9);
        expect(exp.metrics.totalExposureBefore).toBeCloseTo(before.net, 9);
        expect(after.net).toBeLessThanOrEqual(after.gross * (1 + 1e-12) + 1e-12);

        const levBreach = breaches(after.gross, before.gross, s.limits.maxLeverage);
        const symBreach = breaches(after.symbol, before.symbol, s.limits.maxSymbolExposure);
        const netBreach = breaches(after.net, before.net, s.limits.maxTotalExposure);
        if (levBreach !== null) expect(lev.code).toBe(levBreach ? 'LEVERAGE_LIMIT' : 'OK');
        if (symBreach === null || (!symBreach && netBreach === null)) return;
        expect(exp.code).toBe(symBreach ? 'EXPOSURE_SYMBOL' : netBreach ? 'EXPOSURE_TOTAL' : 'OK');
        if (levBreach === true && exp.passed) leverageOnly++;
        if (levBreach === false && exp.code === 'EXPOSURE_TOTAL') netOnly++;
      }),
      { numRuns: 1_000 },
    );
    // Neither guard is redundant: each fails alone in some scenarios.
    expect(leverageOnly).toBeGreaterThan(0);
    expect(netOnly).toBeGreaterThan(0);
  });

  it('an approved order respects the liquidity limits measured from the snapshot', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { o, a, m } = build(s);
        const decision = evaluateOrder(o, { account: a, market: m, limits: s.limits });
        if (!decision.approved || !decision.impact) return;
        const depth = s.side === 'BUY' ? s.depth / 2 : s.depth;
        // A reduce-only close beyond the limits is approved at the scaled size (never refused outright).
        const scaled = decision.checks[2].code === 'LIQUIDITY_SCALED';
        if (scaled && decision.scaledQty == null) return; // nothing tradable at all: sent whole
        const qty = scaled ? decision.scaledQty! : decision.impact.qty;
        // Relative float residue, and an absolute one for subnormal scenarios (positions of 5e-324).
        const slack = (limit: number) => limit * (1 + 1e-12) + 1e-300;
        expect(qty).toBeLessThanOrEqual(slack(s.limits.maxDepthFraction * depth));
        expect(qty * decision.impact.price).toBeLessThanOrEqual(slack(s.limits.maxVolumeFraction * s.volume * s.last));
      }),
      RUNS,
    );
  });

  it('offsetting a position with the opposite position elsewhere leaves net exposure near zero but leverage at the gross', () => {
    fc.assert(
      fc.property(
        num(100, 1e6),
        num(10, 1_000).map(roundQuote),
        num(0.01, 2),
        fc.constantFrom(1, -1),
        (nav, last, legs, dir) => {
          // BTC leg of `legs`× NAV one way, ETH leg of the same size the other way, order 1 % of NAV on the BTC side.
          const positions = [
            position('BTCUSDT', (dir * legs * nav) / last, last),
            position('ETHUSDT', (-dir * legs * nav) / 2_000, 2_000),
          ];
          const qty = (0.01 * nav) / last;
          const o = order({ side: dir > 0 ? 'BUY' : 'SELL', qty });
          const limits: RiskLimits = {
            maxDrawdown: 1,
            maxLeverage: 3,
            maxVolumeFraction: 1,
            maxDepthFraction: 1,
            maxSymbolExposure: 10,
            maxTotalExposure: 1.5,
          };
          const decision = evaluateOrder(o, {
            account: account({ nav, peakNav: nav, positions }),
            market: market({ last, bid: last, ask: last, bids: [{ price: last, qty }], asks: [{ price: last, qty }] }),
            limits,
          });
          const [, lev, , exp] = decision.checks;
          expect(lev.metrics.leverageAfter).toBeCloseTo(2 * legs + 0.01, 9);
          expect(exp.metrics.totalExposureAfter).toBeCloseTo(0.01, 9);
          expect(exp.passed).toBe(true);
          expect(lev.passed).toBe(2 * legs + 0.01 <= 3);
        },
      ),
      RUNS,
    );
  });

  it('a reduce-only order that shrinks a position always passes drawdown, leverage and exposure', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        fc.pre(s.btcQty !== 0);
        const { a, m } = build(s);
        const o = order({ side: s.btcQty > 0 ? 'SELL' : 'BUY', qty: s.qty, reduceOnly: true });
        const decision = evaluateOrder(o, { account: a, market: m, limits: s.limits });
        const [dd, lev, , exp] = decision.checks;
        expect([dd.passed, lev.passed, exp.passed]).toEqual([true, true, true]);
        expect(Math.abs(decision.impact?.positionAfter ?? Number.NaN)).toBeLessThanOrEqual(Math.abs(s.btcQty));
      }),
      RUNS,
    );
  });

  it('always reports the four checks in order, and approves exactly when all pass', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { o, a, m } = build(s);
        const decision = evaluateOrder(o, { account: a, market: m, limits: s.limits });
        expect(decision.checks.map((c) => c.guard)).toEqual(GUARD_NAMES);
        expect(decision.approved).toBe(decision.checks.every((c) => c.passed));
        for (const c of decision.checks) expect(c.passed).toBe(c.code === 'OK' || c.code === 'LIQUIDITY_SCALED');
      }),
      RUNS,
    );
  });
});
