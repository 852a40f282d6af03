/**
 * The paper venue on replayed bars (snapshots with `execution`, issue 22, item 2): takers fill
 * against the execution's taker book (a replay's next open), or are refused NO_NEXT_BAR when there is
 * none; resting limits fill at their limit, as maker, when the bar's range trades *through* them, not
 * on a *touch* unless FILL_TOUCH_SHARE says so, and together at most FILL_VOLUME_SHARE of the bar's
 * volume; per-symbol fees override the venue's. Snapshots without `execution` keep the book rules
 * (limit-orders.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { MarketSnapshot, Quotes } from '../../../src/domain/market.js';
import { resolvePaperVenueConfig } from '../../../src/adapters/paper-venue/config.js';
import { openHarness, order, PERP, snapshot, view } from './fixtures.js';

interface Bar {
  high: number;
  low: number;
  volume: number;
  /** The taker book; null: no next bar. Default: the snapshot's own. */
  taker?: Quotes | null;
}

/** A replay snapshot: quotes `bid`/`ask` (the close's book) and the bar's range, volume and taker book. */
function replayed(bid: number, ask: number, bar: Bar, symbol = PERP.symbol): MarketSnapshot {
  const s = snapshot({ bid, ask, symbol });
  const taker = bar.taker === undefined ? s : bar.taker;
  return { ...s, execution: { high: bar.high, low: bar.low, volume: bar.volume, taker: () => taker } };
}

const deep = (bid: number, ask: number): Quotes => ({
  bid,
  ask,
  bids: [{ price: bid, qty: 1_000 }],
  asks: [{ price: ask, qty: 1_000 }],
});

describe('paper venue: takers on replayed bars', () => {
  it('a market BUY decided at the close of 110 fills against the taker book at the next open, 120.1', async () => {
    const { venue } = await openHarness();
    const market = view(replayed(110, 110.1, { high: 110.5, low: 108.5, volume: 1e5, taker: deep(120, 120.1) }));
    const { order: o, fills } = await venue.submit(order({ side: 'BUY', qty: 1 }), market);
    expect(o.status).toBe('filled');
    expect(fills.map((f) => [f.price, f.liquidity, f.fee])).toEqual([[120.1, 'taker', 0.06005]]);
  });

  it('a marketable limit is judged against the taker book: a bid at 115 does not cross an open at 120', async () => {
    const { venue } = await openHarness();
    const market = view(replayed(110, 110.1, { high: 110.5, low: 108.5, volume: 1e5, taker: deep(120, 120.1) }));
    const { order: o, fills } = await venue.submit(
      order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 115 }),
      market,
    );
    expect(fills).toEqual([]);
    expect(o.status).toBe('open');
  });

  it('with no next bar a market order is refused NO_NEXT_BAR and nothing moves', async () => {
    const { venue } = await openHarness();
    const market = view(replayed(110, 110.1, { high: 111, low: 109, volume: 1e5, taker: null }));
    const { order: o, fills } = await venue.submit(order({ side: 'BUY', qty: 1 }), market);
    expect(fills).toEqual([]);
    expect(o).toMatchObject({ status: 'rejected' });
    expect(o.rejectReason).toMatch(/^NO_NEXT_BAR: /);
    expect((await venue.account()).positions).toEqual([]);
  });
});

