/**
 * The account checked before the first live order (issue 32, item 5), by the real exchange client
 * (openLiveExchange, as the trading process opens it) against the fake exchange on loopback: hedge
 * mode and multi-assets mode are refused naming the switch to flip; leverage and margin type are set
 * to EXCHANGE_LEVERAGE / EXCHANGE_MARGIN_TYPE, or refused when setting is off; a local clock 3 s
 * off still signs requests the exchange accepts (ccxt's time difference adjustment), 8 s off is
 * refused naming the skew. `apply: false` (tcs venue check) changes nothing on the exchange.
 */
import type { Exchange } from 'ccxt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkAccount } from '../../../src/adapters/live-venue/account-check.js';
import type { AccountWanted } from '../../../src/adapters/live-venue/account-check.js';
import { perpetualSymbols } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { openLiveExchange } from '../../../src/adapters/live-venue/open-exchange.js';
import { FAKE_CREDENTIALS, startFakeExchange } from '../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../support/fake-exchange/server.js';
import { fakeDialect } from '../../support/fake-exchange/dialect-registry.js';

let fake: FakeExchange;
/** How far the exchange's clock is from the local one (ms; positive: the exchange is ahead). */
let serverAhead = 0;
let exchange: Exchange;

beforeAll(async () => {
  fake = await startFakeExchange({ now: () => Date.now() + serverAhead });
});

afterAll(async () => {
  await fake.stop();
});

beforeEach(() => {
  serverAhead = 0;
  fake.reset();
});

afterEach(async () => {
  await exchange?.close();
});

const NONE: AccountWanted = { leverage: null, marginType: null, set: true };

/** Opens the client as the trading process does (its time difference measured at loadMarkets) and checks. */
async function check(wanted: AccountWanted = NONE, apply = true) {
  ({ exchange } = await openLiveExchange({ exchange: 'binanceusdm', testnet: true, url: fake.url }, FAKE_CREDENTIALS, {
    rateLimitMs: 1,
  }));
  await exchange.loadMarkets();
  const symbols = perpetualSymbols(exchange.markets ?? {}, ['BTCUSDT', 'ETHUSDT']);
  return checkAccount(exchange, symbols, wanted, { now: () => Date.now(), apply });
}

const writes = () => fake.calls.filter((c) => c.method !== 'GET');

