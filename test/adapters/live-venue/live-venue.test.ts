/**
 * The live venue (src/adapters/live-venue/) on a real ccxt binanceusdm against the fake exchange
 * (test/support/fake-exchange/, Binance's own response shapes, on loopback): orders, fills, cancels
 * and the account come from the exchange; an order whose answer was lost is found by its client id
 * and never sent twice; a request refused unprocessed is sent again after Retry-After; a refusal is a
 * rejected order with the exchange's reason. What every venue promises (a resting order filled once, a
 * partial fill, cancel-all, NAV) is the Venue contract's (test/contracts/venue.contract.ts); this file
 * keeps what is particular to ccxt and Binance. Time is injected: `sleep` moves a test clock on, so no
 * test waits for a recvWindow to pass.
 */
import ccxt from 'ccxt';
import type { MarketInterface as Market } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveMarkets } from '../../../src/adapters/market-data/live/markets.js';
import { CAPABILITIES } from '../../../src/adapters/live-venue/capabilities.js';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { exchangeClientId } from '../../../src/adapters/live-venue/client-ids.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import type { RequestGate } from '../../../src/adapters/live-venue/request-gate.js';
import type { LiveVenueOptions } from '../../../src/adapters/live-venue/live-venue.js';
import { maxOrderQty } from '../../../src/domain/exchange-filters.js';
import type { OrderRequest } from '../../../src/domain/orders.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { errors } from '../../support/fake-exchange/binance-errors.js';
import { round } from '../../support/fake-exchange/decimals.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';
import { MARKET_MAX_QTY } from '../../support/fake-exchange/order-rules.js';

const btc = instrumentById('BTCUSDT')!;
const SYMBOLS = symbolMap([
  ['BTCUSDT', 'BTC/USDT:USDT'],
  ['ETHUSDT', 'ETH/USDT:USDT'],
]);
const NO_MARKET = new Map();

let t: TradingFake;
let clock = 0;
let slept: number[] = [];
let venue: LiveVenue;
/** The monotonic clock the request gate times the exchange's waits on: the test's clock unless a test steps them apart. */
let monotonic: () => number;
/** Moved on every test, so a hold an earlier test left has passed (the wall clock starts over). */
let shift = 0;
let gate: RequestGate;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000 });
  await t.exchange.loadMarkets();
  // One gate for the file, as the trading process has one per exchange client.
  gate = gateRequests(t.exchange, { monotonic: () => monotonic(), now: () => clock });
});

beforeEach(async () => {
  t.reset();
  t.exchange.timeout = 2_000;
  clock = 1_700_000_000_000;
  shift += 10_000_000;
  monotonic = () => clock + shift;
  await t.exchange.fetchTime(); // an answer: no hold or ban an earlier test left stands
  slept = [];
  venue = venueWith({ recvWindowMs: 10_000, lookupIntervalMs: 1_000 });
});

/** A live venue on the test's exchange, clock and sleep (which moves the clock on), with `options` on top. */
function venueWith(options: Partial<LiveVenueOptions> = {}): LiveVenue {
  return new LiveVenue({
    exchange: t.exchange,
    errors: ccxt,
    gate,
    symbols: SYMBOLS,
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    ...options,
  });
}

afterAll(async () => {
  await t.close();
});

let seq = 0;
function order(overrides: Partial<OrderRequest> = {}): OrderRequest {
  return {
    clientOrderId: `lv-${++seq}`,
    symbol: 'BTCUSDT',
    side: 'BUY',
    qty: 0.01,
    type: 'market',
    limitPrice: null,
    reduceOnly: false,
    ...overrides,
  };
}

/** The fake's orders (any status) with this exchange client id. */
const onExchange = (clientOrderId: string) =>
  t.fake.venue.find('BTCUSDT', { clientOrderId: exchangeClientId(clientOrderId) });

