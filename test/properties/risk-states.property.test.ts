/**
 * Issue 20: "every guard and state keeps its denial code; reduce-only closes are never refused",
 * extended to the risk engine's trading states (active | reducing | halted, src/domain/risk/trading-
 * state.ts). Over random accounts (long and short positions, drawdowns down to NAV ≤ 0, resting
 * orders, a held symbol without market data), books (empty to deep, fresh or stale), limits and fee
 * rates, the risk actor's `review` judges a request of random orders and closes in every state, for a
 * cycle and for a command:
 *  1. a reduce-only close of a held position is approved (possibly LIQUIDITY_SCALED to a smaller size,
 *     at least one lot), except in `halted` for a cycle, where it is refused RISK_HALTED;
 *  2. any other order is refused RISK_REDUCING in `reducing` and RISK_HALTED in `halted`, and in
 *     `active` nothing changes against an engine without trading states; the leverage, liquidity and
 *     exposure guards judge alike in every state, the drawdown guard alone speaks for the state;
 *  3. in `reducing` for a cycle, the engine's own closes are reduce-only, on the closing side, only for
 *     held symbols, never more than the request's approved closes leave of the position, always
 *     approved where there is market data, and present wherever at least one lot is left.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EvaluatedReply, EvaluateRequest, SubmissionPurpose } from '../../machines/messages.js';
import { review } from '../../machines/risk.machine.js';
import type { RiskInput } from '../../machines/risk.machine.js';
import { floorToLot, valuationPrice } from '../../src/domain/market.js';
import type { OrderRequest, Side } from '../../src/domain/orders.js';
import { pendingEntry } from '../../src/domain/risk/expected-fill.js';
import { executionPrice } from '../../src/domain/risk/order-impact.js';
import { evaluateOrder } from '../../src/domain/risk/risk-engine.js';
import type { PendingOrder, RiskContext } from '../../src/domain/risk/risk-engine.js';
import type { RiskTradingState } from '../../src/domain/risk/trading-state.js';
import {
  INSTRUMENTS,
  LOTS,
  NOW,
  ORPHAN,
  STALE_MS,
  SYMBOL_NAMES,
  TICKS,
  accountArb,
  build,
  closesPosition,
  feeArb,
  limitsArb,
  num,
  riskInput,
  round,
} from './risk-scenarios.js';
import type { Built } from './risk-scenarios.js';

const STATES: readonly RiskTradingState[] = ['active', 'reducing', 'halted'];
const PURPOSES: readonly SubmissionPurpose[] = ['cycle', 'command'];
const REASON = 'drawdown beyond RISK_MAX_DRAWDOWN (property)';
// Sums of quantities the engine and this test add in different orders: float residue only.
const EPS = 1e-12;

/** The verdict on one of the cycle's orders: the engine judges closes first, so not by position. */
const verdictFor = (reply: EvaluatedReply, order: OrderRequest) =>
  reply.verdicts.find((v) => v.by === undefined && v.order.clientOrderId === order.clientOrderId)!;

