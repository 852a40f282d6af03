/**
 * Fills and the account print clean numbers: a fill's price is on the tick grid, its quantity on
 * the lot grid and its fee on the 1e-8 quote grid, and cash, realized PnL and funding stay 8-decimal
 * amounts. Each case is one that used to print float noise in `order_filled` lines
 * (59763.69999999999, 0.11952739999999999, 4.3209873000000005, a 59763.76666666667 average).
 */
import { describe, expect, it } from 'vitest';
import { openPaperVenue } from '../../../src/adapters/paper-venue/index.js';
import type { Instrument } from '../../../src/domain/market.js';
import type { Fill } from '../../../src/domain/orders.js';
import type { AccountSnapshot } from '../../../src/domain/portfolio.js';
import { QUOTE_STEP, stepDecimals } from '../../../src/domain/steps.js';
import { createMemoryKv } from '../../support/memory-kv.js';
import { printedDecimals } from '../../domain/printed-decimals.js';
import { order, PERP, snapshot, testClock, view } from './fixtures.js';

const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
const XRP: Instrument = { symbol: 'XRPUSDT', kind: 'spot', lotSize: 0.1, tickSize: 0.0001, minNotional: 5 };
const BY_SYMBOL = new Map([BTC, XRP, PERP].map((i) => [i.symbol, i]));

async function open() {
  const clock = testClock();
  const venue = await openPaperVenue({ kv: createMemoryKv(), instruments: [BTC, XRP, PERP], clock });
  return { venue, clock };
}

/** The fill as its `order_filled` line carries it, with each number checked against its grid. */
function expectClean(fill: Fill | undefined): Fill {
  if (fill === undefined) throw new Error('expected a fill');
  const instrument = BY_SYMBOL.get(fill.symbol) as Instrument;
  const line = JSON.parse(JSON.stringify({ qty: fill.qty, price: fill.price, fee: fill.fee })) as Fill;
  expect(printedDecimals(line.price)).toBeLessThanOrEqual(stepDecimals(instrument.tickSize));
  expect(printedDecimals(line.qty)).toBeLessThanOrEqual(stepDecimals(instrument.lotSize));
  expect(printedDecimals(line.fee)).toBeLessThanOrEqual(stepDecimals(QUOTE_STEP));
  return fill;
}

function expectCleanAccount(account: AccountSnapshot): void {
  const { cash, realizedPnl, unrealizedPnl, feesPaid, fundingPnl, nav, peakNav } = account;
  for (const amount of [cash, realizedPnl, unrealizedPnl, feesPaid, fundingPnl, nav, peakNav]) {
    expect(printedDecimals(amount)).toBeLessThanOrEqual(8);
  }
  for (const p of account.positions) {
    const instrument = BY_SYMBOL.get(p.symbol) as Instrument;
    expect(printedDecimals(p.qty)).toBeLessThanOrEqual(stepDecimals(instrument.lotSize));
    expect(printedDecimals(p.realizedPnl)).toBeLessThanOrEqual(8);
    expect(printedDecimals(p.entryPrice)).toBeLessThanOrEqual(8);
    expect(printedDecimals(p.markPrice)).toBeLessThanOrEqual(8);
    expect(printedDecimals(p.unrealizedPnl)).toBeLessThanOrEqual(8);
  }
}

const btcBook = (bid: number, ask: number, extra: Parameters<typeof snapshot>[0] = { bid, ask }) =>
  view(snapshot({ ...extra, symbol: BTC.symbol, bid, ask }));

