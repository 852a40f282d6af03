// Allocator sizing: NAV × riskFraction × confidence / price, floored to the lot, with reasons for
// every refusal; plus properties over random inputs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../src/domain/market.js';
import type { Signal } from '../../src/domain/signal.js';
import { DEFAULT_RISK_FRACTION, sizeOrder } from '../../src/domain/sizing.js';

const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
const signal = (overrides: Partial<Signal> = {}): Signal => ({
  agent: 'a',
  symbol: 'BTCUSDT',
  direction: 1,
  confidence: 1,
  ...overrides,
});

describe('sizeOrder', () => {
  it('sizes from NAV, risk fraction and confidence, rounded down to the lot', () => {
    // 10 000 × 0.1 × 0.8 / 30 000 = 0.02666… → 0.026
    expect(
      sizeOrder(signal({ confidence: 0.8 }), { nav: 10_000, price: 30_000, instrument: BTC, riskFraction: 0.1 }),
    ).toEqual({ ok: true, side: 'BUY', qty: 0.026, notional: 780 });
  });

  it('takes the side from the direction', () => {
    const r = sizeOrder(signal({ direction: -1 }), {
      nav: 10_000,
      price: 100,
      instrument: BTC,
      riskFraction: DEFAULT_RISK_FRACTION,
    });
    expect(r).toMatchObject({ ok: true, side: 'SELL', qty: 10 });
  });

  it('keeps exact lot multiples despite float residue', () => {
    // 0.3 / 0.1 is 2.9999999999999996 in floating point; the lot floor must still give 0.3.
    const sol: Instrument = { ...BTC, symbol: 'SOLUSDT', lotSize: 0.1, minNotional: 0 };
    expect(
      sizeOrder(signal({ symbol: 'SOLUSDT' }), { nav: 3, price: 1, instrument: sol, riskFraction: 0.1 }),
    ).toMatchObject({ ok: true, qty: 0.3 });
  });

  it.each([
    { name: 'no direction', s: signal({ direction: 0 }), nav: 10_000, price: 100, code: 'DIRECTION_ZERO' },
    { name: 'budget below one lot', s: signal({ confidence: 0.001 }), nav: 100, price: 100_000, code: 'ZERO_QTY' },
    { name: 'zero confidence', s: signal({ confidence: 0 }), nav: 10_000, price: 100, code: 'ZERO_QTY' },
    {
      name: 'below minimum notional',
      s: signal({ confidence: 0.04 }),
      nav: 1_000,
      price: 100,
      code: 'BELOW_MIN_NOTIONAL',
    },
    { name: 'symbol mismatch', s: signal({ symbol: 'ETHUSDT' }), nav: 10_000, price: 100, code: 'INVALID_INPUT' },
    { name: 'non-positive NAV', s: signal(), nav: 0, price: 100, code: 'INVALID_INPUT' },
    { name: 'NaN price', s: signal(), nav: 10_000, price: Number.NaN, code: 'INVALID_INPUT' },
    { name: 'confidence above 1', s: signal({ confidence: 1.5 }), nav: 10_000, price: 100, code: 'INVALID_INPUT' },
  ])('refuses: $name → $code', ({ s, nav, price, code }) => {
    const r = sizeOrder(s, { nav, price, instrument: BTC, riskFraction: 0.1 });
    expect(r).toMatchObject({ ok: false, code });
    if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
  });

  it.each([0, -0.1, 1.01, Number.NaN])('refuses riskFraction %s', (riskFraction) => {
    expect(sizeOrder(signal(), { nav: 10_000, price: 100, instrument: BTC, riskFraction })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
  });

  it('never exceeds NAV × riskFraction × confidence / price, is a whole number of lots, and meets the minimum notional', () => {
    const lotArb = fc.constantFrom(0.001, 0.01, 0.1, 1, 0.0001, 0.5);
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e7, noNaN: true }),
        fc.double({ min: 0.01, max: 1e5, noNaN: true }),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(-1, 1),
        lotArb,
        (nav, price, riskFraction, confidence, direction, lotSize) => {
          const instrument = { ...BTC, lotSize };
          const r = sizeOrder(signal({ confidence, direction }), { nav, price, instrument, riskFraction });
          const cap = (nav * riskFraction * confidence) / price;
          if (!r.ok) {
            expect(['ZERO_QTY', 'BELOW_MIN_NOTIONAL']).toContain(r.code);
            return;
          }
          expect(r.side).toBe(direction > 0 ? 'BUY' : 'SELL');
          expect(r.qty).toBeGreaterThan(0);
          // Relative slack only for float noise in the lot floor (it forgives 1e-9 of a lot).
          expect(r.qty).toBeLessThanOrEqual(cap * (1 + 1e-9) + lotSize * 1e-9);
          expect(r.qty).toBeLessThanOrEqual(((nav * riskFraction) / price) * (1 + 1e-9) + lotSize * 1e-9);
          // Within one lot of the ideal: rounding down loses less than a lot.
          expect(cap - r.qty).toBeLessThan(lotSize * (1 + 1e-9));
          const lots = r.qty / lotSize;
          // Relative: at ~1e10 lots one ulp of the division is already ~2e-6 (found by fast-check).
          expect(Math.abs(lots - Math.round(lots))).toBeLessThan(1e-9 * Math.max(1, lots));
          expect(r.notional).toBeGreaterThanOrEqual(instrument.minNotional);
        },
      ),
      { numRuns: Number(process.env.SIZING_RUNS ?? 200) },
    );
  });
});