describe('paper venue: resting limits on replayed bars', () => {
  const rest = async (side: 'BUY' | 'SELL', limitPrice: number, qty = 1, config = {}) => {
    const h = await openHarness(config);
    const placed = await h.venue.submit(
      order({ side, qty, type: 'limit', limitPrice }),
      view(replayed(100, 100.1, { high: 100.5, low: 99.5, volume: 1e5, taker: deep(100, 100.1) })),
    );
    expect(placed.order.status).toBe('open');
    return h;
  };

  it('a bid at 100 fills at 100, as maker, on a bar trading down to 90 that closes at 100 (through)', async () => {
    const { venue } = await rest('BUY', 100);
    const { fills } = await venue.onMarket(view(replayed(100, 100.1, { high: 100.2, low: 90, volume: 1e5 })));
    expect(fills.map((f) => [f.side, f.qty, f.price, f.liquidity])).toEqual([['BUY', 1, 100, 'maker']]);
    expect(fills[0]!.fee).toBeCloseTo(100 * 0.0002, 12);
    expect(await venue.openOrders()).toEqual([]);
  });

  it('the same bar without the low fills nothing: the close-derived book never reaches the bid', async () => {
    const { venue } = await rest('BUY', 100);
    expect((await venue.onMarket(view(replayed(100, 100.1, { high: 100.2, low: 100.05, volume: 1e5 })))).fills).toEqual(
      [],
    );
  });

  it('a touch (low exactly 100) fills nothing by default, and fully with touchShare 1', async () => {
    const touch = view(replayed(100.2, 100.3, { high: 100.5, low: 100, volume: 1e5 }));
    const strict = await rest('BUY', 100);
    expect((await strict.venue.onMarket(touch)).fills).toEqual([]);
    expect(await strict.venue.openOrders()).toHaveLength(1);
    const lenient = await rest('BUY', 100, 1, { barFills: { touchShare: 1 } });
    expect((await lenient.venue.onMarket(touch)).fills.map((f) => [f.qty, f.price])).toEqual([[1, 100]]);
  });

  it('an offer at 105 fills when the high trades through it, not when it only reaches it', async () => {
    const { venue } = await rest('SELL', 105);
    expect((await venue.onMarket(view(replayed(100, 100.1, { high: 105, low: 99, volume: 1e5 })))).fills).toEqual([]);
    const { fills } = await venue.onMarket(view(replayed(100, 100.1, { high: 106, low: 99, volume: 1e5 })));
    expect(fills.map((f) => [f.side, f.qty, f.price, f.liquidity])).toEqual([['SELL', 1, 105, 'maker']]);
  });

  it('fills at most volumeShare of the bar (2.5 % by default), the rest on later bars, shared in price priority', async () => {
    const h = await rest('BUY', 100, 5);
    // A second, better bid takes its share first.
    await h.venue.submit(
      order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 101 }),
      view(replayed(101.5, 101.6, { high: 102, low: 101.2, volume: 1e5, taker: deep(101.5, 101.6) })),
    );
    const dip = view(replayed(100, 100.1, { high: 100.2, low: 90, volume: 120 })); // 2.5 % = 3
    const first = await h.venue.onMarket(dip);
    expect(first.fills.map((f) => [f.price, f.qty])).toEqual([
      [101, 1],
      [100, 2],
    ]);
    const second = await h.venue.onMarket(dip);
    expect(second.fills.map((f) => [f.price, f.qty])).toEqual([[100, 3]]);
    expect(await h.venue.openOrders()).toEqual([]);
  });

  it('rejects a volume share outside (0, 1] and a touch share outside [0, 1]', () => {
    expect(() => resolvePaperVenueConfig({ barFills: { volumeShare: 0 } })).toThrow(/barFills\.volumeShare/);
    expect(() => resolvePaperVenueConfig({ barFills: { touchShare: 1.5 } })).toThrow(/barFills\.touchShare/);
  });
});

describe('paper venue: fees per symbol', () => {
  it("a symbol's own taker and maker fees override the venue's; other symbols keep the venue's", async () => {
    const { venue } = await openHarness({
      takerFee: 0.001,
      makerFee: 0.0001,
      feesBySymbol: { [PERP.symbol]: { takerFee: 0.0004 } },
    });
    const taken = await venue.submit(order({ side: 'BUY', qty: 1 }), view(snapshot({ bid: 99.9, ask: 100 })));
    expect(taken.fills[0]!.fee).toBeCloseTo(100 * 0.0004, 12);
    await venue.submit(
      order({ side: 'SELL', qty: 1, type: 'limit', limitPrice: 101 }),
      view(snapshot({ bid: 99.9, ask: 100 })),
    );
    const made = await venue.onMarket(view(snapshot({ bid: 101, ask: 101.1 })));
    // No maker fee for the symbol: the venue's.
    expect(made.fills[0]!.fee).toBeCloseTo(101 * 0.0001, 12);
  });

  it('rejects a per-symbol fee outside (-0.1, 0.1), naming the symbol', () => {
    expect(() => resolvePaperVenueConfig({ feesBySymbol: { XUSDT: { makerFee: 0.5 } } })).toThrow(
      /makerFee of XUSDT must be a fraction/,
    );
  });
});
