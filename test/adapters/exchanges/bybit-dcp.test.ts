/**
 * Bybit's DCP as the profile speaks it (BYBIT_DCP), held by the disconnect guard through an
 * unmodified ccxt pro `bybit` against the fake's Bybit dialect: the window is set by POST
 * /v5/order/disconnected-cancel-all, the connection authenticates and subscribes to `dcp.future`; a
 * dropped connection is down at once and made again; once the process lets go (the client closed)
 * the fake cancels the resting orders after the window, not before.
 */
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYBIT, BYBIT_DCP } from '../../../src/adapters/exchanges/bybit.js';
import { DisconnectGuard } from '../../../src/adapters/live-venue/disconnect-guard.js';
import { ccxtClient } from '../../support/fake-exchange/ccxt-client.js';
import { BYBIT_DIALECT } from '../../support/fake-exchange/dialects/bybit/index.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';
import { startFakeExchange } from '../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../support/fake-exchange/server.js';

const BTC = 'BTC/USDT:USDT';
const btc = instrumentById('BTCUSDT')!;

let fake: FakeExchange;
let offset = 0;

beforeAll(async () => {
  fake = await startFakeExchange({ dialect: BYBIT_DIALECT, deposit: 1_000_000, now: () => Date.now() + offset });
});

afterAll(async () => {
  await fake.stop();
});

const until = async (check: () => boolean, ms = 5_000) => {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("Bybit's DCP through the profile and the disconnect guard", () => {
  it('holds dcp.future, reconnects after a drop, and the fake cancels after the window once the client is gone', async () => {
    const exchange: Exchange = ccxtClient(fake.url, { id: 'bybit', pro: true, options: BYBIT.clientOptions });
    await exchange.loadMarkets();
    await BYBIT_DCP.setWindow(exchange, BYBIT_DCP.windowMs);
    const changes: string[] = [];
    const guard = new DisconnectGuard({
      connect: () => BYBIT_DCP.connect(exchange),
      monotonic: () => performance.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      maxBackoffMs: BYBIT_DCP.windowMs / 4,
      report: (c) => changes.push(c.up ? 'up' : 'down'),
    });
    await guard.open();
    await until(() => fake.privateSocket!.subscribed('dcp.future') === 1);

    fake.privateSocket!.drop();
    await until(() => guard.down() !== null);
    // Back within the first backoff (1 s), subscribed again: the window never ran out.
    await until(() => guard.down() === null && fake.privateSocket!.subscribed('dcp.future') === 1);
    expect(changes).toEqual(['up', 'down', 'up']);

    const price = Math.round(fake.venue.book(btc).bids[0]![0] * 0.9);
    await exchange.createOrder(BTC, 'limit', 'buy', 0.01, price, { clientOrderId: 'dcp-held' });
    const status = () => fake.venue.allOrders().find((o) => o.clientOrderId === 'dcp-held')?.status;

    // The process lets go: the guard stops, the client closes its connection.
    guard.stop();
    await exchange.close();
    await guard.ended;
    await until(() => fake.privateSocket!.subscribed('dcp.future') === 0);
    offset += BYBIT_DCP.windowMs - 1_000;
    fake.venue.settle();
    expect(status()).toBe('NEW');
    offset += 1_000;
    fake.venue.settle();
    expect(status()).toBe('CANCELED');
    offset = 0;
  });
});
