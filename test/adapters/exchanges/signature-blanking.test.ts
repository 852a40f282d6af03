/**
 * A failed signed request's error names its URL (ccxt writes it into the message), and with it the
 * request's signature: the one opener blanks it before the error goes anywhere (a log line), for
 * every exchange by its profile's `signatureInUrl`. Driven against the fake exchange with its answers
 * withheld, so the request times out as it would on a silent exchange.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLiveExchange } from '../../../src/adapters/exchanges/open-exchange.js';
import { FAKE_CREDENTIALS, startFakeExchange } from '../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../support/fake-exchange/server.js';

let fake: FakeExchange;

beforeAll(async () => {
  fake = await startFakeExchange();
});

afterAll(async () => {
  await fake.stop();
});

it('a signed request that timed out is an error whose URL carries no signature, and never the secret', async () => {
  const { exchange } = await openLiveExchange(
    { exchange: 'binanceusdm', testnet: false, url: fake.url },
    FAKE_CREDENTIALS,
    { timeoutMs: 300, rateLimitMs: 1 },
  );
  await exchange.loadMarkets();
  fake.hang();
  const failed = await exchange.fetchOpenOrders('BTC/USDT:USDT').then(
    () => null,
    (err: unknown) => err as Error,
  );
  expect(failed).toBeInstanceOf(Error);
  expect(failed!.message).toMatch(/signature=<blank>/);
  expect(`${failed!.message}\n${failed!.stack ?? ''}`).not.toMatch(/signature=[0-9a-f]/);
  expect(`${failed!.message}\n${failed!.stack ?? ''}`).not.toContain(FAKE_CREDENTIALS.secret);
  await exchange.close();
});
