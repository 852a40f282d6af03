/**
 * The Venue contract (./venue.contract.ts) on the live venue (src/adapters/live-venue/) driving a real,
 * unmodified ccxt client against the loopback fake exchange speaking one exchange's dialect
 * (test/support/fake-exchange/), built as the trading process builds it: one request gate, the
 * exchange's dead-man's switch (its profile's, armed at 180 s) when it has one, exchange stops on.
 * Time is the test's: the venue's sleeps move its clock, `advance` moves the exchange's with it. One
 * runner per exchange calls this with what differs: the dialect, the capabilities it makes, its
 * refusal words and its order path.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll } from 'vitest';
import type { ExchangeProfile } from '../../src/adapters/exchanges/profile.js';
import { exchangeProfile } from '../../src/adapters/exchanges/registry.js';
import { toContracts } from '../../src/adapters/exchanges/contract-units.js';
import { tradedSymbols } from '../../src/adapters/live-venue/ccxt-mapping.js';
import type { SymbolMap } from '../../src/adapters/live-venue/ccxt-mapping.js';
import { exchangeClientId } from '../../src/adapters/live-venue/client-ids.js';
import { DisconnectGuard } from '../../src/adapters/live-venue/disconnect-guard.js';
import { LiveVenue } from '../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../src/adapters/live-venue/request-gate.js';
import type { RequestGate } from '../../src/adapters/live-venue/request-gate.js';
import type { Side } from '../../src/domain/orders.js';
import { roundToStep } from '../../src/domain/steps.js';
import { ccxtClient, openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { Dialect } from '../support/fake-exchange/dialect.js';
import { instrumentById } from '../support/fake-exchange/market-data.js';
import { venueContract } from './venue.contract.js';
import type { ContractInstrument, VenueContractSetup } from './venue.contract.js';

export interface LiveVenueContractRun {
  name: string;
  /** The fake's dialect (Binance's when absent). */
  dialect?: Dialect;
  capabilities: VenueContractSetup['capabilities'];
  refusals: VenueContractSetup['refusals'];
  /** The path an order is created on (a lost acknowledgement is an answer never sent there). */
  createPath: string;
  /** What the exchange trades (perpetuals unless told): spot pairs are BTC/USDT in ccxt, perpetuals BTC/USDT:USDT. */
  kind?: 'perp' | 'spot';
  /** The fake's fees (its default: Binance USDⓈ-M's). */
  fees?: { maker: number; taker: number };
}

const BTC: ContractInstrument = { symbol: 'BTCUSDT', lotSize: 0.001, tickSize: 0.1, minNotional: 100 };
const ETH: ContractInstrument = { symbol: 'ETHUSDT', lotSize: 0.001, tickSize: 0.01, minNotional: 20 };
const COUNTDOWN_MS = 180_000;
const NO_MARKET = new Map();

