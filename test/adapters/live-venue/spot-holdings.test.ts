/**
 * A spot account read as positions and NAV (src/adapters/live-venue/spot-holdings.ts): the base held
 * is the position, the NAV the USDT plus each base at its mark, the entry the cost of our own fills
 * (a holding they do not explain at the mark), and a symbol held without a mark is an error, never
 * a NAV that leaves it out. And our symbols resolve to USDT spot pairs only (ccxt-mapping.ts).
 */
import type { Balances } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { spotSymbols, tradedSymbols } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { SpotHoldings } from '../../../src/adapters/live-venue/spot-holdings.js';
import type { Fill } from '../../../src/domain/orders.js';

const PAIRS = [
  { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT' },
  { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT' },
];
const balance = (totals: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(totals).map(([asset, total]) => [asset, { total, free: total, used: 0 }]),
  ) as unknown as Balances;
const fill = (side: Fill['side'], qty: number, price: number): Fill => ({
  clientOrderId: 'x',
  symbol: 'BTCUSDT',
  side,
  qty,
  price,
  fee: 0,
  liquidity: 'taker',
  ts: 0,
});
const marks = new Map([
  ['BTCUSDT', 60_000],
  ['ETHUSDT', 3_000],
]);

describe('spot holdings', () => {
  it('the base held is a spot position at the cost of our fills; the NAV is the USDT plus each base at its mark', () => {
    const spot = new SpotHoldings(PAIRS);
    spot.record(fill('BUY', 0.1, 50_000));
    spot.record(fill('BUY', 0.1, 70_000));
    const value = spot.value(balance({ USDT: 1_000, BTC: 0.2, ETH: 0 }), marks);
    expect(value.cash).toBe(1_000);
    expect(value.nav).toBeCloseTo(1_000 + 0.2 * 60_000, 9);
    expect(value.positions).toEqual([
      {
        symbol: 'BTCUSDT',
        kind: 'spot',
        qty: 0.2,
        entryPrice: 60_000,
        markPrice: 60_000,
        unrealizedPnl: 0,
        realizedPnl: 0,
      },
    ]);
    // A sell realizes against the average cost; what is left keeps it.
    spot.record(fill('SELL', 0.1, 66_000));
    const after = spot.value(balance({ USDT: 7_600, BTC: 0.1 }), marks).positions[0]!;
    expect(after).toMatchObject({ qty: 0.1, entryPrice: 60_000, realizedPnl: 600 });
  });

  it('a holding our fills do not explain (adopted, bought by hand) is valued at the mark; a sold-out basis is over', () => {
    const spot = new SpotHoldings(PAIRS);
    expect(spot.value(balance({ USDT: 0, ETH: 2 }), marks).positions[0]).toMatchObject({
      symbol: 'ETHUSDT',
      entryPrice: 3_000,
      unrealizedPnl: 0,
    });
    spot.record(fill('BUY', 0.1, 50_000));
    expect(spot.value(balance({ USDT: 0, BTC: 0.2 }), marks).positions[0]!.entryPrice).toBe(55_000);
    // Sold by hand to nothing: the next buy starts a fresh cost.
    spot.value(balance({ USDT: 0, BTC: 0 }), marks);
    spot.record(fill('BUY', 0.1, 62_000));
    expect(spot.value(balance({ USDT: 0, BTC: 0.1 }), marks).positions[0]!.entryPrice).toBe(62_000);
  });

  it('refuses to value a holding with no mark, and pairs that share a base or differ in quote', () => {
    const spot = new SpotHoldings(PAIRS);
    expect(() => spot.value(balance({ USDT: 5, BTC: 1 }), new Map())).toThrow(/no mark for BTCUSDT/);
    expect(spot.value(balance({ USDT: 5, BTC: 0 }), new Map()).nav).toBe(5);
    expect(() => new SpotHoldings([...PAIRS, { symbol: 'BTCUSDC', base: 'BTC', quote: 'USDC' }])).toThrow(
      /one quote asset/,
    );
    expect(() => new SpotHoldings([PAIRS[0]!, { ...PAIRS[0]!, symbol: 'BTCUSDT2' }])).toThrow(/distinct base assets/);
  });
});

describe('spot symbols', () => {
  const markets = {
    'BTC/USDT': { id: 'BTCUSDT', symbol: 'BTC/USDT', spot: true, quote: 'USDT' },
    'BTC/USDT:USDT': { id: 'BTCUSDT', symbol: 'BTC/USDT:USDT', swap: true, linear: true, quote: 'USDT' },
    'ETH/BTC': { id: 'ETHBTC', symbol: 'ETH/BTC', spot: true, quote: 'BTC' },
  };

  it('resolve to USDT spot pairs on a spot exchange and to perpetuals otherwise; anything else is named', () => {
    expect(spotSymbols(markets, ['BTCUSDT']).unified('BTCUSDT')).toBe('BTC/USDT');
    expect(tradedSymbols('spot', markets, ['BTCUSDT']).unified('BTCUSDT')).toBe('BTC/USDT');
    expect(tradedSymbols(undefined, markets, ['BTCUSDT']).unified('BTCUSDT')).toBe('BTC/USDT:USDT');
    expect(() => spotSymbols(markets, ['ETHBTC'])).toThrow(/no USDT spot pair ETHBTC/);
  });
});
