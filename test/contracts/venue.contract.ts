/**
 * Contract for Venue adapters (src/ports/venue.ts): the promises the order manager relies on, run
 * against every adapter (the paper venue, the live venue on each exchange's fake) by one runner file
 * each. A runner gives a fresh venue per test and the means to move its market and, where the adapter
 * has such a world, to act behind its back; promises only some adapters make are behind capability
 * flags, so an adapter without one says so in its runner instead of skipping silently.
 *
 * Refusal reasons are the adapter's own words (the paper venue's INSUFFICIENT_MARGIN, Binance's
 * (-2019)): the runner names the pattern of each kind, the contract checks that the refusal is of
 * that kind and that nothing was placed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketView } from '../../src/domain/market.js';
import type { Fill, OrderRequest, Side } from '../../src/domain/orders.js';
import { roundToStep } from '../../src/domain/steps.js';
import type { Venue } from '../../src/ports/venue.js';

/** Promises only some adapters make (a live exchange's world, which the paper venue does not have). */
export interface VenueCapabilities {
  /** Reconciliation (each onMarket) cancels orders it did not place and reports positions changed behind its back. */
  foreignOrders: boolean;
  /** An order whose acknowledgement is lost is found by its client id, never sent twice. */
  lostAcknowledgements: boolean;
  /** protect() rests stops on the venue that close a position with no process. */
  protectiveStops: boolean;
  /** The venue cancels resting orders itself when onMarket stops re-arming its countdown. */
  deadMansSwitch: boolean;
  /**
   * A held switch instead (Bybit's DCP): resting orders stay while its connection is held, and the
   * venue cancels them itself once the connection has been gone its window. Absent: none.
   */
  heldSwitch?: boolean;
  /** A rate-limit answer refuses orders RATE_LIMITED, sending nothing until the wait has passed. */
  rateLimits: boolean;
  /** A crossing post-only limit is refused or expired, never filled. */
  postOnly: boolean;
}

/** One instrument the contract trades, with the exchange's grid (the same for every adapter). */
export interface ContractInstrument {
  symbol: string;
  lotSize: number;
  tickSize: number;
  minNotional: number;
}

/** A fresh venue and its world, for one test. */
export interface VenueHarness {
  venue: Venue;
  /** The market to show the venue now (a live venue reads its own and ignores it). */
  market(): MarketView;
  /** The best bid and ask of `symbol` now. */
  quotes(symbol: string): { bid: number; ask: number };
  /**
   * Moves the market through a resting order of ours at `price` on `side` for one update, so that
   * `qty` of it can fill there (the rest keeps resting); the next onMarket reports it.
   */
  cross(symbol: string, side: Side, price: number, qty: number): Promise<void>;
  /** Moves the mark of `symbol` to `mid` (and lets the venue's own machinery react to it). */
  moveTo?(symbol: string, mid: number): Promise<void>;
  /** Moves the venue's clock on by `ms` (countdowns expire, holds end). */
  advance?(ms: number): Promise<void>;
  /** foreignOrders: places a resting order from elsewhere (the web page); returns its client id. */
  foreignOrder?(symbol: string, side: Side, qty: number, price: number): Promise<string>;
  /** foreignOrders: sets the position of `symbol` behind the venue's back. */
  changePosition?(symbol: string, qty: number): Promise<void>;
  /** lostAcknowledgements: the next order is carried out and its answer never arrives. */
  loseNextAcknowledgement?(): void;
  /** rateLimits: the next request is answered 429 with this Retry-After. */
  rateLimitNext?(retryAfterSeconds: number): void;
  /** rateLimits: requests that reached the venue so far. */
  requestsSent?(): number;
  /** How many orders the venue itself holds under our client id (any status), where it can tell. */
  placedUnder?(clientOrderId: string): number;
  /** deadMansSwitch: its countdown, ms. */
  deadMansSwitchMs?: number;
  /** heldSwitch: its window, ms. */
  heldSwitchMs?: number;
  /** heldSwitch: the process lets go (its connection ends, as when it dies). */
  letGo?(): Promise<void>;
  close(): Promise<void>;
}

