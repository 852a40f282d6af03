/**
 * Our symbols resolved to an exchange's linear perpetuals (src/adapters/live-venue/ccxt-mapping.ts
 * perpetualSymbols): by market id where the exchange's ids are ours (Binance, Bybit: `BTCUSDT`), by
 * base and quote where the id says more (OKX: `BTC-USDT-SWAP`), the id first; anything else named.
 */
import { describe, expect, it } from 'vitest';
import { perpetualSymbols } from '../../../src/adapters/live-venue/ccxt-mapping.js';

const swap = (id: string, symbol: string, base: string, quote: string) => ({
  id,
  symbol,
  base,
  quote,
  swap: true,
  linear: true,
});

describe('perpetualSymbols', () => {
  it("finds OKX's BTC-USDT-SWAP for BTCUSDT by its base and quote", () => {
    const markets = { 'BTC/USDT:USDT': swap('BTC-USDT-SWAP', 'BTC/USDT:USDT', 'BTC', 'USDT') };
    expect(perpetualSymbols(markets, ['BTCUSDT']).unified('BTCUSDT')).toBe('BTC/USDT:USDT');
  });

  it("prefers a market whose id is the symbol over another market's base and quote", () => {
    const markets = {
      'A/USDT:USDT': swap('BTCUSDT', 'A/USDT:USDT', 'A', 'USDT'),
      'BTC/USDT:USDT': swap('BTC-USDT-SWAP', 'BTC/USDT:USDT', 'BTC', 'USDT'),
    };
    expect(perpetualSymbols(markets, ['BTCUSDT']).unified('BTCUSDT')).toBe('A/USDT:USDT');
  });

  it('names a symbol no linear perpetual matches; a spot market does not count', () => {
    const markets = { 'BTC/USDT': { id: 'BTCUSDT', symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', spot: true } };
    expect(() => perpetualSymbols(markets, ['BTCUSDT'])).toThrow(/lists no linear perpetual BTCUSDT/);
  });
});