describe('the live venue on the fake exchange', () => {
  it('a market order fills from the book: the fills are the exchange trades, fees and all, and the account shows the position', async () => {
    const o = order({ qty: 0.01 });
    const result = await venue.submit(o, NO_MARKET);
    expect(result.duplicate).toBe(false);
    expect(result.order).toMatchObject({ clientOrderId: o.clientOrderId, status: 'filled', filledQty: 0.01 });
    const trades = t.fake.venue.trades('BTCUSDT');
    expect(result.fills.map((f) => [f.qty, f.price, f.liquidity])).toEqual(
      trades.map((x) => [x.qty, x.price, 'taker']),
    );
    expect(result.fills[0]!.fee).toBeCloseTo(trades[0]!.commission, 8);

    const account = await venue.account();
    expect(account.positions).toMatchObject([{ symbol: 'BTCUSDT', kind: 'perp', qty: 0.01 }]);
    const figures = t.fake.venue.account();
    expect(account.nav).toBeCloseTo(figures.wallet + figures.unrealized, 6);
    expect(account.nav).toBeLessThan(100_000); // the fee was paid
    expect(account.openOrders).toEqual([]);
  });

  it('an order whose acknowledgement is lost is found by its client id, and sending it again sends nothing', async () => {
    t.fake.faults.neverAnswer('POST', '/fapi/v1/order');
    t.exchange.timeout = 300;
    const o = order();
    const result = await venue.submit(o, NO_MARKET);
    t.exchange.timeout = 2_000;
    expect(result.order).toMatchObject({ status: 'filled', filledQty: 0.01 });
    expect(result.fills.reduce((sum, f) => sum + f.qty, 0)).toBeCloseTo(0.01, 12);

    const again = await venue.submit(o, NO_MARKET);
    expect(again).toMatchObject({ duplicate: true, fills: [] });
    const sent = t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    expect(sent).toHaveLength(1);
    expect((await venue.account()).positions[0]!.qty).toBe(0.01);
  });

  it('a 5xx after the order was carried out is looked up, not resent; one before it is NOT_PLACED once its recvWindow has passed', async () => {
    const POST_ORDER = { method: 'POST', pathname: '/fapi/v1/order' };
    t.fake.faults.serverErrors(1, 503, true, POST_ORDER);
    const carried = await venue.submit(order(), NO_MARKET);
    expect(carried.order.status).toBe('filled');

    t.fake.faults.serverErrors(1, 503, false, POST_ORDER);
    const refused = order();
    const result = await venue.submit(refused, NO_MARKET);
    expect(result.order.status).toBe('rejected');
    expect(result.order.rejectReason).toMatch(/^NOT_PLACED/);
    // It kept looking until a request sent then could no longer be accepted (recvWindow + 5 s margin).
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThan(15_000);
    expect(onExchange(refused.clientOrderId)).toBeUndefined();
    const posts = t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    expect(posts).toHaveLength(2);
  });

  it('a reduce-only close answered 503 -1001 ("unable to process") is released at once as not placed: sent twice it could not pass flat', async () => {
    t.fake.venue.setPosition('BTCUSDT', 0.02);
    const POST_ORDER = { method: 'POST', pathname: '/fapi/v1/order' };
    t.fake.faults.serverErrors(1, 503, false, POST_ORDER);
    const close = order({ side: 'SELL', qty: 0.02, reduceOnly: true });
    const result = await venue.submit(close, NO_MARKET);
    expect(result.order.status).toBe('rejected');
    expect(result.order.rejectReason).toMatch(/-1001/);
    expect(slept).toEqual([]); // no look-ups: the next close goes at once
    const post = t.fake.calls.findIndex((c) => c.url.startsWith('/fapi/v1/order') && c.method === 'POST');
    const lookups = t.fake.calls.slice(post).filter((c) => c.url.startsWith('/fapi/v1/order') && c.method === 'GET');
    expect(lookups).toEqual([]);
    // Sent again (a new close), it closes; a third finds nothing to reduce and is refused, never past flat.
    expect((await venue.submit(order({ side: 'SELL', qty: 0.02, reduceOnly: true }), NO_MARKET)).order.status).toBe(
      'filled',
    );
    const third = await venue.submit(order({ side: 'SELL', qty: 0.02, reduceOnly: true }), NO_MARKET);
    expect(third.order.rejectReason).toMatch(/-2022/);
    expect(t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0).toBe(0);
  });

  it('an account read through 503s: each of its reads is sent again on its own, so one failing read does not fail the account (issue 32)', async () => {
    t.fake.venue.setPosition('ETHUSDT', -0.284);
    // The next three requests (whichever of the account's parallel reads they are) answer 503 -1001.
    t.fake.faults.serverErrors(3, 503, false);
    const account = await venue.account();
    expect(account.positions.map((p) => [p.symbol, p.qty])).toEqual([['ETHUSDT', -0.284]]);
    expect(slept.length).toBeGreaterThan(0);
    expect(slept.every((ms) => ms <= 400)).toBe(true);
    // A rate limit is not retried here: the request gate and Retry-After decide when to send again.
    t.fake.faults.rateLimit(1, 1);
    await expect(venue.account()).rejects.toThrow();
  });

  it('an order lookup that wrongly answers "does not exist" within the recvWindow is asked again, and finds it', async () => {
    t.fake.faults.neverAnswer('POST', '/fapi/v1/order');
    t.fake.faults.unknownOrders(2);
    t.exchange.timeout = 300;
    const result = await venue.submit(order(), NO_MARKET);
    t.exchange.timeout = 2_000;
    expect(result.order.status).toBe('filled');
    expect(slept).toEqual([1_000, 1_000]);
  });

  it('a 429 refuses the order unplaced (RATE_LIMITED) and every order until Retry-After has passed, without a request; then orders go again', async () => {
    t.fake.rateLimit(1, 3);
    const first = await venue.submit(order(), NO_MARKET);
    expect(first.order.status).toBe('rejected');
    expect(first.order.rejectReason).toMatch(/^RATE_LIMITED: DDoSProtection/);
    const calls = t.fake.calls.length;
    const second = await venue.submit(order(), NO_MARKET);
    expect(second.order.rejectReason).toBe('RATE_LIMITED: the exchange asked to wait 3 s more (429)');
    expect(t.fake.calls.length).toBe(calls); // not even asked
    clock += 3_000;
    expect((await venue.submit(order(), NO_MARKET)).order.status).toBe('filled');
    expect(slept).toEqual([]); // nothing waited inside a submit: a kill never queues behind a ban
    const posts = t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    expect(posts).toHaveLength(1);
  });

  it('the cool-off is timed on the monotonic clock: a wall clock stepped back an hour does not refuse orders for an hour, nor one stepped forward end it early', async () => {
    let mono = clock + shift;
    monotonic = () => mono;
    const stepped = venueWith({ monotonic: () => mono });
    t.fake.rateLimit(1, 3);
    expect((await stepped.submit(order(), NO_MARKET)).order.rejectReason).toMatch(/^RATE_LIMITED/);
    clock += 2 * 3_600_000; // forward: the ban is not over
    expect((await stepped.submit(order(), NO_MARKET)).order.rejectReason).toBe(
      'RATE_LIMITED: the exchange asked to wait 3 s more (429)',
    );
    clock -= 3 * 3_600_000; // back an hour past where it was: the ban still ends 3 s after it began
    mono += 3_000;
    expect((await stepped.submit(order(), NO_MARKET)).order.status).toBe('filled');
  });

  it('a Retry-After beyond five minutes refuses orders for as long as the exchange said, not five minutes', async () => {
    t.fake.rateLimit(1, 1_200);
    expect((await venue.submit(order(), NO_MARKET)).order.rejectReason).toMatch(/^RATE_LIMITED/);
    clock += 600_000;
    expect((await venue.submit(order(), NO_MARKET)).order.rejectReason).toBe(
      'RATE_LIMITED: the exchange asked to wait 600 s more (429)',
    );
    clock += 600_000;
    expect((await venue.submit(order(), NO_MARKET)).order.status).toBe('filled');
  });

  it('during a 418 ban nothing is sent: orders are refused RATE_LIMITED naming its end, reads, cycles and cancels fail fast', async () => {
    await venue.reconcile();
    t.fake.faults.banFor(1_200);
    const first = await venue.submit(order(), NO_MARKET);
    expect(first.order.rejectReason).toMatch(/^RATE_LIMITED: DDoSProtection/);
    const sent = t.fake.calls.length;
    clock += 300_000;
    const refused = await venue.submit(order({ reduceOnly: true }), NO_MARKET);
    expect(refused.order.rejectReason).toMatch(
      /^RATE_LIMITED: the exchange banned this IP until \d{4}-\d\d-\d\dT\S+Z \(418\); 900 s more$/,
    );
    await expect(venue.account()).rejects.toThrow(/not sent: the exchange banned this IP/);
    await expect(venue.onMarket(NO_MARKET)).rejects.toThrow(/not sent/);
    await expect(venue.cancelAll()).rejects.toThrow(/not sent/);
    await expect(venue.reconcile()).rejects.toThrow(/not sent/);
    expect(t.fake.calls.length).toBe(sent);
    expect(t.fake.faults.bansAnswered()).toBe(1);
    expect(slept).toEqual([]);
  });

  it('an id an earlier process placed (a command retried after a crash) is found before sending, not placed again', async () => {
    const o = order({ clientOrderId: 'dlv-command-7' });
    await t.exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, {
      clientOrderId: 'dlv-command-7',
    });
    const result = await venue.submit(o, NO_MARKET);
    expect(result).toMatchObject({ duplicate: true, fills: [], order: { status: 'filled', filledQty: 0.01 } });
    const posts = t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    expect(posts).toHaveLength(1);
  });

  it('a placed order whose trades cannot be read at once is never resent; its fills come with the next poll', async () => {
    const o = order();
    // The lookup before sending, the order itself, then the read of its trades never answers.
    t.fake.faults.neverAnswer('GET', '/fapi/v1/userTrades');
    t.exchange.timeout = 300;
    const placing = venue.submit(o, NO_MARKET);
    const result = await placing;
    t.exchange.timeout = 2_000;
    expect(result.order.status).toBe('filled');
    expect(result.fills).toEqual([]);
    const late = (await venue.onMarket(NO_MARKET)).fills.filter((f) => f.clientOrderId === o.clientOrderId);
    expect(result.fills.length + late.length).toBeGreaterThan(0);
    expect([...result.fills, ...late].reduce((sum, f) => sum + f.qty, 0)).toBeCloseTo(0.01, 12);
    const posts = t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    expect(posts).toHaveLength(1);
  });

  it("the exchange's refusal is a rejected order with its reason (min notional), and nothing is placed", async () => {
    const o = order({ qty: 0.001, type: 'limit', limitPrice: 1_000 });
    const result = await venue.submit(o, NO_MARKET);
    expect(result.order.status).toBe('rejected');
    expect(result.order.rejectReason).toMatch(/-4164/);
    expect(onExchange(o.clientOrderId)).toBeUndefined();
  });

  it.each([
    ['-2027', () => t.fake.faults.refuseOrders(1, errors.aboveMaxPositionAtLeverage)],
    ['-2028', () => t.fake.faults.refuseOrders(1, errors.leverageTooSmall)],
    ['-4131', () => t.fake.faults.refuseOrders(1, errors.counterpartyOutsidePercentPrice)],
    ['-4061', () => (t.fake.venue.settings.dualSidePosition = true)],
  ])(
    'a %s refusal (ccxt OperationRejected) is a rejected order at once: no look-up by client id after it, nothing waited',
    async (code, refuse) => {
      refuse();
      const o = order();
      const result = await venue.submit(o, NO_MARKET);
      expect(result.order.status).toBe('rejected');
      expect(result.order.rejectReason).toContain(`(${code})`);
      expect(slept).toEqual([]);
      // The one look-up is the one before sending (an id an earlier process may have placed); none after the refusal.
      const post = t.fake.calls.findIndex((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
      expect(post).toBeGreaterThan(-1);
      const after = t.fake.calls.slice(post + 1).filter((c) => c.url.startsWith('/fapi/v1/order'));
      expect(after).toEqual([]);
      expect(onExchange(o.clientOrderId)).toBeUndefined();
    },
  );

  it('a market order above the MARKET_LOT_SIZE maxQty the exchange publishes is refused -4005 at once; at the maximum read from the same filters, it trades', async () => {
    const [eth] = resolveMarkets(t.exchange.markets as Record<string, Market>, [{ symbol: 'ETHUSDT' }], 'binanceusdm');
    const max = maxOrderQty(eth!.instrument, 'market');
    expect(max).toBe(MARKET_MAX_QTY);
    const over = await venue.submit(order({ symbol: 'ETHUSDT', qty: max + 1 }), NO_MARKET);
    expect(over.order.status).toBe('rejected');
    expect(over.order.rejectReason).toContain('(-4005)');
    expect(slept).toEqual([]);
    const atMax = await venue.submit(order({ symbol: 'ETHUSDT', qty: max }), NO_MARKET);
    expect(atMax.order.status).not.toBe('rejected');
    expect(atMax.order.filledQty).toBeGreaterThan(0);
  });

  it('an id longer than the exchange allows is sent under a stable 36-character one, and found by it', async () => {
    const long = order({ clientOrderId: 'flt-kill-flatten-epoch-12-1700000000000-3-BTCUSDT' });
    const sent = exchangeClientId(long.clientOrderId);
    expect(sent).toMatch(/^h-[A-Za-z0-9_-]{32}$/);
    expect(exchangeClientId(long.clientOrderId)).toBe(sent);
    expect(exchangeClientId('s-1-BTCUSDT-0')).toBe('s-1-BTCUSDT-0');
    const result = await venue.submit(long, NO_MARKET);
    expect(result.order).toMatchObject({ clientOrderId: long.clientOrderId, status: 'filled' });
    expect(onExchange(long.clientOrderId)).toMatchObject({ clientOrderId: sent });
  });

  it('cancelAll cancels every open order of the traded symbols, foreign ones included, and returns them', async () => {
    const bid = t.fake.venue.book(btc).bids[3]![0];
    const mine = order({ type: 'limit', limitPrice: bid });
    await venue.submit(mine, NO_MARKET);
    const foreign = await t.exchange.createOrder('ETH/USDT:USDT', 'limit', 'buy', 0.1, 1_000, {
      clientOrderId: 'by-hand-1',
    });
    const cancelled = await venue.cancelAll();
    expect(cancelled.map((o) => [o.clientOrderId, o.symbol, o.status]).sort()).toEqual([
      ['by-hand-1', 'ETHUSDT', 'cancelled'],
      [mine.clientOrderId, 'BTCUSDT', 'cancelled'],
    ]);
    expect(foreign.status).toBe('open');
    expect(await venue.openOrders()).toEqual([]);
    expect(await venue.cancelAll(['BTCUSDT'])).toEqual([]);
  });
});

describe('reconciliation and the dead-man’s switch', () => {
  it('the first reconciliation cancels orders this process did not place and adopts the positions as they are', async () => {
    t.fake.venue.setPosition('ETHUSDT', -0.4, 2_000);
    await t.exchange.createOrder('BTC/USDT:USDT', 'limit', 'buy', 0.2, 1_000, { clientOrderId: 'left-by-crash' });
    const first = await venue.reconcile();
    expect(first.adopted).toBe(true);
    expect(first.drift).toEqual([]);
    expect(first.foreignCancelled.map((o) => [o.clientOrderId, o.symbol, o.status])).toEqual([
      ['left-by-crash', 'BTCUSDT', 'cancelled'],
    ]);
    expect(t.fake.venue.open()).toEqual([]);
    expect((await venue.account()).positions).toMatchObject([{ symbol: 'ETHUSDT', qty: -0.4 }]);
  });

  it("the system's own orders are left alone and its fills explain its positions: no drift", async () => {
    await venue.reconcile();
    const resting = order({ type: 'limit', limitPrice: t.fake.venue.book(btc).bids[3]![0] });
    await venue.submit(resting, NO_MARKET);
    await venue.submit(order({ qty: 0.02 }), NO_MARKET);
    await venue.submit(order({ side: 'SELL', qty: 0.005, reduceOnly: true }), NO_MARKET);
    const later = await venue.reconcile();
    expect(later).toEqual({ foreignCancelled: [], drift: [], adopted: false });
    expect(t.fake.venue.open().map((o) => o.clientOrderId)).toEqual([resting.clientOrderId]);
  });

  it('a trade history that lags the position is no drift: drift is judged once our fills are read', async () => {
    await venue.reconcile();
    t.fake.venue.tradeHistoryLagMs = 4_000;
    const bought = await venue.submit(order({ qty: 0.02 }), NO_MARKET);
    expect(bought.order).toMatchObject({ status: 'filled', filledQty: 0.02 });
    expect(bought.fills).toEqual([]); // the trades are not in the history yet
    expect((await venue.reconcile()).drift).toEqual([]);
    expect((await venue.onMarket(NO_MARKET)).fills).toEqual([]);
    expect(venue.positionDrift()).toEqual([]);
    // The history catches up: the fill is reported, and the position is explained.
    t.advance(4_000);
    const update = await venue.onMarket(NO_MARKET);
    expect(update.fills.reduce((sum, f) => sum + f.qty, 0)).toBeCloseTo(0.02, 12);
    expect(venue.positionDrift()).toEqual([]);
    // A real drift while a fill is unread is still drift on the symbols the unread fill does not touch.
    t.fake.venue.tradeHistoryLagMs = 4_000;
    await venue.submit(order({ qty: 0.01 }), NO_MARKET);
    t.fake.venue.setPosition('ETHUSDT', 0.5);
    expect((await venue.reconcile()).drift).toEqual([{ symbol: 'ETHUSDT', expected: 0, actual: 0.5 }]);
  });

  it('a position changed behind the system’s back is drift, named with what was expected and what is held', async () => {
    await venue.reconcile();
    await venue.submit(order({ qty: 0.02 }), NO_MARKET);
    t.fake.venue.setPosition('BTCUSDT', 0.05);
    const { drift } = await venue.reconcile();
    expect(drift).toEqual([{ symbol: 'BTCUSDT', expected: 0.02, actual: 0.05 }]);
  });

  it('while a drift stands, orders that add exposure are rejected POSITION_DRIFT and closes still go; it ends when the exchange agrees again', async () => {
    const reports: unknown[] = [];
    const watched = venueWith({ report: (r) => reports.push(r) });
    await watched.reconcile();
    await watched.submit(order({ qty: 0.02 }), NO_MARKET);
    t.fake.venue.setPosition('BTCUSDT', 0.05);
    await watched.onMarket(NO_MARKET);
    expect(reports.at(-1)).toMatchObject({ drift: [{ symbol: 'BTCUSDT', expected: 0.02, actual: 0.05 }] });
    const opening = await watched.submit(order({ qty: 0.01 }), NO_MARKET);
    expect(opening.order.status).toBe('rejected');
    expect(opening.order.rejectReason).toBe("POSITION_DRIFT: BTCUSDT holds 0.05, the system's fills explain 0.02");
    const close = await watched.submit(order({ side: 'SELL', qty: 0.01, reduceOnly: true }), NO_MARKET);
    expect(close.order.status).toBe('filled');
    // Put back by hand to what the system's fills explain (0.02 − 0.01): the drift ends, and is told.
    t.fake.venue.setPosition('BTCUSDT', 0.01);
    await watched.onMarket(NO_MARKET);
    expect(reports.at(-1)).toMatchObject({ drift: [], adopted: false });
    expect((await watched.submit(order({ qty: 0.01 }), NO_MARKET)).order.status).toBe('filled');
  });

  it('onMarket arms the countdown for every symbol when half of it has passed; when a process stops re-arming, the exchange cancels', async () => {
    const armed = venueWith({ countdownMs: 180_000, armCountdown: CAPABILITIES.binanceusdm.countdown!(t.exchange) });
    const advance = (ms: number) => {
      clock += ms; // the venue's clock moves with the exchange's
      t.advance(ms);
    };
    // Far below the market, so the minutes the test moves through cannot fill it.
    const far = round(t.fake.venue.book(btc).bids[0]![0] * 0.5, 1);
    await armed.submit(order({ type: 'limit', limitPrice: far }), NO_MARKET);
    await armed.onMarket(NO_MARKET);
    const arms = () => t.fake.calls.filter((c) => c.url.startsWith('/fapi/v1/countdownCancelAll')).length;
    expect(arms()).toBe(2);
    advance(60_000);
    await armed.onMarket(NO_MARKET); // 120 s remain: more than half, nothing sent
    expect(arms()).toBe(2);
    advance(60_000);
    await armed.onMarket(NO_MARKET); // re-armed: 180 s from now
    expect(arms()).toBe(4);
    advance(120_000);
    expect(t.fake.venue.open()).toHaveLength(1);
    advance(61_000); // 181 s since the last arming: the exchange cancels on its own
    expect(t.fake.venue.open()).toEqual([]);
  });

  it("a held switch's connection down past its grace fails the cycle (nothing new goes), as a countdown that cannot be armed does; back up, cycles run", async () => {
    let down: { forMs: number; reason: string } | null = null;
    let stopped = false;
    const held = venueWith({
      disconnectSwitch: {
        graceMs: 10_000,
        down: () => down,
        stop: () => {
          stopped = true;
        },
      },
    });
    await held.onMarket(NO_MARKET);
    down = { forMs: 9_999, reason: 'connection closed by remote server' };
    await held.onMarket(NO_MARKET); // within the grace: a reconnect may still come
    down = { forMs: 10_000, reason: 'connection closed by remote server' };
    await expect(held.onMarket(NO_MARKET)).rejects.toThrow(/dead-man's switch.*10000 ms.*closed by remote server/);
    down = null;
    await held.onMarket(NO_MARKET);
    await held.close();
    expect(stopped).toBe(true);
  });
});

describe('an exchange that stops answering', () => {
  it('a submit whose answer is lost and whose lookups all fail gives up after its patience, unknown (open, nothing filled), sends nothing more, and the next poll finds it', async () => {
    const patient = venueWith({ recvWindowMs: 10_000, lookupIntervalMs: 10_000 });
    // The order is carried out and its answer lost; every lookup after it meets a 418 (IP banned).
    t.fake.faults.neverAnswer('POST', '/fapi/v1/order');
    t.exchange.timeout = 300;
    const o = order();
    const pending = patient.submit(o, NO_MARKET);
    await vi.waitFor(() => expect(t.fake.calls.some((c) => c.method === 'POST')).toBe(true));
    t.fake.faults.ban(1_000, 1);
    const result = await pending;
    t.fake.faults.ban(0);
    clock += 1_000; // the last 418's Retry-After: nothing is sent before it has passed
    t.exchange.timeout = 2_000;
    expect(result.order).toMatchObject({ clientOrderId: o.clientOrderId, status: 'open', filledQty: 0 });
    expect(result.fills).toEqual([]);
    // Looked up for its recvWindow and half a minute more, then left for the next poll.
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(40_000);
    const update = await patient.onMarket(NO_MARKET);
    expect(update.fills.reduce((sum, f) => sum + f.qty, 0)).toBeCloseTo(0.01, 12);
    const posts = t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    expect(posts).toHaveLength(1);
  });
});

describe('the drawdown reference across a restart', () => {
  it('the NAV highs are saved when they change and a new venue starts from them, not from its NAV', async () => {
    let saved: [number, number][] = [];
    const peaks = (initial: [number, number][]) => ({
      initial,
      save: async (entries: [number, number][]) => {
        saved = entries.map(([a, b]) => [a, b]);
      },
    });
    const first = venueWith({ peaks: peaks([]) });
    const nav = (await first.account()).nav;
    expect(saved).toEqual([[expect.any(Number), nav]]);
    // A higher NAV an earlier process saw (the account has lost since): the restart measures from it.
    const restarted = venueWith({ peaks: peaks([[clock - 3_600_000, nav + 5_000]]) });
    expect((await restarted.account()).peakNav).toBe(nav + 5_000);
    const reset = await restarted.resetDrawdownPeak();
    expect(reset).toEqual({ previousPeakNav: nav + 5_000, peakNav: nav, nav });
    expect(saved).toEqual([[expect.any(Number), nav]]);
  });
});

describe('one consistent account', () => {
  /** Requests that reached the fake at `path` since index `from` of its log. */
  const arrived = (path: string, from: number) => t.fake.requests.slice(from).filter((u) => u.startsWith(path)).length;

  it('a fill landing while the account is read is counted once: as the position, not also as the resting order', async () => {
    // A BUY resting below the book, then the account read with the position answer held back while
    // the order fills: the open orders were read before the fill and the position after it.
    const price = t.fake.venue.book(btc).bids[2]![0];
    const resting = order({ type: 'limit', limitPrice: price, qty: 0.02 });
    expect((await venue.submit(resting, NO_MARKET)).order.status).toBe('open');
    const from = t.fake.requests.length;
    const release = t.fake.holdNext('/fapi/v3/positionRisk', null, 'on release');
    const reading = venue.account();
    await vi.waitFor(() => {
      expect(arrived('/fapi/v3/positionRisk', from)).toBe(1);
      expect(arrived('/fapi/v1/openOrders', from)).toBeGreaterThan(0);
    });
    t.fake.venue.setPrice('BTCUSDT', round(price - 2 * Number(btc.tickSize), 2));
    release();
    const account = await reading;

    const held = account.positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
    const buying = account.openOrders
      .filter((o) => o.symbol === 'BTCUSDT' && o.side === 'BUY')
      .reduce((sum, o) => sum + o.qty - o.filledQty, 0);
    expect(t.fake.venue.open('BTCUSDT')).toEqual([]);
    expect(held).toBeCloseTo(0.02, 12);
    expect(buying).toBe(0);
  });

  it('an order of ours that fills while a cancel-all is on its way is reported as a fill, not as cancelled', async () => {
    await venue.reconcile();
    const price = t.fake.venue.book(btc).bids[2]![0];
    const resting = order({ type: 'limit', limitPrice: price, qty: 0.02 });
    expect((await venue.submit(resting, NO_MARKET)).order.status).toBe('open');
    // The cancel is held back until the order has filled: the open orders were read before the fill.
    const from = t.fake.requests.length;
    const release = t.fake.holdNext('/fapi/v1/allOpenOrders', 'BTCUSDT', 'on release');
    const cancelling = venue.cancelAll(['BTCUSDT']);
    await vi.waitFor(() => expect(arrived('/fapi/v1/allOpenOrders', from)).toBe(1));
    t.fake.venue.setPrice('BTCUSDT', round(price - 2 * Number(btc.tickSize), 2));
    t.fake.venue.settle();
    release();
    const cancelled = await cancelling;

    expect(cancelled.map((o) => o.clientOrderId)).not.toContain(resting.clientOrderId);
    const fills = venue.takeFills();
    expect(fills.map((f) => [f.clientOrderId, f.qty])).toEqual([[resting.clientOrderId, 0.02]]);
    expect(venue.takeFills()).toEqual([]); // reported once
    // The fill explains the position: no drift.
    expect((await venue.reconcile()).drift).toEqual([]);
  });

  it('an account that changes during every read is not read at all (the cycle fails closed), after three tries', async () => {
    const price = t.fake.venue.book(btc).bids[2]![0];
    expect((await venue.submit(order({ type: 'limit', limitPrice: price, qty: 0.04 }), NO_MARKET)).order.status).toBe(
      'open',
    );
    let from = t.fake.requests.length;
    let release = t.fake.holdNext('/fapi/v3/positionRisk', null, 'on release');
    const reading = venue.account().then(
      () => 'read',
      (err: Error) => err.message,
    );
    for (let read = 1; read <= 3; read++) {
      await vi.waitFor(() => expect(arrived('/fapi/v3/positionRisk', from)).toBe(1));
      // A quarter of the order fills while the positions are read, and the market moves away again.
      t.fake.venue.partialFills(0.25, 1);
      t.fake.venue.setPrice('BTCUSDT', round(price - 2 * Number(btc.tickSize), 2));
      from = t.fake.requests.length;
      release();
      t.fake.venue.setPrice('BTCUSDT', null);
      if (read < 3) release = t.fake.holdNext('/fapi/v3/positionRisk', null, 'on release');
    }
    expect(await reading).toMatch(/changed during each of 3 reads/);
    // Three partial fills, one per read; the order still rests.
    expect(t.fake.venue.trades('BTCUSDT')).toHaveLength(3);
    expect(t.fake.venue.open('BTCUSDT')).toHaveLength(1);
  });
});
