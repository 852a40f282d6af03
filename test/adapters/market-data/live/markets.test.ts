/**
 * Resolving system symbols against ccxt markets: a derivative whose contract is not one unit of the
 * base (OKX's BTC-USDT-SWAP, 0.01 BTC) has its lot given in the base, and its contract size kept for
 * the book sizes ccxt reports in contracts.
 */
import type { MarketInterface as Market } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { resolveMarkets } from '../../../../src/adapters/market-data/live/markets.js';
import { openTradingFake } from '../../../support/fake-exchange/ccxt-client.js';

function perp(contractSize: number | undefined): Market {
  return {
    symbol: 'BTC/USDT:USDT',
    base: 'BTC',
    quote: 'USDT',
    settle: 'USDT',
    active: true,
    swap: true,
    spot: false,
    linear: true,
    contract: true,
    contractSize,
    precision: { amount: 0.001, price: 0.1 },
    limits: { amount: { min: 0.001 }, price: { min: 0.1 }, cost: { min: 100 } },
  } as unknown as Market;
}

describe('resolveMarkets', () => {
  it('takes a perpetual with contract size 1 or none, steps unchanged', () => {
    for (const size of [1, undefined]) {
      const [r] = resolveMarkets({ 'BTC/USDT:USDT': perp(size) }, [{ symbol: 'BTCUSDT' }], 'test');
      expect(r!.instrument).toEqual({
        symbol: 'BTCUSDT',
        kind: 'perp',
        lotSize: 0.001,
        tickSize: 0.1,
        minNotional: 100,
      });
    }
  });

  it('gives the lot of a market whose contract is 0.01 BTC in BTC, and keeps the contract size', () => {
    // A lot of 0.1 contracts of 0.01 BTC is 0.001 BTC (as OKX lists lotSz for BTC-USDT-SWAP in contracts).
    const market = { ...perp(0.01), precision: { amount: 0.1, price: 0.1 } } as unknown as Market;
    const [r] = resolveMarkets({ 'BTC/USDT:USDT': market }, [{ symbol: 'BTCUSDT' }], 'test');
    expect(r!.contractSize).toBe(0.01);
    expect(r!.instrument.lotSize).toBe(0.001);
  });
});

describe('resolveMarkets on the exchange’s own filters (the fake exchange, real ccxt)', () => {
  it('reads LOT_SIZE and MARKET_LOT_SIZE maxQty and PERCENT_PRICE from exchangeInfo', async () => {
    const t = await openTradingFake({ deposit: 1_000 });
    try {
      const markets = await t.exchange.loadMarkets();
      const [btc] = resolveMarkets(markets as Record<string, Market>, [{ symbol: 'BTCUSDT' }], 'binanceusdm');
      expect(btc!.instrument).toMatchObject({
        maxQty: 1000,
        marketMaxQty: 120,
        percentPrice: { up: 1.05, down: 0.95 },
      });
    } finally {
      await t.close();
    }
  });
});
