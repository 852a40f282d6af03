/**
 * The trading side of the kill-latency benchmark, run in a child process (the benchmark file with
 * TCS_BENCH_ROLE=kill-trader): on its own connection to the store, for each trial a fresh trading
 * system (killed is final) with real clock and timers, CYCLE_SECONDS=3600 so it idles,
 * ORDER_STYLE=passive, its first cycle settled and RESTING_ORDERS paper BUY limits at half the bid
 * resting; then it reports over IPC the moment its root is in control.killed (actor subscription)
 * AND its paper venue has no open orders (polled with setImmediate).
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createSyntheticFeed } from '../src/adapters/market-data/index.js';
import { openStore } from '../src/adapters/open-store.js';
import { signedWith } from '../test/support/control-secret.js';
import { floorToLot } from '../src/domain/market.js';
import { systemClock } from '../src/ports/clock.js';
import { createTradingSystem } from '../src/runtime/trading/trading-system.js';
import type { TradingSystem } from '../src/runtime/trading/trading-system.js';
import type { FromTrader, ToTrader } from './kill-inbox.js';
import { API_SYMBOLS, sendToParent } from './support.js';
import { benchTradingConfig, noopLines, silentLog } from './trading.js';

export const RESTING_ORDERS = 3;

async function traderChild(): Promise<void> {
  const url = process.env.STORE_URL;
  if (!url) throw new Error('STORE_URL is not set');
  const send = (message: FromTrader) => process.send?.(message);
  // The parent's test CONTROL_SECRET (inherited through the environment): the API's kill is signed.
  const store = signedWith(await openStore(url));
  const config = benchTradingConfig(url, { SYMBOLS: API_SYMBOLS, CYCLE_SECONDS: '3600', ORDER_STYLE: 'passive' });
  // Only for reference prices of the resting orders; the system has its own feed.
  const referenceFeed = createSyntheticFeed({
    instruments: config.instruments,
    seed: config.marketSeed,
    stepMs: 60_000,
  });
  let system: TradingSystem | null = null;

  const prepare = async (trial: number) => {
    if (system) await system.stop('benchmark trial over');
    system = null;
    const control = await store.control.read();
    if (control.state !== 'running')
      throw new Error(`trial ${trial}: the store is ${control.state}, expected running after resetKill`);
    const current = await createTradingSystem({
      config,
      store,
      lines: noopLines(),
      log: silentLog(),
      clock: systemClock,
    });
    system = current;
    await current.settled();
    const market = await referenceFeed.next(Date.now());
    for (const instrument of config.instruments.slice(0, RESTING_ORDERS)) {
      const snapshot = market.get(instrument.symbol)!;
      const limitPrice = floorToLot(snapshot.bid * 0.5, instrument.tickSize);
      const qty = Math.max(
        instrument.lotSize,
        floorToLot((instrument.minNotional * 4) / limitPrice, instrument.lotSize),
      );
      const { order } = await current.venue.submit(
        {
          clientOrderId: `bench-rest-${process.pid}-${trial}-${instrument.symbol}`,
          symbol: instrument.symbol,
          side: 'BUY',
          qty,
          type: 'limit',
          limitPrice,
          reduceOnly: false,
        },
        market,
      );
      if (order.status !== 'open')
        throw new Error(
          `trial ${trial}: resting order on ${instrument.symbol} is ${order.status} (${order.rejectReason ?? ''})`,
        );
    }
    const open = (await current.venue.openOrders()).length;
    arm(current, trial);
    send({ type: 'ready', trial, open });
  };

  /** Reports once the root is killed and the venue holds no open orders. */
  const arm = (current: TradingSystem, trial: number) => {
    let killedAt: number | null = null;
    const onKilled = async () => {
      for (;;) {
        if ((await current.venue.openOrders()).length === 0) break;
        await nextTurn();
      }
      send({
        type: 'done',
        trial,
        killedAtWallMs: performance.timeOrigin + killedAt!,
        killedToEmptyMs: performance.now() - killedAt!,
      });
    };
    const subscription = current.actor.subscribe((snapshot) => {
      if (killedAt !== null || !snapshot.matches({ control: 'killed' })) return;
      killedAt = performance.now();
      subscription.unsubscribe();
      onKilled().catch((err: unknown) => send({ type: 'error', message: String((err as Error).stack ?? err) }));
    });
  };

  process.on('message', (message: ToTrader) => {
    if (message.type === 'prepare') {
      prepare(message.trial).catch((err: unknown) =>
        send({ type: 'error', message: String((err as Error).stack ?? err) }),
      );
      return;
    }
    void (async () => {
      if (system) await system.stop('benchmark over');
      await store.close();
      process.exit(0);
    })();
  });
}

/** The child's entry: never outlives the parent (its IPC channel closes when the parent exits). */
export function runTraderChild(): void {
  process.on('disconnect', () => process.exit(0));
  traderChild().catch(async (err: unknown) => {
    await sendToParent({ type: 'error', message: String((err as Error).stack ?? err) } satisfies FromTrader);
    process.exit(1);
  });
}