const typeArb = fc.constantFrom<'market' | 'limit'>('market', 'limit');
/** A reduce-only close of the symbol's position (dropped when nothing is held): a share of it, ≤ 1. */
const closeArb = fc.record({
  kind: fc.constant('close' as const),
  symbol: fc.integer({ min: 0, max: 2 }),
  share: fc.oneof(num(0.5, 1), fc.double({ min: 0, max: 1, minExcluded: true, noNaN: true })),
  onLot: fc.boolean(),
  type: typeArb,
  priceFactor: num(0.5, 1.5),
});
/** Anything else: any side, size up to twice NAV's worth, reduce-only or not. */
const otherArb = fc.record({
  kind: fc.constant('other' as const),
  symbol: fc.integer({ min: 0, max: 2 }),
  side: fc.constantFrom<Side>('BUY', 'SELL'),
  size: fc.oneof(num(0.0001, 0.05), num(0.05, 2)),
  reduceOnly: fc.boolean(),
  type: typeArb,
  priceFactor: num(0.5, 1.5),
});
const scenarioArb = fc.record({
  account: accountArb,
  limits: limitsArb,
  fee: feeArb,
  /** Mostly with FEED_STALE_MS set, so that stale books are judged stale. */
  judgeStaleness: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  orders: fc.array(fc.oneof(closeArb, otherArb), { minLength: 1, maxLength: 5 }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function ordersOf(s: Scenario, built: Built): OrderRequest[] {
  return s.orders.flatMap((o, k): OrderRequest[] => {
    const symbol = SYMBOL_NAMES[o.symbol]!;
    const m = built.markets.get(symbol)!;
    const lot = LOTS.get(symbol)!;
    const tick = TICKS.get(symbol)!;
    let side: Side;
    let qty: number;
    let reduceOnly: boolean;
    if (o.kind === 'close') {
      const held = built.held.get(symbol)!;
      if (held === 0) return [];
      side = held > 0 ? 'SELL' : 'BUY';
      const raw = Math.abs(held) * o.share;
      const lotted = floorToLot(raw, lot);
      qty = o.onLot && lotted > 0 && lotted <= Math.abs(held) ? lotted : raw;
      reduceOnly = true;
    } else {
      side = o.side;
      qty = Math.max(lot, round((o.size * built.refNav) / m.last, lot));
      reduceOnly = o.reduceOnly;
    }
    if (!(qty > 0)) return [];
    const limitPrice = o.type === 'limit' ? Math.max(tick, round(m.last * o.priceFactor, tick)) : null;
    return [{ clientOrderId: `p-${k}-${symbol}`, symbol, side, qty, type: o.type, limitPrice, reduceOnly }];
  });
}

function setup(s: Scenario) {
  const built = build(s.account);
  const orders = ordersOf(s, built);
  const input = riskInput(s.limits, s.fee, s.judgeStaleness);
  const request = (purpose: SubmissionPurpose): EvaluateRequest => ({
    type: 'risk.evaluate',
    purpose,
    cycle: 7,
    epoch: 3,
    now: NOW,
    account: built.account,
    market: built.markets,
    orders,
    replyTo: null!,
  });
  return { built, orders, input, request };
}

/** The context `review` gives evaluateOrder for `order`, with `pending` counted and no trading state. */
function contextOf(input: RiskInput, built: Built, order: OrderRequest, pending: PendingOrder[]): RiskContext {
  const instrument = INSTRUMENTS.find((i) => i.symbol === order.symbol)!;
  return {
    account: built.account,
    market: built.markets.get(order.symbol)!,
    limits: input.limits,
    pending,
    kinds: new Map(INSTRUMENTS.map((i) => [i.symbol, i.kind])),
    marks: new Map([...built.markets.values()].map((m) => [m.symbol, valuationPrice(m)])),
    lotSize: instrument.lotSize,
    tickSize: instrument.tickSize,
    feeRate: input.feeRate ?? 0,
    ...(input.feedStaleMs !== undefined ? { freshness: { now: NOW, staleMs: input.feedStaleMs } } : {}),
  };
}

describe('risk trading states: reduce-only closes and denial codes (property)', () => {
  it('a close of a held position is approved in every state and purpose, but for a cycle in halted (RISK_HALTED)', () => {
    const seen = { closes: 0, scaled: 0, stale: 0, navNotPositive: 0, limit: 0, halted: 0 };
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { built, orders, input, request } = setup(s);
        for (const state of STATES)
          for (const purpose of PURPOSES) {
            const reply = review(input, request(purpose), { state, reason: REASON });
            // One verdict per order; the engine adds orders of its own only for a cycle: its closes in
            // `reducing` (the last property) and, in `active`, the trims that keep a close's costs from
            // lifting a symbol past its limit (issue 20, cost-trims.ts).
            expect(reply.verdicts.filter((v) => v.by === undefined).length).toBe(orders.length);
            const engines = reply.verdicts.filter((v) => v.by !== undefined);
            if (purpose !== 'cycle' || state === 'halted') expect(engines).toEqual([]);
            for (const v of engines) expect(v.order.reduceOnly).toBe(true);
            orders.forEach((order) => {
              if (!closesPosition(order, built.held)) return;
              const v = verdictFor(reply, order);
              expect(v.by).toBeUndefined();
              expect(v.order.clientOrderId).toBe(order.clientOrderId);
              if (state === 'halted' && purpose === 'cycle') {
                seen.halted += 1;
                expect(v.approval).toBeNull();
                expect(v.decision.checks[0].code).toBe('RISK_HALTED');
                return;
              }
              seen.closes += 1;
              if (order.type === 'limit') seen.limit += 1;
              if (built.account.nav <= 0) seen.navNotPositive += 1;
              if (s.judgeStaleness && NOW - built.markets.get(order.symbol)!.ts > STALE_MS) seen.stale += 1;
              expect(
                v.decision.checks.map((c) => c.code).filter((c) => c !== 'OK' && c !== 'LIQUIDITY_SCALED'),
              ).toEqual([]);
              expect(v.decision.approved).toBe(true);
              expect(v.approval?.order).toEqual(v.order);
              // Only the quantity may change, and only down, by the liquidity guard, to at least one lot.
              expect({ ...v.order, qty: order.qty }).toEqual(order);
              expect(v.order.qty).toBeLessThanOrEqual(order.qty);
              if (v.order.qty !== order.qty) {
                seen.scaled += 1;
                expect(v.decision.checks[2].code).toBe('LIQUIDITY_SCALED');
                const lot = LOTS.get(order.symbol)!;
                expect(v.order.qty).toBeGreaterThanOrEqual(Math.min(lot, v.decision.impact!.qty));
              }
            });
          }
      }),
      { numRuns: 80 },
    );
    console.info(`risk-states closes: ${JSON.stringify(seen)}`);
    // Not vacuous: closes were judged, scaled, on stale data, at NAV ≤ 0, as limit orders, and halted.
    for (const [key, count] of Object.entries(seen)) expect(count, key).toBeGreaterThan(0);
  });

  it('any other order is refused RISK_REDUCING in reducing and RISK_HALTED in halted; active is the engine without states', () => {
    const seen = { reducing: 0, halted: 0, activeApproved: 0, activeRefused: 0 };
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { built, orders, input, request } = setup(s);
        for (const purpose of PURPOSES) {
          // `active` is what the engine did before it had states: the same reply, approvals and all.
          const active = review(input, request(purpose), { state: 'active', reason: REASON });
          expect(active).toEqual(review(input, request(purpose)));
          for (const v of active.verdicts) seen[v.approval ? 'activeApproved' : 'activeRefused'] += 1;
          for (const state of ['reducing', 'halted'] as const) {
            const reply = review(input, request(purpose), { state, reason: REASON });
            orders.forEach((order) => {
              if (closesPosition(order, built.held)) return;
              const v = verdictFor(reply, order);
              seen[state] += 1;
              expect(v.approval).toBeNull();
              expect(v.decision.checks[0].code).toBe(state === 'reducing' ? 'RISK_REDUCING' : 'RISK_HALTED');
              expect(v.decision.checks[0].message).toContain(REASON);
            });
          }
        }
      }),
      { numRuns: 50 },
    );
    console.info(`risk-states other orders: ${JSON.stringify(seen)}`);
    for (const [key, count] of Object.entries(seen)) expect(count, key).toBeGreaterThan(0);
  });

  it('leverage, liquidity and exposure judge alike in every state; the drawdown guard alone speaks for it', () => {
    const codes = new Map<string, number>();
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { built, orders, input } = setup(s);
        // Each order judged after the earlier ones of the request, as review counts them.
        const pending: PendingOrder[] = [];
        for (const order of orders) {
          const ctx = contextOf(input, built, order, [...pending]);
          const plain = evaluateOrder(order, ctx);
          const reduces = closesPosition(order, built.held);
          for (const c of plain.checks) codes.set(c.code, (codes.get(c.code) ?? 0) + 1);
          for (const state of STATES)
            for (const purpose of PURPOSES) {
              const judged = evaluateOrder(order, { ...ctx, trading: { state, purpose, reason: REASON } });
              if (state === 'active') {
                expect(judged).toEqual(plain);
                continue;
              }
              expect(judged.checks.slice(1)).toEqual(plain.checks.slice(1));
              expect(judged.impact).toEqual(plain.impact);
              expect(judged.scaledQty).toEqual(plain.scaledQty);
              expect(judged.approved).toBe(judged.checks.every((c) => c.passed));
              const passes = state === 'reducing' ? reduces : reduces && purpose === 'command';
              if (passes) expect(judged.checks[0]).toEqual(plain.checks[0]);
              else expect(judged.checks[0].code).toBe(state === 'reducing' ? 'RISK_REDUCING' : 'RISK_HALTED');
            }
          const m = built.markets.get(order.symbol)!;
          const reference = executionPrice(order, m);
          if (typeof reference === 'number')
            pending.push(
              pendingEntry(order, m, reference, pending, { feeRate: s.fee, tickSize: TICKS.get(order.symbol)! }),
            );
        }
      }),
      { numRuns: 100 },
    );
    console.info(`risk-states guard codes: ${JSON.stringify(Object.fromEntries(codes))}`);
    // The states were compared against every denial code the four guards give.
    for (const code of [
      'DRAWDOWN_LIMIT',
      'LEVERAGE_LIMIT',
      'LIQUIDITY_VOLUME',
      'LIQUIDITY_DEPTH',
      'LIQUIDITY_STALE',
      'LIQUIDITY_SCALED',
      'EXPOSURE_SYMBOL',
      'EXPOSURE_TOTAL',
      'NAV_NOT_POSITIVE',
    ])
      expect(codes.get(code) ?? 0, code).toBeGreaterThan(0);
  });

  it("in reducing, the engine's own closes finish what the cycle's closes leave, never past flat", () => {
    const seen = { engineCloses: 0, scaled: 0, orphanRefused: 0, afterOwnClose: 0, stale: 0, waitsForBook: 0 };
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { built, orders, input, request } = setup(s);
        const reply = review(input, request('cycle'), { state: 'reducing', reason: REASON });
        const own = reply.verdicts.slice(0, orders.length);
        const engine = reply.verdicts.slice(orders.length);
        expect(own.every((v) => v.by === undefined)).toBe(true);
        expect(engine.every((v) => v.by === 'risk')).toBe(true);
        const symbols = engine.map((v) => v.order.symbol);
        expect(new Set(symbols).size).toBe(symbols.length);
        for (const [symbol, held] of built.held) {
          // What the request's own approved reduce-only orders close of this position.
          const closedByOwn = own
            .filter((v) => v.approval && closesPosition(v.order, built.held) && v.order.symbol === symbol)
            .reduce((sum, v) => sum + v.order.qty, 0);
          const v = engine.find((e) => e.order.symbol === symbol);
          const left = Math.abs(held) - closedByOwn;
          const lot = LOTS.get(symbol);
          // Wherever a lot or more is left (anything, without a lot size), the engine closes it — unless
          // the cycle's closes already took what the liquidity limits allow (less than a lot is left
          // within them): then it waits for the next cycle rather than go past a limit.
          const needed = held !== 0 && (lot === undefined ? left > EPS * Math.abs(held) : left >= lot * (1 + 1e-9));
          if (needed && !v) {
            const probe: OrderRequest = {
              clientOrderId: `probe-${symbol}`,
              symbol,
              side: held > 0 ? 'SELL' : 'BUY',
              qty: left,
              type: 'market',
              limitPrice: null,
              reduceOnly: true,
            };
            const judged = review(
              input,
              { ...request('cycle'), orders: [...orders, probe] },
              { state: 'reducing', reason: REASON },
            ).verdicts.find((v) => v.order.clientOrderId === probe.clientOrderId)!.decision.checks[2];
            expect(judged.code, `${symbol}: ${left} left of ${held}`).toBe('LIQUIDITY_SCALED');
            expect(judged.metrics.allowedQty ?? 0).toBeLessThan(lot ?? Number.POSITIVE_INFINITY);
            seen.waitsForBook += 1;
          }
          if (!v) continue;
          seen.engineCloses += 1;
          if (closedByOwn > 0) seen.afterOwnClose += 1;
          expect(held).not.toBe(0);
          expect(v.order).toMatchObject({ reduceOnly: true, side: held > 0 ? 'SELL' : 'BUY', type: 'market' });
          expect(v.order.qty).toBeGreaterThan(0);
          // Never past flat: the engine's close and the request's own closes together ≤ the position.
          expect(v.order.qty + closedByOwn).toBeLessThanOrEqual(Math.abs(held) * (1 + EPS));
          if (built.markets.has(symbol)) {
            expect(v.approval?.order).toEqual(v.order);
            if (v.decision.checks[2].code === 'LIQUIDITY_SCALED') seen.scaled += 1;
            if (s.judgeStaleness && NOW - built.markets.get(symbol)!.ts > STALE_MS) seen.stale += 1;
          } else {
            // The held symbol the cycle has no market data for: nothing to judge it on.
            expect(symbol).toBe(ORPHAN);
            expect(v.approval).toBeNull();
            seen.orphanRefused += 1;
          }
        }
      }),
      // Some cases are rare here (a stale book: 2–7 in 200 runs, after an own close: 4–10): 200 runs
      // could see none and fail the coverage check below on an unlucky seed; 1,000 see several times that.
      { numRuns: 1_000 },
    );
    console.info(`risk-states engine closes: ${JSON.stringify(seen)}`);
    for (const [key, count] of Object.entries(seen)) expect(count, key).toBeGreaterThan(0);
  });
});