/** Runs the Venue contract on the live venue against the fake speaking `run.dialect`. */
export function liveVenueContract(run: LiveVenueContractRun): void {
  // Resolved from the loaded markets, as the trading process does: with each market's contract size
  // (OKX's BTC-USDT-SWAP is 0.01 BTC a contract), which every amount crossing ccxt goes through.
  let SYMBOLS: SymbolMap;
  let t: TradingFake;
  let gate: RequestGate;
  let clock = 0;
  /** Moved on for every venue, so a hold an earlier test left has passed (the wall clock starts over). */
  let shift = 0;

  beforeAll(async () => {
    t = await openTradingFake({
      deposit: 100_000,
      ...(run.dialect ? { dialect: run.dialect } : {}),
      ...(run.fees ? { fees: run.fees } : {}),
    });
    await t.exchange.loadMarkets();
    SYMBOLS = tradedSymbols(run.kind === 'spot' ? 'spot' : 'swap', t.exchange.markets ?? {}, [BTC.symbol, ETH.symbol]);
    gate = gateRequests(t.exchange, { monotonic: () => clock + shift, now: () => clock });
  });

  afterAll(async () => {
    await t.close();
  });

  const tickOf = (symbol: string): number => (symbol === BTC.symbol ? BTC.tickSize : ETH.tickSize);
  const fakeInstrument = (symbol: string) => instrumentById(symbol)!;

  /** The held switch's connection of the previous test's venue, let go before the next one opens. */
  let letGoPrevious: () => Promise<void> = async () => {};

  venueContract(run.name, {
    // A held switch (Bybit's DCP) wherever the exchange's profile holds one.
    capabilities: {
      ...run.capabilities,
      heldSwitch: !!exchangeProfile(run.dialect?.id ?? 'binanceusdm').disconnectCancel,
    },
    instruments: [BTC, ETH],
    ...(run.kind ? { kind: run.kind } : {}),
    refusals: run.refusals,
    async open() {
      await letGoPrevious();
      t.reset();
      t.exchange.timeout = 2_000;
      clock = 1_700_000_000_000;
      shift += 10_000_000;
      await t.exchange.fetchTime(); // an answer: no hold an earlier test left stands
      const profile = exchangeProfile(String(t.exchange.id));
      const countdown = profile.deadMansSwitch;
      // At most what the exchange takes (OKX's 120 s), as the trading process arms it.
      const countdownMs = Math.min(COUNTDOWN_MS, profile.deadMansSwitchMaxMs ?? Infinity);
      const held = await holdSwitch(t, profile, () => clock);
      letGoPrevious = held?.letGo ?? (async () => {});
      const venue = new LiveVenue({
        exchange: t.exchange,
        errors: ccxt,
        gate,
        symbols: SYMBOLS,
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
        },
        recvWindowMs: 10_000,
        lookupIntervalMs: 1_000,
        ...(countdown ? { countdownMs, armCountdown: countdown(t.exchange) } : {}),
        exchangeStops: true,
        ...(held ? { disconnectSwitch: held.venue } : {}),
      });
      const advance = async (ms: number) => {
        clock += ms;
        t.advance(ms);
      };
      return {
        venue,
        market: () => NO_MARKET,
        quotes(symbol: string) {
          const book = t.fake.venue.book(fakeInstrument(symbol));
          return { bid: book.bids[0]![0], ask: book.asks[0]![0] };
        },
        async cross(symbol: string, side: Side, price: number, qty: number) {
          const resting = t.fake.venue.open(symbol).find((o) => o.price === price && o.side === side);
          const left = resting ? resting.origQty - resting.executedQty : qty;
          if (qty < left) t.fake.venue.partialFills(qty / left, 1);
          const tick = tickOf(symbol);
          t.fake.venue.setPrice(symbol, roundToStep(side === 'BUY' ? price - 2 * tick : price + 2 * tick, tick));
          t.fake.venue.settle();
          // Back to the deterministic market, so the match happens once, as one update's crossing does.
          t.fake.venue.setPrice(symbol, null);
        },
        async moveTo(symbol: string, mid: number) {
          t.fake.venue.setPrice(symbol, roundToStep(mid, tickOf(symbol)));
          await advance(1_000);
        },
        advance,
        async foreignOrder(symbol: string, side: Side, qty: number, price: number) {
          // Letters and digits: a client id every exchange accepts (OKX takes nothing else).
          const id = `byhand${Math.round(clock % 1_000_000)}`;
          // A person at the exchange's own screen orders in contracts.
          const contracts = toContracts(qty, SYMBOLS.contractSize(symbol));
          await t.exchange.createOrder(
            SYMBOLS.unified(symbol),
            'limit',
            side === 'BUY' ? 'buy' : 'sell',
            contracts,
            price,
            {
              clientOrderId: id,
            },
          );
          return id;
        },
        async changePosition(symbol: string, qty: number) {
          t.fake.venue.setPosition(symbol, qty);
        },
        loseNextAcknowledgement() {
          // Loopback answers in milliseconds: the lost answer is given up on after 300 ms. ccxt arms
          // its timer as a request starts, so once the withheld request has arrived the look-ups that
          // follow get 2 s again (300 ms was too short for them on a loaded machine).
          t.fake.faults.neverAnswer('POST', run.createPath, 1, () => {
            t.exchange.timeout = 2_000;
          });
          t.exchange.timeout = 300;
        },
        rateLimitNext(retryAfterSeconds: number) {
          t.fake.rateLimit(1, retryAfterSeconds);
        },
        requestsSent: () => t.fake.calls.length,
        // Under the exchange's own id rule (OKX's ids are letters and digits: ours are hashed differently).
        placedUnder: (clientOrderId: string) =>
          t.fake.venue.placedUnder(
            exchangeClientId(clientOrderId, exchangeProfile(String(t.exchange.id)).clientOrderId),
          ).length,
        deadMansSwitchMs: countdown ? countdownMs : 0,
        ...(held ? { heldSwitchMs: held.windowMs, letGo: held.letGo } : {}),
        async close() {
          t.exchange.timeout = 2_000;
        },
      };
    },
  });
}

/**
 * The profile's held switch (Bybit's DCP), held as the trading process holds it
 * (src/runtime/trading/live-disconnect-switch.ts): its window set, one connection made by a ccxt pro
 * client of its own and kept by the guard; `letGo` ends it as a dying process does. Null: none.
 */
async function holdSwitch(t: TradingFake, profile: ExchangeProfile, monotonic: () => number) {
  const held = profile.disconnectCancel;
  if (!held) return null;
  const pro = ccxtClient(t.fake.url, { id: profile.id, pro: true, options: profile.clientOptions });
  pro.options['timeDifference'] = t.exchange.options['timeDifference'];
  await held.setWindow(pro, held.windowMs);
  const guard = new DisconnectGuard({
    connect: () => held.connect(pro),
    monotonic,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))),
    maxBackoffMs: held.windowMs / 4,
    report: () => {},
  });
  await guard.open();
  const socket = t.fake.privateSocket!;
  return {
    windowMs: held.windowMs,
    venue: { graceMs: held.windowMs / 2, down: () => guard.down(), stop: () => guard.stop() },
    async letGo() {
      guard.stop();
      await pro.close();
      await guard.ended;
      // Gone on the exchange's side too before its clock moves (the close travels over loopback).
      while (socket.subscribed('dcp.future') > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}
