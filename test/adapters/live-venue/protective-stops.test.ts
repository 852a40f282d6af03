/**
 * Stops that outlive the process (issue 32, item 4), on a real ccxt binanceusdm against the fake
 * exchange, whose Binance Algo Service stops (test/support/fake-exchange/algo-orders.ts) trigger on
 * the mark and are cancelled, in the fake's pessimistic reading, by an expired countdownCancelAll.
 * After an entry fills, a close-position STOP_MARKET rests at the wanted price; it moves with the
 * trailing stop, is cancelled when the position closes, is ours after a restart (kept, not placed
 * twice), and the dead-man's switch is never left armed over it.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../../src/adapters/live-venue/capabilities.js';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import type { LiveVenueOptions } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import type { RequestGate } from '../../../src/adapters/live-venue/request-gate.js';
import type { ExchangeStop } from '../../../src/domain/exchange-stops.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';

const btc = instrumentById('BTCUSDT')!;
const SYMBOLS = symbolMap([
  ['BTCUSDT', 'BTC/USDT:USDT'],
  ['ETHUSDT', 'ETH/USDT:USDT'],
]);
const NO_MARKET = new Map();

let t: TradingFake;
let clock = 0;
let shift = 0;
let gate: RequestGate;
let seq = 0;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000 });
  await t.exchange.loadMarkets();
  gate = gateRequests(t.exchange, { monotonic: () => clock + shift, now: () => clock });
});

beforeEach(async () => {
  t.reset();
  clock = 1_700_000_000_000;
  shift += 10_000_000;
  await t.exchange.fetchTime();
});

afterAll(async () => {
  await t.close();
});

/** A live venue that rests exchange stops, with the dead-man's switch armed at 180 s. */
function venueWith(options: Partial<LiveVenueOptions> = {}): LiveVenue {
  return new LiveVenue({
    exchange: t.exchange,
    errors: ccxt,
    gate,
    symbols: SYMBOLS,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    countdownMs: 180_000,
    armCountdown: CAPABILITIES.binanceusdm.countdown!(t.exchange),
    exchangeStops: true,
    ...options,
  });
}

async function buy(venue: LiveVenue, qty: number): Promise<void> {
  const result = await venue.submit(
    {
      clientOrderId: `ps-${++seq}`,
      symbol: 'BTCUSDT',
      side: 'BUY',
      qty,
      type: 'market',
      limitPrice: null,
      reduceOnly: false,
    },
    NO_MARKET,
  );
  expect(result.order.status).toBe('filled');
}

/** A stop `fraction` below the current mark for the long. */
function stopBelow(fraction: number): ExchangeStop {
  const mark = t.fake.venue.mark(btc);
  return { symbol: 'BTCUSDT', side: 'SELL', triggerPrice: mark * (1 - fraction), reason: 'stop_loss' };
}

const resting = () => t.fake.venue.algo.open('BTCUSDT');
const tick = (price: number) => Math.round(price / Number(btc.tickSize)) * Number(btc.tickSize);

