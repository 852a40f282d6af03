/**
 * The variables that point a `tcs` process's live venue and live market data at the fake exchange
 * (EXECUTION_MODE=live on `exchange`, Binance USDⓈ-M by default, the fake's keys, its URL for both,
 * ccxt's throttle turned down to 1 ms, and the passphrase where the exchange's keys have one), shared by the end-to-end tests that run real processes
 * against it.
 */
import { exchangeProfile } from '../../../src/adapters/exchanges/registry.js';
import { FAKE_CREDENTIALS } from './server.js';

export function liveEnvFor(url: string, exchange = 'binanceusdm'): Record<string, string> {
  return {
    EXECUTION_MODE: 'live',
    EXCHANGE: exchange,
    EXCHANGE_API_KEY: FAKE_CREDENTIALS.apiKey,
    EXCHANGE_API_SECRET: FAKE_CREDENTIALS.secret,
    EXCHANGE_URL: url,
    MARKET_DATA: `live:${exchange}`,
    LIVE_EXCHANGE_URL: url,
    TCS_TEST_EXCHANGE_RATE_LIMIT_MS: '1',
    // An exchange whose keys come with a passphrase (OKX) gets the fake's.
    ...(exchangeProfile(exchange).passphrase ? { EXCHANGE_API_PASSPHRASE: FAKE_CREDENTIALS.passphrase! } : {}),
  };
}
