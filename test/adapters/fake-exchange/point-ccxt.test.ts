/**
 * Pointing ccxt's binanceusdm at the fake through its transport: mainnet, the futures testnet
 * (setSandboxMode) and demo trading all reach the fake, each under the host ccxt meant; ccxt's own
 * refusal of the futures testnet still stands; and its USDⓈ-M error table still applies — which a
 * `urls.api` rewrite (src/adapters/market-data/live/exchange.ts) loses.
 */
import ccxt from 'ccxt';
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pointExchangeAt } from '../../../src/adapters/market-data/live/exchange.js';
import { ccxtClient } from '../../support/fake-exchange/ccxt-client.js';
import { pointCcxtAt } from '../../../src/adapters/live-venue/point-ccxt.js';
import { FAKE_CREDENTIALS, startFakeExchange } from '../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../support/fake-exchange/server.js';

let fake: FakeExchange;
let mainnet: Exchange;
let sandbox: Exchange;

beforeAll(async () => {
  fake = await startFakeExchange();
  mainnet = ccxtClient(fake.url);
  sandbox = ccxtClient(fake.url);
});

beforeEach(() => fake.reset());

afterAll(async () => {
  await Promise.all([mainnet.close(), sandbox.close()]);
  await fake.stop();
});

const calls = () => fake.calls.map((c) => `${c.method} ${c.host} ${c.url.split('?')[0]}`);
/** Every WebSocket URL string under a ccxt `urls.api.ws` tree, in a fixed order. */
function wsUrls(tree: unknown): string[] {
  if (typeof tree === 'string') return tree.startsWith('ws') ? [tree] : [];
  if (tree && typeof tree === 'object')
    return Object.keys(tree)
      .sort()
      .flatMap((k) => wsUrls((tree as Record<string, unknown>)[k]));
  return [];
}
const notional = (e: Exchange) => e.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.001);

describe('pointCcxtAt', () => {
  it('reaches the fake as mainnet; loading markets with keys set also reads two spot (sapi) lists', async () => {
    await mainnet.loadMarkets();
    // The two coin-list calls go out together, before the markets.
    expect(calls().sort()).toEqual([
      'GET api.binance.com /sapi/v1/capital/config/getall',
      'GET api.binance.com /sapi/v1/margin/allPairs',
      'GET fapi.binance.com /fapi/v1/exchangeInfo',
    ]);
    expect(mainnet.market('BTC/USDT:USDT').limits.amount?.min).toBe(0.001);
  });

  it("keeps ccxt's refusal of the futures testnet; once waived, reaches the fake as the testnet, then as demo", async () => {
    sandbox.setSandboxMode(true);
    await expect(sandbox.fetchBalance()).rejects.toMatchObject({
      name: 'NotSupported',
      message: expect.stringContaining('testnet/sandbox mode is not supported for futures anymore'),
    });
    sandbox.options['disableFuturesSandboxWarning'] = true;
    expect((await sandbox.fetchBalance()).USDT!.total).toBe(10_000);
    expect(calls()).toEqual([
      'GET testnet.binancefuture.com /fapi/v1/exchangeInfo', // no sapi calls in sandbox mode
      'GET testnet.binancefuture.com /fapi/v3/account',
    ]);

    sandbox.setSandboxMode(false);
    sandbox.enableDemoTrading(true);
    await sandbox.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01, undefined, { clientOrderId: 'demo-1' });
    expect(calls().at(-1)).toBe('POST demo-fapi.binance.com /fapi/v1/order');
  });

  it("keeps ccxt's USDⓈ-M error table, which rewriting urls.api loses", async () => {
    const rewritten = new ccxt.binanceusdm({ ...FAKE_CREDENTIALS, enableRateLimit: true, rateLimit: 1 });
    pointExchangeAt(rewritten, fake.url);
    rewritten.setMarkets(await mainnet.loadMarkets());
    await expect(notional(mainnet)).rejects.toMatchObject({
      name: 'InvalidOrder',
      message: expect.stringContaining('-4164'),
    });
    await expect(notional(rewritten)).rejects.toMatchObject({
      name: 'ExchangeError',
      message: expect.stringContaining('-4164'),
    });
    await rewritten.close();
  });

  it("points every WebSocket URL of a ccxt pro client at the same origin, ws:// for http://, each keeping its path, whatever the exchange's layout", () => {
    // Binance keeps its futures stream under `future`, Bybit its private one under `private.contract`,
    // OKX one URL as the whole of `ws`: no key is known here, every URL is rewritten.
    const origin = new URL(fake.url).origin.replace(/^http/, 'ws');
    for (const id of ['binanceusdm', 'bybit', 'okx', 'bitget'] as const) {
      const pro = new (ccxt.pro as unknown as Record<string, new () => Exchange>)[id]!();
      const before = wsUrls((pro.urls.api as { ws?: unknown }).ws);
      pointCcxtAt(pro, fake.url);
      const after = wsUrls((pro.urls.api as { ws?: unknown }).ws);
      expect(after.length, id).toBe(before.length);
      expect(after.length, id).toBeGreaterThan(0);
      after.forEach((url, i) => {
        expect(url, id).toBe(origin + new URL(before[i]!.replace('{hostname}', 'x')).pathname);
      });
      expect((pro as unknown as { httpAgent?: unknown }).httpAgent, id).toBeDefined();
    }
  });

  it("must come before the exchange's first request", async () => {
    await mainnet.loadMarkets();
    expect(() => pointCcxtAt(mainnet, fake.url)).toThrow(/before the exchange sends its first request/);
  });
});