describe('exchange stops on the fake exchange', () => {
  it('after an entry fills, a close-position STOP_MARKET on the mark rests at the stop price, under our prefix', async () => {
    const venue = venueWith();
    await venue.reconcile();
    await buy(venue, 0.01);
    const stop = stopBelow(0.02);
    await venue.protect([stop]);
    expect(resting()).toHaveLength(1);
    expect(resting()[0]).toMatchObject({
      side: 'SELL',
      closePosition: true,
      reduceOnly: true,
      workingType: 'MARK_PRICE',
      algoStatus: 'NEW',
    });
    expect(resting()[0]!.triggerPrice).toBeCloseTo(tick(stop.triggerPrice), 6);
    expect(resting()[0]!.clientAlgoId).toMatch(/^tcs-stop-/);
    // Protecting again with the same stop sends no new order.
    await venue.protect([stop]);
    expect(t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/algoOrder'))).toHaveLength(1);
  });

  it('moves with the trailing stop (the old one cancelled, one left) and is cancelled when the position closes', async () => {
    const venue = venueWith();
    await venue.reconcile();
    await buy(venue, 0.01);
    await venue.protect([stopBelow(0.03)]);
    const first = resting()[0]!;
    const moved = stopBelow(0.01);
    await venue.protect([moved]);
    expect(resting()).toHaveLength(1);
    expect(resting()[0]!.triggerPrice).toBeCloseTo(tick(moved.triggerPrice), 6);
    expect(t.fake.venue.algo.find('BTCUSDT', { algoId: first.algoId })!.algoStatus).toBe('CANCELED');
    await venue.protect([]);
    expect(resting()).toEqual([]);
  });

  it('a restart recognises the stop as ours: reconciliation leaves it, the same stop is not placed twice', async () => {
    const before = venueWith();
    await before.reconcile();
    await buy(before, 0.01);
    const stop = stopBelow(0.02);
    await before.protect([stop]);
    const placed = resting()[0]!;
    // A new process on the same account: nothing remembered.
    const after = venueWith();
    const found = await after.reconcile();
    expect(found.foreignCancelled).toEqual([]);
    await after.armCountdowns();
    await after.protect([stop]);
    expect(resting().map((o) => o.algoId)).toEqual([placed.algoId]);
  });

  it("the dead-man's switch is not left armed over a resting stop: a process that dies leaves the stop", async () => {
    const venue = venueWith();
    await venue.reconcile();
    await venue.onMarket(NO_MARKET); // armed for both symbols
    await buy(venue, 0.01);
    await venue.protect([stopBelow(0.02)]);
    await venue.onMarket(NO_MARKET); // the next cycle: BTCUSDT holds a stop
    // Disarmed where the stop rests; still armed where nothing of ours is protected.
    expect(t.fake.venue.countdowns.deadline('BTCUSDT')).toBeNull();
    expect(t.fake.venue.countdowns.deadline('ETHUSDT')).not.toBeNull();
    // The process dies: nothing re-arms. Far past the countdown, the stop still rests.
    t.advance(600_000);
    expect(resting()).toHaveLength(1);
  });

  it('a ban leaves the resting stop: moving it fails (told to the caller), nothing is cancelled', async () => {
    const venue = venueWith();
    await venue.reconcile();
    await buy(venue, 0.01);
    await venue.protect([stopBelow(0.03)]);
    const before = resting().map((o) => [o.algoId, o.triggerPrice]);
    t.fake.faults.ban(1_000, 600);
    await expect(venue.protect([stopBelow(0.01)])).rejects.toThrow();
    await expect(venue.protect([])).rejects.toThrow();
    t.fake.faults.ban(0);
    expect(resting().map((o) => [o.algoId, o.triggerPrice])).toEqual(before);
  });

  it('when the mark crosses it, the exchange closes the position reduce-only, with no process', async () => {
    const venue = venueWith();
    await venue.reconcile();
    await buy(venue, 0.01);
    await venue.protect([stopBelow(0.02)]);
    t.fake.venue.setPrice('BTCUSDT', t.fake.venue.mark(btc) * 0.95);
    t.advance(1_000);
    expect(t.fake.venue.ledger.position('BTCUSDT').qty).toBe(0);
    expect(resting()).toEqual([]);
  });

  it('a stop the exchange triggered is reported by the next onMarket as fills (once), and is no drift', async () => {
    const venue = venueWith();
    await venue.reconcile();
    await buy(venue, 0.01);
    await venue.protect([stopBelow(0.02)]);
    t.fake.venue.setPrice('BTCUSDT', t.fake.venue.mark(btc) * 0.95);
    t.advance(1_000);
    const update = await venue.onMarket(NO_MARKET);
    expect(update.fills.map((f) => [f.symbol, f.side, f.qty])).toEqual([['BTCUSDT', 'SELL', 0.01]]);
    expect(update.fills[0]!.clientOrderId).toMatch(/^tcs-stop-/);
    expect(venue.positionDrift()).toEqual([]);
    expect((await venue.onMarket(NO_MARKET)).fills).toEqual([]);
  });

  it('the countdown is sent once per about half of it, not every cycle, and at once when a stop starts or stops resting', async () => {
    // The venue's monotonic clock moves with the exchange's: 60 s cycles under a 180 s countdown.
    let mono = 0;
    const venue = venueWith({ monotonic: () => mono });
    const cycle = async () => {
      mono += 60_000;
      t.advance(60_000);
      await venue.onMarket(NO_MARKET);
    };
    const arms = (symbol: string) => t.fake.venue.countdowns.calls.filter((c) => c.symbol === symbol);
    await venue.reconcile();
    await venue.onMarket(NO_MARKET);
    expect(arms('ETHUSDT')).toHaveLength(1);
    // 60 s on, 120 s remain (more than half): nothing sent; 120 s on, 60 s remain: re-armed.
    await cycle();
    expect(arms('ETHUSDT')).toHaveLength(1);
    await cycle();
    expect(arms('ETHUSDT')).toHaveLength(2);
    await cycle();
    await cycle();
    expect(arms('ETHUSDT')).toHaveLength(3);
    expect(t.fake.venue.countdowns.deadline('ETHUSDT')).not.toBeNull();
    // A stop starts resting on BTCUSDT: disarmed at once (within protect), and not sent again each cycle.
    await buy(venue, 0.01);
    const before = arms('BTCUSDT').length;
    await venue.protect([stopBelow(0.02)]);
    expect(arms('BTCUSDT')).toHaveLength(before + 1);
    expect(t.fake.venue.countdowns.deadline('BTCUSDT')).toBeNull();
    await cycle();
    await cycle();
    await cycle();
    expect(arms('BTCUSDT')).toHaveLength(before + 1);
    // The stop stops resting (the position closed): armed at once.
    await venue.protect([]);
    expect(arms('BTCUSDT')).toHaveLength(before + 2);
    expect(t.fake.venue.countdowns.deadline('BTCUSDT')).not.toBeNull();
  });
});
