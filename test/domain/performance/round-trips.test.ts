/**
 * The round-trip list: entry and exit at volume-weighted prices, the net PnL the book computes,
 * fees split on a flip, the exit's kind, and MAE/MFE from the fills and the cycle marks in between.
 */
import { describe, expect, it } from 'vitest';
import type { TradeObservation } from '../../../src/domain/performance/observations.js';
import { RoundTrips } from '../../../src/domain/performance/round-trips.js';
import type { RoundTrip } from '../../../src/domain/performance/round-trips.js';
import { SymbolBook } from '../../../src/domain/performance/symbol-book.js';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

function harness() {
  const book = new SymbolBook(() => ({ realized: 0, fees: 0, funding: 0 }));
  const trips = new RoundTrips();
  const closed: RoundTrip[] = [];
  let n = 0;
  return {
    closed,
    trips,
    fill(
      minute: number,
      side: 'BUY' | 'SELL',
      qty: number,
      price: number,
      fee: number,
      kind: TradeObservation['kind'] = 'order',
    ) {
      const t: TradeObservation = {
        ts: T0 + minute * MIN,
        clientOrderId: `o${++n}`,
        symbol: 'BTCUSDT',
        side,
        qty,
        price,
        fee,
        liquidity: 'taker',
        strategy: 'trend',
        kind,
      };
      const trip = trips.fill(t, book.fill(t));
      if (trip !== null) closed.push(trip);
    },
  };
}

describe('RoundTrips', () => {
  it('a long built in two fills and closed in two: VWAP entry and exit, net PnL, fees, MAE and MFE', () => {
    const h = harness();
    h.fill(0, 'BUY', 1, 100, 0.1);
    h.trips.mark('BTCUSDT', 95); // −5
    h.fill(2, 'BUY', 1, 110, 0.1); // avg cost 105
    h.trips.mark('BTCUSDT', 120); // +30
    h.fill(4, 'SELL', 1, 115, 0.1); // realized +10, 1 open at 105
    h.trips.mark('BTCUSDT', 101); // 10 − 4 = +6
    expect(h.closed).toEqual([]);
    h.fill(6, 'SELL', 1, 108, 0.1, 'take_profit'); // realized 10 + 3 = 13
    expect(h.closed).toEqual([
      {
        symbol: 'BTCUSDT',
        strategy: 'trend',
        side: 'long',
        entry_time: new Date(T0).toISOString(),
        entry_price: 105,
        exit_time: new Date(T0 + 6 * MIN).toISOString(),
        exit_price: 111.5,
        qty: 2,
        duration_seconds: 360,
        duration_human: '00:06:00',
        pnl: 12.6,
        fees: 0.4,
        exit: 'take_profit',
        mae: -5,
        mfe: 30,
      },
    ]);
  });

  it('a flip closes the long and opens a short with the rest, the fee split by quantity', () => {
    const h = harness();
    h.fill(0, 'BUY', 1, 100, 0.3);
    h.fill(1, 'SELL', 3, 90, 0.6); // closes 1 (fee 0.2), opens a 2 short (fee 0.4)
    h.fill(2, 'BUY', 2, 80, 0.2);
    expect(h.closed).toHaveLength(2);
    expect(h.closed[0]).toMatchObject({ side: 'long', pnl: -10.5, fees: 0.5, mae: -10, mfe: 0, exit: 'signal' });
    expect(h.closed[1]).toMatchObject({ side: 'short', entry_price: 90, exit_price: 80, qty: 2, fees: 0.6 });
    expect(h.closed[1]!.pnl).toBeCloseTo(20 - 0.6, 8);
    expect(h.closed[1]!.mfe).toBe(20);
  });

  it('nothing closes while the position stays open; marks of a flat symbol change nothing', () => {
    const h = harness();
    h.trips.mark('BTCUSDT', 50);
    h.fill(0, 'SELL', 1, 100, 0);
    h.trips.mark('BTCUSDT', 130);
    expect(h.closed).toEqual([]);
    h.fill(1, 'BUY', 1, 90, 0, 'liquidation');
    expect(h.closed[0]).toMatchObject({ side: 'short', pnl: 10, mae: -30, mfe: 10, exit: 'liquidation' });
  });
});
