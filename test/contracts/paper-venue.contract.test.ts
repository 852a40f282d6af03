/**
 * The Venue contract (./venue.contract.ts) on the paper venue (src/adapters/paper-venue/) over an
 * in-memory store: the market is the snapshots the runner builds (a fixed mid per symbol, one tick
 * either side, deep books), and a crossing is one update whose book holds just the quantity to fill.
 * The paper venue has no world behind its back, no acknowledgement to lose, no stops of its own, no
 * countdown and no rate limit: those promises are the live venue's.
 */
import { barsFromCloses } from '../../src/domain/bars.js';
import type { Instrument, MarketSnapshot, MarketView } from '../../src/domain/market.js';
import type { Side } from '../../src/domain/orders.js';
import { roundToStep } from '../../src/domain/steps.js';
import { openPaperVenue } from '../../src/adapters/paper-venue/index.js';
import { createMemoryKv } from '../support/memory-kv.js';
import { venueContract } from './venue.contract.js';
import type { ContractInstrument } from './venue.contract.js';

/** The same grids as the fake exchange's BTCUSDT and ETHUSDT, so both runners trade the same sizes. */
const BTC: ContractInstrument = { symbol: 'BTCUSDT', lotSize: 0.001, tickSize: 0.1, minNotional: 100 };
const ETH: ContractInstrument = { symbol: 'ETHUSDT', lotSize: 0.001, tickSize: 0.01, minNotional: 20 };
const MIDS: Record<string, number> = { BTCUSDT: 60_000, ETHUSDT: 3_000 };
const instruments: Instrument[] = [BTC, ETH].map((i) => ({ ...i, kind: 'perp' }));
const tickOf = (symbol: string): number => (symbol === BTC.symbol ? BTC.tickSize : ETH.tickSize);

function snapshot(symbol: string, bid: number, ask: number, bidQty = 1_000, askQty = 1_000): MarketSnapshot {
  const last = (bid + ask) / 2;
  return {
    symbol,
    ts: 0,
    last,
    bid,
    ask,
    bids: [{ price: bid, qty: bidQty }],
    asks: [{ price: ask, qty: askQty }],
    bars: barsFromCloses([last]),
    volume: 10_000,
    fundingRate: 0,
    nextFundingTs: null,
  };
}

venueContract('paper venue', {
  capabilities: {
    foreignOrders: false,
    lostAcknowledgements: false,
    protectiveStops: false,
    deadMansSwitch: false,
    rateLimits: false,
    postOnly: true,
  },
  instruments: [BTC, ETH],
  refusals: {
    margin: /^INSUFFICIENT_MARGIN/,
    reduceOnly: /^reduce-only .* flat/,
    minimum: /below the minimum/,
    postOnly: /^POST_ONLY_WOULD_CROSS/,
    rateLimited: /^RATE_LIMITED/,
  },
  async open() {
    let now = 1_700_000_000_000;
    const mids = new Map(Object.entries(MIDS));
    /** A crossing shown for one market update, then the market is back where it was. */
    const once = new Map<string, MarketSnapshot>();
    const quotes = (symbol: string) => {
      const tick = tickOf(symbol);
      const mid = mids.get(symbol)!;
      return { bid: roundToStep(mid - tick, tick), ask: roundToStep(mid + tick, tick) };
    };
    const venue = await openPaperVenue({ kv: createMemoryKv(), instruments, clock: { now: () => now } });
    return {
      venue,
      quotes,
      market(): MarketView {
        const view = new Map<string, MarketSnapshot>();
        for (const symbol of mids.keys()) {
          const { bid, ask } = quotes(symbol);
          view.set(symbol, once.get(symbol) ?? snapshot(symbol, bid, ask));
        }
        once.clear();
        return view;
      },
      async cross(symbol: string, side: Side, price: number, qty: number) {
        const tick = tickOf(symbol);
        // A resting BUY fills against asks at or below its limit; a SELL against bids at or above.
        once.set(
          symbol,
          side === 'BUY'
            ? snapshot(symbol, roundToStep(price - tick, tick), price, 1_000, qty)
            : snapshot(symbol, price, roundToStep(price + tick, tick), qty, 1_000),
        );
      },
      async moveTo(symbol: string, mid: number) {
        mids.set(symbol, roundToStep(mid, tickOf(symbol)));
      },
      async advance(ms: number) {
        now += ms;
      },
      async close() {},
    };
  },
});
