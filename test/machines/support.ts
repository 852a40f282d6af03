/**
 * Shared helpers for the machine tests: a collector actor to use as `replyTo`, deferred promises for
 * fake `fromPromise` actors, a flush that lets pending promise settlements reach the actors, and
 * small domain builders (a market, an account, orders and signed approvals) that pass every guard
 * with the default risk limits.
 */
import { barsFromCloses } from '../../src/domain/bars.js';
import { createActor, fromCallback } from 'xstate';
import type { AnyActorRef, EventObject } from 'xstate';
import type { Instrument, MarketSnapshot, MarketView } from '../../src/domain/market.js';
import type { ApprovedOrder, OrderRequest } from '../../src/domain/orders.js';

/** An actor that records every event it receives, in order. */
export interface Collector<E extends EventObject = EventObject> {
  ref: AnyActorRef;
  events: E[];
}

export function collector<E extends EventObject = EventObject>(): Collector<E> {
  const events: E[] = [];
  const ref = createActor(
    fromCallback<EventObject>(({ receive }) => {
      receive((event) => {
        events.push(event as E);
      });
    }),
  ).start();
  return { ref, events };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets settled promises (and the actor events they cause) run to completion. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
export const ETH: Instrument = { symbol: 'ETHUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.01, minNotional: 5 };
export const SOL: Instrument = { symbol: 'SOLUSDT', kind: 'spot', lotSize: 0.01, tickSize: 0.001, minNotional: 5 };

/** A liquid book around `last`: 10 levels of 10 on each side, 1000 traded. */
export function snapshot(symbol: string, last: number, overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  const step = last / 1000;
  return {
    symbol,
    ts: 1_700_000_000_000,
    last,
    bid: last - step,
    ask: last + step,
    bids: Array.from({ length: 10 }, (_, i) => ({ price: last - step * (i + 1), qty: 10 })),
    asks: Array.from({ length: 10 }, (_, i) => ({ price: last + step * (i + 1), qty: 10 })),
    bars: barsFromCloses([last]),
    volume: 1000,
    fundingRate: 0.0001,
    nextFundingTs: 1_700_000_000_000 + 3_600_000,
    ...overrides,
  };
}

export function marketView(...snapshots: MarketSnapshot[]): MarketView {
  return new Map(snapshots.map((s) => [s.symbol, s]));
}

// The same account and order builders as the risk tests.
export { account, order } from '../domain/risk/builders.js';
import { order } from '../domain/risk/builders.js';

/** An approval with a well-formed (but fake) token; the OMS machine never verifies tokens itself. */
export function approval(clientOrderId: string, overrides: Partial<OrderRequest> = {}): ApprovedOrder {
  return {
    order: order({ clientOrderId, ...overrides }),
    token: `hmac:${'ab'.repeat(32)}`,
    epoch: 1,
    expiresAt: 1_700_000_060_000,
  };
}