export interface VenueContractSetup {
  capabilities: VenueCapabilities;
  /** Two instruments: the first traded by most tests, the second to tell symbols apart. */
  instruments: readonly [ContractInstrument, ContractInstrument];
  /** What the instruments are (perpetuals unless told): the kind the venue's positions must carry. */
  kind?: 'perp' | 'spot';
  /** The adapter's words for each kind of refusal. */
  refusals: { margin: RegExp; reduceOnly: RegExp; minimum: RegExp; postOnly: RegExp; rateLimited: RegExp };
  open(): Promise<VenueHarness>;
}

let seq = 0;

export function venueContract(name: string, setup: VenueContractSetup): void {
  const { capabilities: can, instruments, refusals } = setup;
  const [main, second] = instruments;
  const opened: VenueHarness[] = [];

  describe(`Venue contract: ${name}`, () => {
    afterEach(async () => {
      for (const h of opened.splice(0)) await h.close();
    });

    const open = async (): Promise<VenueHarness> => {
      const h = await setup.open();
      opened.push(h);
      return h;
    };
    /** A quantity on the lot grid worth about `notional` at the main symbol's ask (above its minimum). */
    const qtyWorth = (h: VenueHarness, inst: ContractInstrument, notional: number): number =>
      roundToStep(Math.ceil(notional / h.quotes(inst.symbol).ask / inst.lotSize) * inst.lotSize, inst.lotSize);
    /** A BUY limit `ticks` below the best bid: rests, and does not fill while the market stays. */
    const below = (h: VenueHarness, inst: ContractInstrument, ticks: number): number =>
      roundToStep(h.quotes(inst.symbol).bid - ticks * inst.tickSize, inst.tickSize);
    const order = (fields: Partial<OrderRequest> & Pick<OrderRequest, 'qty'>): OrderRequest => ({
      clientOrderId: `vc-${++seq}`,
      symbol: main.symbol,
      side: 'BUY',
      type: 'market',
      limitPrice: null,
      reduceOnly: false,
      ...fields,
    });
    const held = async (h: VenueHarness, symbol = main.symbol): Promise<number> =>
      (await h.venue.account(h.market())).positions.find((p) => p.symbol === symbol)?.qty ?? 0;
    const total = (fills: readonly Fill[]): number =>
      roundToStep(
        fills.reduce((s, f) => s + f.qty, 0),
        main.lotSize,
      );

    describe('idempotent submit by client id', () => {
      it('the same id twice is one order: the second is a duplicate, trades nothing, and the position is one fill', async () => {
        const h = await open();
        const qty = qtyWorth(h, main, 2 * main.minNotional);
        const request = order({ qty });
        const first = await h.venue.submit(request, h.market());
        expect(first.duplicate).toBe(false);
        expect(first.order).toMatchObject({ clientOrderId: request.clientOrderId, status: 'filled', filledQty: qty });
        expect(total(first.fills)).toBe(qty);
        const again = await h.venue.submit({ ...request, qty: 2 * qty }, h.market());
        expect(again).toMatchObject({ duplicate: true, fills: [], order: { clientOrderId: request.clientOrderId } });
        expect(again.order.qty).toBe(qty);
        expect(await held(h)).toBe(qty);
        if (h.placedUnder) expect(h.placedUnder(request.clientOrderId)).toBe(1);
      });

      it('a resting order resubmitted is returned as it is now, still one order resting', async () => {
        const h = await open();
        const request = order({
          qty: qtyWorth(h, main, 2 * main.minNotional),
          type: 'limit',
          limitPrice: below(h, main, 20),
        });
        expect((await h.venue.submit(request, h.market())).order.status).toBe('open');
        const again = await h.venue.submit(request, h.market());
        expect(again).toMatchObject({ duplicate: true, fills: [], order: { status: 'open' } });
        expect((await h.venue.openOrders()).map((o) => o.clientOrderId)).toEqual([request.clientOrderId]);
      });

      it('concurrent submissions of one id execute once', async () => {
        const h = await open();
        const qty = qtyWorth(h, main, 2 * main.minNotional);
        const request = order({ qty });
        const results = await Promise.all([1, 2, 3].map(() => h.venue.submit(request, h.market())));
        if (h.placedUnder) expect(h.placedUnder(request.clientOrderId)).toBe(1);
        expect(await held(h)).toBe(qty);
        expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
      });
    });

    describe.runIf(can.lostAcknowledgements)('a lost acknowledgement', () => {
      it('is resolved by client id without a second order; resubmitting it places nothing', async () => {
        const h = await open();
        const qty = qtyWorth(h, main, 2 * main.minNotional);
        const request = order({ qty });
        h.loseNextAcknowledgement!();
        const result = await h.venue.submit(request, h.market());
        expect(result.order).toMatchObject({ status: 'filled', filledQty: qty });
        expect(total(result.fills)).toBe(qty);
        expect(await h.venue.submit(request, h.market())).toMatchObject({ duplicate: true, fills: [] });
        expect(h.placedUnder!(request.clientOrderId)).toBe(1);
        expect(await held(h)).toBe(qty);
      });
    });

    describe('refusals by kind: a rejected order with the reason, and nothing placed', () => {
      const refusedCleanly = async (h: VenueHarness, request: OrderRequest, reason: RegExp): Promise<void> => {
        const result = await h.venue.submit(request, h.market());
        expect(result.duplicate).toBe(false);
        expect(result.fills).toEqual([]);
        expect(result.order.status).toBe('rejected');
        expect(result.order.rejectReason).toMatch(reason);
        expect(await h.venue.openOrders()).toEqual([]);
        expect(await held(h)).toBe(0);
      };

      it('insufficient margin: an order two hundred times the account', async () => {
        const h = await open();
        const nav = (await h.venue.account(h.market())).nav;
        const price = below(h, main, 20);
        const qty = roundToStep(Math.ceil((200 * nav) / price / main.lotSize) * main.lotSize, main.lotSize);
        await refusedCleanly(h, order({ qty, type: 'limit', limitPrice: price }), refusals.margin);
      });

      it('a reduce-only order that would open a position', async () => {
        const h = await open();
        await refusedCleanly(
          h,
          order({ side: 'SELL', qty: qtyWorth(h, main, 2 * main.minNotional), reduceOnly: true }),
          refusals.reduceOnly,
        );
      });

      it('below the minimum notional', async () => {
        const h = await open();
        await refusedCleanly(h, order({ qty: main.lotSize }), refusals.minimum);
      });
    });

    describe('cancel-all', () => {
      it('per symbol cancels only those symbols; then all cancels the rest; then there is nothing to cancel', async () => {
        const h = await open();
        const a = order({
          qty: qtyWorth(h, main, 2 * main.minNotional),
          type: 'limit',
          limitPrice: below(h, main, 20),
        });
        const b = order({
          symbol: second.symbol,
          qty: qtyWorth(h, second, 2 * second.minNotional),
          type: 'limit',
          limitPrice: below(h, second, 20),
        });
        expect((await h.venue.submit(a, h.market())).order.status).toBe('open');
        expect((await h.venue.submit(b, h.market())).order.status).toBe('open');
        const first = await h.venue.cancelAll([main.symbol]);
        expect(first.map((o) => [o.clientOrderId, o.symbol, o.status])).toEqual([
          [a.clientOrderId, main.symbol, 'cancelled'],
        ]);
        expect((await h.venue.openOrders()).map((o) => o.clientOrderId)).toEqual([b.clientOrderId]);
        const rest = await h.venue.cancelAll();
        expect(rest.map((o) => [o.clientOrderId, o.status])).toEqual([[b.clientOrderId, 'cancelled']]);
        expect(await h.venue.openOrders()).toEqual([]);
        expect(await h.venue.cancelAll()).toEqual([]);
        // A cancelled order stays known by its id: resubmitting it places nothing.
        expect(await h.venue.submit(a, h.market())).toMatchObject({ duplicate: true, order: { status: 'cancelled' } });
        expect(await h.venue.openOrders()).toEqual([]);
      });
    });

    describe('resting orders', () => {
      it('a partial fill then the rest: each reported once by onMarket, the order open until the last', async () => {
        const h = await open();
        await h.venue.onMarket(h.market());
        const half = qtyWorth(h, main, 2 * main.minNotional);
        const price = below(h, main, 5);
        const request = order({ qty: 2 * half, type: 'limit', limitPrice: price });
        expect((await h.venue.submit(request, h.market())).order).toMatchObject({ status: 'open', filledQty: 0 });

        await h.cross(main.symbol, 'BUY', price, half);
        const first = await h.venue.onMarket(h.market());
        expect(first.fills.map((f) => [f.clientOrderId, f.side, f.price, f.liquidity])).toEqual(
          first.fills.map(() => [request.clientOrderId, 'BUY', price, 'maker']),
        );
        expect(total(first.fills)).toBe(half);
        expect((await h.venue.openOrders()).map((o) => [o.clientOrderId, o.filledQty])).toEqual([
          [request.clientOrderId, half],
        ]);
        expect(await held(h)).toBe(half);

        await h.cross(main.symbol, 'BUY', price, half);
        const rest = await h.venue.onMarket(h.market());
        expect(total(rest.fills)).toBe(half);
        expect(await h.venue.openOrders()).toEqual([]);
        expect(await held(h)).toBe(2 * half);
        expect((await h.venue.onMarket(h.market())).fills).toEqual([]);
        if (h.venue.positionDrift) expect(h.venue.positionDrift()).toEqual([]);
      });
    });

    describe('reduce-only', () => {
      it('a reduce-only close larger than the position stops at flat, never past it', async () => {
        const h = await open();
        const qty = qtyWorth(h, main, 2 * main.minNotional);
        await h.venue.submit(order({ qty }), h.market());
        const close = await h.venue.submit(order({ side: 'SELL', qty: 3 * qty, reduceOnly: true }), h.market());
        expect(close.order.status).not.toBe('rejected');
        expect(total(close.fills)).toBe(qty);
        expect(await held(h)).toBe(0);
        // Flat now: another reduce-only order has nothing to reduce.
        const more = await h.venue.submit(order({ side: 'SELL', qty, reduceOnly: true }), h.market());
        expect(more.order.status).toBe('rejected');
        expect(await held(h)).toBe(0);
      });
    });

    describe.runIf(can.postOnly)('post-only', () => {
      it('a post-only limit that would cross is refused (or expired), never filled; one that does not cross rests', async () => {
        const h = await open();
        const qty = qtyWorth(h, main, 2 * main.minNotional);
        const crossing = roundToStep(h.quotes(main.symbol).ask + 5 * main.tickSize, main.tickSize);
        const taken = await h.venue.submit(
          order({ qty, type: 'limit', limitPrice: crossing, postOnly: true }),
          h.market(),
        );
        expect(taken.fills).toEqual([]);
        expect(['rejected', 'cancelled']).toContain(taken.order.status);
        expect(taken.order.filledQty).toBe(0);
        if (taken.order.status === 'rejected') expect(taken.order.rejectReason).toMatch(refusals.postOnly);
        expect(await held(h)).toBe(0);
        const maker = order({ qty, type: 'limit', limitPrice: below(h, main, 5), postOnly: true });
        expect((await h.venue.submit(maker, h.market())).order.status).toBe('open');
        expect((await h.venue.openOrders()).map((o) => o.clientOrderId)).toEqual([maker.clientOrderId]);
      });
    });

    describe('positions and NAV after fills', () => {
      it('NAV is the starting balance less the fees plus the unrealised, and after the close plus the realised', async () => {
        const h = await open();
        const start = await h.venue.account(h.market());
        expect(start.positions).toEqual([]);
        const qty = qtyWorth(h, main, 4 * main.minNotional);
        const bought = await h.venue.submit(order({ qty }), h.market());
        const buyFees = bought.fills.reduce((s, f) => s + f.fee, 0);
        expect(buyFees).toBeGreaterThan(0);
        const entry = bought.fills.reduce((s, f) => s + f.qty * f.price, 0) / qty;

        const open1 = await h.venue.account(h.market());
        const position = open1.positions.find((p) => p.symbol === main.symbol)!;
        expect(position).toMatchObject({ symbol: main.symbol, kind: setup.kind ?? 'perp', qty });
        expect(position.entryPrice).toBeCloseTo(entry, 6);
        expect(position.unrealizedPnl).toBeCloseTo(qty * (position.markPrice - position.entryPrice), 6);
        expect(open1.nav).toBeCloseTo(start.nav - buyFees + open1.unrealizedPnl, 6);

        const sold = await h.venue.submit(order({ side: 'SELL', qty, reduceOnly: true }), h.market());
        const sellFees = sold.fills.reduce((s, f) => s + f.fee, 0);
        const realized = sold.fills.reduce((s, f) => s + f.qty * (f.price - entry), 0);
        const closed = await h.venue.account(h.market());
        expect(closed.positions.filter((p) => p.qty !== 0)).toEqual([]);
        expect(closed.nav).toBeCloseTo(start.nav - buyFees - sellFees + realized, 6);
      });
    });

    describe.runIf(can.foreignOrders)('reconciliation', () => {
      it('an order placed behind our back is cancelled by the next onMarket; ours are left alone', async () => {
        const h = await open();
        await h.venue.onMarket(h.market()); // the first reconciliation adopts the account as it is
        const mine = order({
          qty: qtyWorth(h, main, 2 * main.minNotional),
          type: 'limit',
          limitPrice: below(h, main, 20),
        });
        await h.venue.submit(mine, h.market());
        const foreign = await h.foreignOrder!(
          second.symbol,
          'BUY',
          qtyWorth(h, second, 2 * second.minNotional),
          below(h, second, 20),
        );
        expect((await h.venue.openOrders()).map((o) => o.clientOrderId).sort()).toEqual(
          [foreign, mine.clientOrderId].sort(),
        );
        await h.venue.onMarket(h.market());
        expect((await h.venue.openOrders()).map((o) => o.clientOrderId)).toEqual([mine.clientOrderId]);
      });

      it('a position changed behind our back is drift: openings refused until it is put back, closes still go', async () => {
        const h = await open();
        await h.venue.onMarket(h.market());
        const qty = qtyWorth(h, main, 2 * main.minNotional);
        await h.venue.submit(order({ qty }), h.market());
        await h.venue.onMarket(h.market());
        expect(h.venue.positionDrift!()).toEqual([]);
        await h.changePosition!(main.symbol, 3 * qty);
        await h.venue.onMarket(h.market());
        expect(h.venue.positionDrift!()).toEqual([{ symbol: main.symbol, expected: qty, actual: 3 * qty }]);
        const opening = await h.venue.submit(order({ qty }), h.market());
        expect(opening.order.status).toBe('rejected');
        expect(opening.order.rejectReason).toMatch(/^POSITION_DRIFT/);
        const close = await h.venue.submit(order({ side: 'SELL', qty, reduceOnly: true }), h.market());
        expect(close.order.status).toBe('filled');
        await h.changePosition!(main.symbol, 0);
        await h.venue.onMarket(h.market());
        expect(h.venue.positionDrift!()).toEqual([]);
      });
    });

    describe.runIf(can.protectiveStops)('protective stops', () => {
      it('a stop rested by protect() closes the position when the market crosses it, with no process, and is reported once', async () => {
        const h = await open();
        await h.venue.onMarket(h.market());
        const qty = qtyWorth(h, main, 2 * main.minNotional);
        await h.venue.submit(order({ qty }), h.market());
        const mark = (await h.venue.account(h.market())).positions[0]!.markPrice;
        await h.venue.protect!([{ symbol: main.symbol, side: 'SELL', triggerPrice: mark * 0.98, reason: 'stop_loss' }]);
        await h.moveTo!(main.symbol, mark * 0.95);
        expect(await held(h)).toBe(0);
        const update = await h.venue.onMarket(h.market());
        expect(update.fills.map((f) => [f.symbol, f.side])).toEqual(update.fills.map(() => [main.symbol, 'SELL']));
        expect(total(update.fills)).toBe(qty);
        expect((await h.venue.onMarket(h.market())).fills).toEqual([]);
        if (h.venue.positionDrift) expect(h.venue.positionDrift()).toEqual([]);
      });
    });

    describe.runIf(can.deadMansSwitch)("the dead-man's switch", () => {
      it('resting orders stay while onMarket re-arms it, and are cancelled by the venue once it stops', async () => {
        const h = await open();
        const ms = h.deadMansSwitchMs!;
        const far = roundToStep(h.quotes(main.symbol).bid * 0.5, main.tickSize);
        const resting = order({ qty: qtyWorth(h, main, 2 * main.minNotional), type: 'limit', limitPrice: far });
        await h.venue.submit(resting, h.market());
        await h.venue.onMarket(h.market());
        await h.advance!(ms - 10_000);
        await h.venue.onMarket(h.market()); // re-armed: the countdown starts again
        await h.advance!(ms - 10_000);
        expect((await h.venue.openOrders()).map((o) => o.clientOrderId)).toEqual([resting.clientOrderId]);
        await h.advance!(20_000); // past the countdown since the last arming
        expect(await h.venue.openOrders()).toEqual([]);
      });
    });

    describe.runIf(can.heldSwitch ?? false)("the held dead-man's switch", () => {
      it('resting orders stay while its connection is held, and are cancelled by the venue once it has been gone its window', async () => {
        const h = await open();
        const ms = h.heldSwitchMs!;
        const far = roundToStep(h.quotes(main.symbol).bid * 0.5, main.tickSize);
        const resting = order({ qty: qtyWorth(h, main, 2 * main.minNotional), type: 'limit', limitPrice: far });
        await h.venue.submit(resting, h.market());
        await h.venue.onMarket(h.market());
        await h.advance!(3 * ms); // held: however long, nothing is cancelled
        await h.venue.onMarket(h.market());
        expect((await h.venue.openOrders()).map((o) => o.clientOrderId)).toEqual([resting.clientOrderId]);
        await h.letGo!();
        await h.advance!(ms - 1_000);
        expect((await h.venue.openOrders()).map((o) => o.clientOrderId)).toEqual([resting.clientOrderId]);
        await h.advance!(2_000); // past the window since the connection ended
        expect(await h.venue.openOrders()).toEqual([]);
      });
    });

    describe.runIf(can.rateLimits)('rate-limit answers', () => {
      it('a 429 refuses the order RATE_LIMITED and every order while held, without a request; then orders go', async () => {
        const h = await open();
        const qty = qtyWorth(h, main, 2 * main.minNotional);
        h.rateLimitNext!(3);
        const first = await h.venue.submit(order({ qty }), h.market());
        expect(first.order.status).toBe('rejected');
        expect(first.order.rejectReason).toMatch(refusals.rateLimited);
        const sent = h.requestsSent!();
        const held2 = await h.venue.submit(order({ qty }), h.market());
        expect(held2.order.status).toBe('rejected');
        expect(held2.order.rejectReason).toMatch(refusals.rateLimited);
        expect(h.requestsSent!()).toBe(sent);
        await h.advance!(3_000);
        expect((await h.venue.submit(order({ qty }), h.market())).order.status).toBe('filled');
        expect(await held(h)).toBe(qty); // the refused two placed nothing
      });
    });
  });
}
