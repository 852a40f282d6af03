/**
 * A real ccxt `binanceusdm` with keys, pointed at a fake exchange whose clock the test steps: the
 * fake's time starts at `start` (a minute boundary plus a second by default, so the book stays the
 * same minute's for a test's length) and flows with real time; `advance(ms)` moves it on and keeps
 * ccxt's request timestamps in step (its `timeDifference`), as a client synced to the exchange's
 * clock would be, so no test sleeps to see time pass. `reset()` gives the next test a fresh
 * exchange and clock under the same warm client.
 */
import ccxt, { pro } from 'ccxt';
import type { Exchange } from 'ccxt';
import { contractSizeOf, toContracts } from '../../../src/adapters/exchanges/contract-units.js';
import { exchangeProfile } from '../../../src/adapters/exchanges/registry.js';
import { pointCcxtAt } from '../../../src/adapters/live-venue/point-ccxt.js';
import { FAKE_CREDENTIALS, startFakeExchange } from './server.js';
import type { FakeExchange, FakeExchangeOptions } from './server.js';

export interface TradingFake {
  fake: FakeExchange;
  exchange: Exchange;
  /** Moves the exchange's clock on by `ms` and applies what that implies (countdowns, fills). */
  advance(ms: number): void;
  /** A fresh exchange (account, orders, faults, calls) with its clock back at the start. */
  reset(): void;
  close(): Promise<void>;
}

export interface TradingFakeOptions extends Omit<FakeExchangeOptions, 'now'> {
  /** The exchange's time at the start (epoch ms). */
  start?: number;
}

export async function openTradingFake(options: TradingFakeOptions = {}): Promise<TradingFake> {
  const start = options.start ?? Date.UTC(2026, 0, 5, 12, 0, 1);
  let began = Date.now();
  let offset = 0;
  const fake = await startFakeExchange({ ...options, now: () => start + (Date.now() - began) + offset });
  // A fake speaking another dialect gets that exchange's client, opened with its profile's options.
  const id = options.dialect?.id;
  const exchange = ccxtClient(fake.url, id ? { id, options: exchangeProfile(id).clientOptions } : {});
  const sync = () => (exchange.options['timeDifference'] = began - start - offset);
  sync();
  return {
    fake,
    exchange,
    advance(ms) {
      offset += ms;
      sync();
      fake.venue.settle();
    },
    reset() {
      began = Date.now();
      offset = 0;
      sync();
      fake.reset();
    },
    async close() {
      await exchange.close();
      await fake.stop();
    },
  };
}

/**
 * ccxt's binanceusdm (or the exchange `id`, with its profile's `options`) as a live adapter would open it: keys set, its own throttle on (at 1 ms per
 * unit of weight: the fake has no rate to respect), a 2 s timeout (a test that loses an answer on
 * purpose lowers `exchange.timeout`), pointed at `url`.
 */
export function ccxtClient(
  url: string,
  options: {
    apiKey?: string;
    secret?: string;
    password?: string;
    id?: string;
    options?: Readonly<Record<string, unknown>>;
    /** A ccxt pro client (the REST client with the WebSocket methods: the user-data stream). */
    pro?: boolean;
  } = {},
): Exchange {
  const classes = (options.pro ? pro : ccxt) as unknown as Record<string, new (config: object) => Exchange>;
  const Client = classes[options.id ?? 'binanceusdm']!;
  const exchange = new Client({
    apiKey: options.apiKey ?? FAKE_CREDENTIALS.apiKey,
    secret: options.secret ?? FAKE_CREDENTIALS.secret,
    // The key's passphrase (ccxt's `password`): only exchanges whose keys have one send it (OKX).
    password: options.password ?? FAKE_CREDENTIALS.passphrase,
    enableRateLimit: true,
    rateLimit: 1,
    timeout: 2_000,
    ...(options.options ? { options: { ...options.options } } : {}),
  });
  pointCcxtAt(exchange, url);
  return exchange;
}

/**
 * An order placed by hand at the exchange (not by the system: a foreign order), `qty` in the base as
 * a test thinks of it and sent in the market's contracts as a person at OKX's screen would order
 * (0.2 BTC is 20 contracts of BTC-USDT-SWAP). Markets must be loaded.
 */
export function placeByHand(
  exchange: Exchange,
  unified: string,
  side: 'buy' | 'sell',
  qty: number,
  price: number,
  clientOrderId: string,
) {
  const contracts = toContracts(qty, contractSizeOf(exchange.markets?.[unified]));
  return exchange.createOrder(unified, 'limit', side, contracts, price, { clientOrderId });
}