describe('the account checked before the first order', () => {
  it('accepts a one-way, single-asset account as it is and says what it has', async () => {
    const found = await check();
    expect(found.problems).toEqual([]);
    expect(found.hedgeMode).toBe(false);
    expect(found.multiAssets).toBe(false);
    expect(found.symbols).toEqual([
      { symbol: 'BTCUSDT', leverage: 20, marginType: 'cross' },
      { symbol: 'ETHUSDT', leverage: 20, marginType: 'cross' },
    ]);
    expect(writes()).toEqual([]);
  });

  it('refuses a hedge-mode account, naming how to switch to one-way mode, and changes nothing', async () => {
    fake.venue.settings.dualSidePosition = true;
    const found = await check({ leverage: 5, marginType: 'isolated', set: true });
    expect(found.problems).toEqual([
      'the account is in hedge mode: switch to one-way mode (Binance: Preferences → Position Mode → One-way, ' +
        'or POST /fapi/v1/positionSide/dual dualSidePosition=false)',
    ]);
    expect(writes()).toEqual([]);
    expect(fake.venue.settings.of('BTCUSDT').leverage).toBe(20);
  });

  it('refuses a multi-assets account, naming how to switch to single-asset mode', async () => {
    fake.venue.settings.multiAssetsMargin = true;
    const found = await check();
    expect(found.problems).toEqual([
      'the account is in multi-assets mode: switch to single-asset mode (Binance: Preferences → Asset Mode → ' +
        'Single-Asset Mode, or POST /fapi/v1/multiAssetsMargin multiAssetsMargin=false)',
    ]);
  });

  it('sets the configured leverage and margin type on the exchange when they differ', async () => {
    fake.venue.settings.set('ETHUSDT', { leverage: 5, marginType: 'ISOLATED' });
    const found = await check({ leverage: 5, marginType: 'isolated', set: true });
    expect(found.problems).toEqual([]);
    expect(fake.venue.settings.of('BTCUSDT')).toEqual({ leverage: 5, marginType: 'ISOLATED' });
    expect(fake.venue.settings.of('ETHUSDT')).toEqual({ leverage: 5, marginType: 'ISOLATED' });
    expect(found.changed).toEqual(['BTCUSDT leverage 20x → 5x', 'BTCUSDT margin type cross → isolated']);
    // Only what differed was sent.
    expect(writes().map((c) => c.url.split('?')[0])).toEqual(['/fapi/v1/leverage', '/fapi/v1/marginType']);
  });

  it('refuses a wrong leverage and margin type when EXCHANGE_SET_LEVERAGE=false, naming both ways out', async () => {
    fake.venue.settings.set('BTCUSDT', { leverage: 50 });
    fake.venue.settings.set('ETHUSDT', { marginType: 'ISOLATED' });
    const found = await check({ leverage: 20, marginType: 'cross', set: false });
    expect(found.problems).toEqual([
      'BTCUSDT leverage is 50x on the exchange, EXCHANGE_LEVERAGE=20: set it to 20x on the exchange, ' +
        'or EXCHANGE_LEVERAGE=50, or remove EXCHANGE_SET_LEVERAGE=false to let the start set it',
      'ETHUSDT margin type is isolated on the exchange, EXCHANGE_MARGIN_TYPE=cross: set it to cross on the exchange, ' +
        'or EXCHANGE_MARGIN_TYPE=isolated, or remove EXCHANGE_SET_LEVERAGE=false to let the start set it',
    ]);
    expect(writes()).toEqual([]);
  });

  it('says why a margin type cannot be changed while the symbol holds a position, before trying (nothing set)', async () => {
    fake.venue.setPosition('BTCUSDT', 0.01);
    for (const apply of [true, false]) {
      const found = await check({ leverage: null, marginType: 'isolated', set: true }, apply);
      expect(found.problems).toEqual([
        'BTCUSDT margin type cannot be changed cross → isolated while the symbol holds a position ' +
          '(the exchange refuses that): close the position first, or set EXCHANGE_MARGIN_TYPE=cross',
      ]);
      // A start refuses the account, so it sets nothing, not even what it could.
      expect(found.wouldChange).toEqual(['ETHUSDT margin type cross → isolated']);
      expect(writes()).toEqual([]);
    }
  });

  it('only tells what a start would set when asked to change nothing (tcs venue check)', async () => {
    const found = await check({ leverage: 3, marginType: null, set: true }, false);
    expect(found.problems).toEqual([]);
    expect(found.changed).toEqual([]);
    expect(found.wouldChange).toEqual(['BTCUSDT leverage 20x → 3x', 'ETHUSDT leverage 20x → 3x']);
    expect(writes()).toEqual([]);
  });

  it('accepts a local clock 3 s ahead of the exchange: requests are signed with the exchange’s time', async () => {
    serverAhead = -3_000;
    const found = await check();
    expect(found.problems).toEqual([]);
    expect(found.skewMs).toBeGreaterThan(-3_500);
    expect(found.skewMs).toBeLessThan(-2_500);
    // A signed read the exchange would refuse (-1021, 1000 ms ahead of its time) without the adjustment.
    await expect(exchange.fetchBalance()).resolves.toBeDefined();
  });

  it('refuses a local clock 8 s behind the exchange, naming the skew and the limit', async () => {
    serverAhead = 8_000;
    const found = await check();
    expect(found.problems).toHaveLength(1);
    expect(found.problems[0]).toMatch(
      /^the local clock is 8\.\d s behind the exchange's \(more than 5 s, half the 10 s recvWindow\): synchronise it with NTP/,
    );
  });
});

describe('the margin type refusal on every derivatives exchange', () => {
  // The refusal was written for Binance (-4048) and told Bybit's, OKX's and Bitget's operators that
  // Binance refuses it. Each exchange refuses a margin mode switch on a symbol with a position open.
  for (const id of ['bybit', 'okx', 'bitget'] as const) {
    it(`${id}: names the way out and no other exchange`, async () => {
      const other = await startFakeExchange({ dialect: fakeDialect(id) });
      let client: Exchange | undefined;
      try {
        other.venue.setPosition('BTCUSDT', 0.01);
        ({ exchange: client } = await openLiveExchange(
          { exchange: id, testnet: true, url: other.url },
          FAKE_CREDENTIALS,
          {
            rateLimitMs: 1,
          },
        ));
        await client.loadMarkets();
        const symbols = perpetualSymbols(client.markets ?? {}, ['BTCUSDT']);
        const found = await checkAccount(
          client,
          symbols,
          { leverage: null, marginType: 'isolated', set: true },
          { now: () => Date.now(), apply: false },
        );
        expect(found.problems).toEqual([
          'BTCUSDT margin type cannot be changed cross → isolated while the symbol holds a position ' +
            '(the exchange refuses that): close the position first, or set EXCHANGE_MARGIN_TYPE=cross',
        ]);
      } finally {
        await client?.close();
        await other.stop();
      }
    });
  }
});
