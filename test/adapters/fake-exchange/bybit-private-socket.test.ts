/**
 * The fake's Bybit private WebSocket (/v5/private) and its Disconnect Cancel All (DCP), driven by an
 * unmodified ccxt pro `bybit` and, for the wire details, by a bare socket: `op: auth` with Bybit's
 * signature (HMAC of "GET/realtime" + expires), `op: ping` answered `op: pong`, the `order` topic
 * pushing our orders as ccxt parses them, and POST /v5/order/disconnected-cancel-all: once every
 * connection subscribed to `dcp.future` is gone for the window, the account's open orders are cancelled.
 */
import { createHmac } from 'node:crypto';
import type { Exchange } from 'ccxt';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BYBIT } from '../../../src/adapters/exchanges/bybit.js';
import { ccxtClient } from '../../support/fake-exchange/ccxt-client.js';
import { BYBIT_DIALECT } from '../../support/fake-exchange/dialects/bybit/index.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';
import { FAKE_CREDENTIALS, startFakeExchange } from '../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../support/fake-exchange/server.js';

const BTC = 'BTC/USDT:USDT';
const btc = instrumentById('BTCUSDT')!;

let fake: FakeExchange;
let offset = 0;
let ex: Exchange;

beforeAll(async () => {
  fake = await startFakeExchange({ dialect: BYBIT_DIALECT, deposit: 1_000_000, now: () => Date.now() + offset });
});

afterEach(async () => {
  await ex?.close();
  offset = 0;
  fake.reset();
});

afterAll(async () => {
  await fake.stop();
});

const client = () => {
  ex = ccxtClient(fake.url, { id: 'bybit', pro: true, options: BYBIT.clientOptions });
  return ex;
};

/** A resting buy far under the book: it stays open until something cancels it. */
async function restingOrder(exchange: Exchange, clientOrderId: string) {
  const price = Math.round(fake.venue.book(btc).bids[0]![0] * 0.9);
  return exchange.createOrder(BTC, 'limit', 'buy', 0.01, price, { clientOrderId });
}

const statusOf = (clientOrderId: string) =>
  fake.venue.allOrders().find((o) => o.clientOrderId === clientOrderId)?.status;

/** Moves the fake's clock on and lets it apply what that implies; ccxt's requests keep in step. */
function advance(ms: number) {
  offset += ms;
  if (ex) ex.options['timeDifference'] = Number(ex.options['timeDifference'] ?? 0) - ms;
  fake.venue.settle();
}

const until = async (check: () => boolean, ms = 2_000) => {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** A bare private connection: the origin's /v5/private, its messages collected. */
async function bare(): Promise<{ ws: WebSocket; got: Array<Record<string, unknown>> }> {
  const ws = new WebSocket(`${fake.url.replace(/^http/, 'ws')}/v5/private`);
  const got: Array<Record<string, unknown>> = [];
  ws.on('message', (data: Buffer) => got.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { ws, got };
}

function authArgs(secret = FAKE_CREDENTIALS.secret): [string, string, string] {
  const expires = String(Date.now() + offset + 10_000);
  const signature = createHmac('sha256', secret).update(`GET/realtime${expires}`).digest('hex');
  return [FAKE_CREDENTIALS.apiKey, expires, signature];
}

describe('the fake Bybit private WebSocket', () => {
  it('authenticates ccxt pro and pushes our orders on the order topic', async () => {
    const exchange = client();
    await exchange.loadMarkets();
    const pushed = exchange.watchOrders(BTC);
    await until(() => fake.privateSocket?.subscribed('order') === 1);
    await restingOrder(exchange, 'ours-1');
    const orders = await pushed;
    expect(orders.map((o) => [o.clientOrderId, o.status])).toContainEqual(['ours-1', 'open']);
  });

  it('answers auth, ping and subscribe in Bybit words, and refuses a bad signature', async () => {
    const { ws, got } = await bare();
    ws.send(JSON.stringify({ op: 'subscribe', req_id: '1', args: ['order'] }));
    ws.send(JSON.stringify({ op: 'auth', args: authArgs('not the secret') }));
    ws.send(JSON.stringify({ op: 'auth', args: authArgs() }));
    ws.send(JSON.stringify({ op: 'subscribe', req_id: '2', args: ['order', 'dcp.future'] }));
    ws.send(JSON.stringify({ req_id: '3', op: 'ping' }));
    await until(() => got.length === 5);
    ws.close();
    expect(got[0]).toMatchObject({ op: 'subscribe', req_id: '1', success: false });
    expect(got[1]).toMatchObject({ op: 'auth', success: false });
    expect(got[2]).toMatchObject({ op: 'auth', success: true, ret_msg: '' });
    expect(got[3]).toMatchObject({ op: 'subscribe', req_id: '2', success: true });
    expect(got[4]).toMatchObject({ op: 'pong', req_id: '3' });
  });

  it('cancels the open orders once the dcp.future connections are gone for the window, not before', async () => {
    const exchange = client();
    await exchange.loadMarkets();
    // ccxt's unified call: POST /v5/order/disconnected-cancel-all, timeWindow in seconds, product DERIVATIVES.
    expect(await exchange.cancelAllOrdersAfter(10_000)).toMatchObject({ retCode: 0 });
    const { ws } = await bare();
    ws.send(JSON.stringify({ op: 'auth', args: authArgs() }));
    ws.send(JSON.stringify({ op: 'subscribe', req_id: '1', args: ['dcp.future'] }));
    await until(() => fake.privateSocket?.subscribed('dcp.future') === 1);
    await restingOrder(exchange, 'dcp-1');
    fake.privateSocket!.drop();
    await until(() => fake.privateSocket?.subscribed('dcp.future') === 0);
    advance(9_000);
    expect(statusOf('dcp-1')).toBe('NEW');
    advance(1_000);
    expect(statusOf('dcp-1')).toBe('CANCELED');
  });

  it('cancels nothing when a dcp.future connection comes back within the window, or none ever subscribed', async () => {
    const exchange = client();
    await exchange.loadMarkets();
    await restingOrder(exchange, 'never-armed');
    const first = await bare();
    first.ws.send(JSON.stringify({ op: 'auth', args: authArgs() }));
    first.ws.send(JSON.stringify({ op: 'subscribe', req_id: '1', args: ['order'] }));
    await until(() => fake.privateSocket?.subscribed('order') === 1);
    first.ws.close();
    advance(60_000);
    expect(statusOf('never-armed')).toBe('NEW');

    await exchange.cancelAllOrdersAfter(10_000);
    const held = await bare();
    held.ws.send(JSON.stringify({ op: 'auth', args: authArgs() }));
    held.ws.send(JSON.stringify({ op: 'subscribe', req_id: '1', args: ['dcp.future'] }));
    await until(() => fake.privateSocket?.subscribed('dcp.future') === 1);
    await restingOrder(exchange, 'back-in-time');
    held.ws.close();
    await until(() => fake.privateSocket?.subscribed('dcp.future') === 0);
    advance(5_000);
    const back = await bare();
    back.ws.send(JSON.stringify({ op: 'auth', args: authArgs() }));
    back.ws.send(JSON.stringify({ op: 'subscribe', req_id: '1', args: ['dcp.future'] }));
    await until(() => fake.privateSocket?.subscribed('dcp.future') === 1);
    advance(60_000);
    back.ws.close();
    expect(statusOf('back-in-time')).toBe('NEW');
  });
});
