/** The SYMBOLS whitelist: exact symbols only, so what an operator typed is what trades. */
import { describe, expect, it } from 'vitest';
import { parseInstruments } from '../../src/domain/instruments.js';

describe('parseInstruments', () => {
  it('reads SYMBOL and SYMBOL:perp|spot with the built-in steps', () => {
    expect(parseInstruments('BTCUSDT, SOLUSDT:spot')).toEqual([
      { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 },
      { symbol: 'SOLUSDT', kind: 'spot', lotSize: 0.01, tickSize: 0.001, minNotional: 5 },
    ]);
  });

  it('refuses a lower-case symbol instead of trading a different one (SYMBOLS=btc traded BTC)', () => {
    expect(() => parseInstruments('btc')).toThrow(/SYMBOLS entry "btc".*upper case.*BTC/);
    expect(() => parseInstruments('BTCUSDT,ethusdt')).toThrow(/"ethusdt"/);
  });
});