describe('paper venue: fills print without float noise', () => {
  it('a single-level fill at 59763.7 reports 59763.7, not the 59763.69999999999 of cost / qty', async () => {
    const { venue } = await open();
    const { fills, order: done } = await venue.submit(
      order({ symbol: BTC.symbol, side: 'BUY', qty: 0.023 }),
      btcBook(59763.6, 59763.7),
    );
    const fill = expectClean(fills[0]);
    expect(fill).toMatchObject({ qty: 0.023, price: 59763.7, fee: 0.68728255 });
    expect(done.avgFillPrice).toBe(59763.7);
    expect(JSON.stringify({ price: fill.price, fee: fill.fee })).toBe('{"price":59763.7,"fee":0.68728255}');
  });

  it('a book walk reports its average on the tick grid, rounded against the taker', async () => {
    const { venue } = await open();
    const asks = [
      { price: 59763.7, qty: 0.01 },
      { price: 59763.8, qty: 0.02 },
    ];
    const bids = [
      { price: 59763.6, qty: 0.01 },
      { price: 59763.5, qty: 0.02 },
    ];
    const market = btcBook(59763.6, 59763.7, { bid: 0, ask: 0, asks, bids });
    // 0.01 × 59763.7 + 0.02 × 59763.8 = 1792.913 for 0.03 → 59763.7666… → up to 59763.8 for a BUY.
    const buy = expectClean(
      (await venue.submit(order({ symbol: BTC.symbol, side: 'BUY', qty: 0.03 }), market)).fills[0],
    );
    expect(buy).toMatchObject({ qty: 0.03, price: 59763.8, fee: 0.896457 });
    // 0.01 × 59763.6 + 0.02 × 59763.5 = 1792.906 for 0.03 → 59763.5333… → down to 59763.5 for a SELL.
    const sell = expectClean(
      (await venue.submit(order({ symbol: BTC.symbol, side: 'SELL', qty: 0.03 }), market)).fills[0],
    );
    expect(sell).toMatchObject({ qty: 0.03, price: 59763.5, fee: 0.8964525 });
  });

  it('a marketable limit rounds its average against the taker and still respects the limit', async () => {
    const { venue } = await open();
    const asks = [
      { price: 100.01, qty: 1 },
      { price: 100.02, qty: 2 },
      { price: 100.05, qty: 5 },
    ];
    const result = await venue.submit(
      order({ side: 'BUY', qty: 4, type: 'limit', limitPrice: 100.02 }),
      view(snapshot({ bid: 99.99, ask: 100.01, asks })),
    );
    // 1 × 100.01 + 2 × 100.02 = 300.05 for 3 → 100.01666… → 100.02, the limit; the last lot rests.
    expect(expectClean(result.fills[0])).toMatchObject({ qty: 3, price: 100.02, fee: 0.15003 });
    expect(result.order).toMatchObject({ status: 'open', filledQty: 3, avgFillPrice: 100.02 });
  });

  it('a maker fee of 0.01 × 59763.7 × 0.0002 is 0.1195274, not 0.11952739999999999', async () => {
    const { venue } = await open();
    await venue.submit(
      order({ symbol: BTC.symbol, side: 'BUY', qty: 0.01, type: 'limit', limitPrice: 59763.7 }),
      btcBook(59763.8, 59763.9),
    );
    const [fill] = (await venue.onMarket(btcBook(59763.5, 59763.6))).fills;
    expect(expectClean(fill)).toMatchObject({ qty: 0.01, price: 59763.7, fee: 0.1195274, liquidity: 'maker' });
  });

  it('large prices: 0.007 at 1 234 567.8 pays 4.3209873, not 4.3209873000000005', async () => {
    const { venue } = await open();
    const { fills } = await venue.submit(
      order({ symbol: BTC.symbol, side: 'BUY', qty: 0.007 }),
      btcBook(1_234_567.7, 1_234_567.8),
    );
    expect(expectClean(fills[0])).toMatchObject({ qty: 0.007, price: 1_234_567.8, fee: 4.3209873 });
  });

  it('0.1 + 0.2 fills as 0.3, and spot cash moves by exact 8-decimal amounts', async () => {
    const { venue } = await open();
    const market = view(snapshot({ symbol: XRP.symbol, bid: 0.5536, ask: 0.5537 }));
    const buy = await venue.submit(order({ symbol: XRP.symbol, side: 'BUY', qty: 123.4 }), market);
    // 123.4 × 0.5537 = 68.32658 (68.32657999999999 in float), fee 0.03416329.
    expect(expectClean(buy.fills[0])).toMatchObject({ qty: 123.4, price: 0.5537, fee: 0.03416329 });
    expect((await venue.account()).cash).toBe(99_931.63925671);
    // Reduce-only, so the minimum notional does not apply to this small sell.
    const sell = await venue.submit(
      order({ symbol: XRP.symbol, side: 'SELL', qty: 0.1 + 0.2, reduceOnly: true }),
      market,
    );
    expect(expectClean(sell.fills[0])).toMatchObject({ qty: 0.3, price: 0.5536, fee: 0.00008304 });
    const account = await venue.account();
    expect(account.positions[0]?.qty).toBe(123.1);
    // Proceeds 0.16608, realized 0.3 × (0.5536 − 0.5537) = −0.00003.
    expect(account.cash).toBe(99_931.80525367);
    expect(account.realizedPnl).toBe(-0.00003);
    expectCleanAccount(account);
  });

  it('marks at a mid of 0.1 and 0.2 read 0.15, and NAV and unrealized PnL follow from it cleanly', async () => {
    const { venue } = await open();
    await venue.submit(order({ side: 'BUY', qty: 100 }), view(snapshot({ bid: 0.1, ask: 0.2 })));
    const account = await venue.account();
    expect(account.positions[0]).toMatchObject({ qty: 100, entryPrice: 0.2, markPrice: 0.15, unrealizedPnl: -5 });
    // Fee 100 × 0.2 × 0.0005 = 0.01; NAV = 100 000 − 0.01 − 5.
    expect(account.nav).toBe(99_994.99);
    expectCleanAccount(account);
  });

  it('short positions, their realized PnL and the funding they receive stay on their grids', async () => {
    const { venue } = await open();
    const H8 = 8 * 3_600_000;
    const at = (ts: number, bid: number, ask: number) =>
      btcBook(bid, ask, { bid, ask, ts, fundingRate: 0.0001, nextFundingTs: ts < H8 ? H8 : 2 * H8 });
    for (const qty of [0.1, 0.2]) {
      const { fills } = await venue.submit(order({ symbol: BTC.symbol, side: 'SELL', qty }), at(0, 59763.7, 59763.8));
      expectClean(fills[0]);
    }
    let account = await venue.account();
    expect(account.positions[0]).toMatchObject({ qty: -0.3, entryPrice: 59763.7 });
    // The funding time passes: the short receives 0.0001 × 0.3 × mark 59763.65 = 1.7929095.
    await venue.onMarket(at(H8, 59763.6, 59763.7));
    account = await venue.account();
    expect(account.fundingPnl).toBe(1.7929095);
    const close = await venue.submit(order({ symbol: BTC.symbol, side: 'BUY', qty: 0.3 }), at(H8, 59700, 59700.1));
    expect(expectClean(close.fills[0])).toMatchObject({ qty: 0.3, price: 59700.1, fee: 8.955015 });
    account = await venue.account();
    expect(account.positions).toEqual([]);
    // 0.3 × (59763.7 − 59700.1) = 19.08 realized.
    expect(account.realizedPnl).toBe(19.08);
    expectCleanAccount(account);
  });
});
