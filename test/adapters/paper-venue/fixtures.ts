/**
 * Shared fixtures for the paper venue tests: two hand-sized instruments (a perp and a spot pair
 * with round lot and tick sizes so expected numbers can be worked out by hand), a snapshot
 * builder, a settable clock and a venue opener over the in-memory store.
 */
import { barsFromCloses } from '../../../src/domain/bars.js';
import type { BookLevel, Instrument, MarketSnapshot, MarketView } from '../../../src/domain/market.js';
import type { OrderRequest } from '../../../src/domain/orders.js';
import { openPaperVenue } from '../../../src/adapters/paper-venue/index.js';
import type { PaperVenueConfigInput } from '../../../src/adapters/paper-venue/index.js';
import type { Venue } from '../../../src/ports/venue.js';
import { createMemoryKv } from '../../support/memory-kv.js';
import type { MemoryKeyValueStore } from '../../support/memory-kv.js';
import { openTestStore } from '../../support/stores.js';
import type { Store } from '../../../src/ports/store.js';

export const PERP: Instrument = { symbol: 'TESTUSDT', kind: 'perp', lotSize: 0.01, tickSize: 0.01, minNotional: 5 };
export const SPOT: Instrument = { symbol: 'COINUSDT', kind: 'spot', lotSize: 0.01, tickSize: 0.01, minNotional: 5 };
export const INSTRUMENTS: readonly Instrument[] = [PERP, SPOT];

export interface SnapshotInput {
  symbol?: string;
  bid: number;
  ask: number;
  bids?: BookLevel[];
  asks?: BookLevel[];
  ts?: number;
  fundingRate?: number | null;
  nextFundingTs?: number | null;
}

/** A snapshot with deep single levels unless books are given; perp funding off unless given. */
export function snapshot(input: SnapshotInput): MarketSnapshot {
  const symbol = input.symbol ?? PERP.symbol;
  const isSpot = symbol === SPOT.symbol;
  const last = (input.bid + input.ask) / 2;
  return {
    symbol,
    ts: input.ts ?? 0,
    last,
    bid: input.bid,
    ask: input.ask,
    bids: input.bids ?? [{ price: input.bid, qty: 1_000 }],
    asks: input.asks ?? [{ price: input.ask, qty: 1_000 }],
    bars: barsFromCloses([last]),
    volume: 10_000,
    fundingRate: isSpot ? null : (input.fundingRate ?? 0),
    nextFundingTs: isSpot ? null : (input.nextFundingTs ?? null),
  };
}

export function view(...snapshots: MarketSnapshot[]): MarketView {
  return new Map(snapshots.map((s) => [s.symbol, s]));
}

let counter = 0;
/** A market order request; override any field. */
export function order(fields: Partial<OrderRequest> & Pick<OrderRequest, 'side' | 'qty'>): OrderRequest {
  counter += 1;
  return {
    clientOrderId: `t-${counter}`,
    symbol: PERP.symbol,
    type: 'market',
    limitPrice: null,
    reduceOnly: false,
    ...fields,
  };
}

export interface TestClock {
  now(): number;
  set(ms: number): void;
}

export function testClock(start = 1_700_000_000_000): TestClock {
  let t = start;
  return { now: () => t, set: (ms) => (t = ms) };
}

export interface Harness {
  kv: MemoryKeyValueStore;
  clock: TestClock;
  venue: Venue;
  /** Opens another venue on the same store, as a restarted process would. */
  reopen(config?: PaperVenueConfigInput): Promise<Venue>;
}

export async function openHarness(config?: PaperVenueConfigInput): Promise<Harness> {
  const kv = createMemoryKv();
  const clock = testClock();
  const venue = await openPaperVenue({ kv, instruments: INSTRUMENTS, clock, config });
  return {
    kv,
    clock,
    venue,
    reopen: (c) => openPaperVenue({ kv, instruments: INSTRUMENTS, clock, config: c ?? config }),
  };
}

export interface StoreHarness {
  store: Store;
  clock: TestClock;
  venue: Venue;
  /** Opens another venue on the same store, as a restarted process would. */
  reopen(config?: PaperVenueConfigInput): Promise<Venue>;
  cleanup(): Promise<void>;
}

/** The venue over a real SQLite store (test/support), as the trading process opens it. */
export async function openStoreHarness(config?: PaperVenueConfigInput): Promise<StoreHarness> {
  const testStore = await openTestStore('sqlite');
  const { store } = testStore;
  const clock = testClock();
  const open = (c?: PaperVenueConfigInput) =>
    openPaperVenue({ kv: store.kv, instruments: INSTRUMENTS, clock, config: c });
  return {
    store,
    clock,
    venue: await open(config),
    reopen: (c) => open(c ?? config),
    cleanup: () => testStore.cleanup(),
  };
}
