/**
 * Live trading's configuration and opt-in (issue 21, item 2): testnet by default, mainnet only with
 * EXCHANGE_TESTNET=false and LIVE_MAINNET=confirm together, anything missing or contradictory a
 * ConfigError naming the variable — and the key and secret never in a message. Until the live venue
 * exists, a complete live configuration stops the trading process's start, saying why.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/config.js';
import { readApiConfig, readCommonConfig } from '../../src/runtime/config.js';
import { readExchangeConfig, readExchangeCredentials } from '../../src/runtime/exchange-config.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';
import { generateKey } from '../../src/domain/keys.js';
import { SUPPORTED_EXCHANGES } from '../../src/adapters/exchanges/registry.js';

const KEY = 'k3y-THAT-must-never-be-printed-0123456789';
const SECRET = 's3cret-THAT-must-never-be-printed-987654321';
const LIVE = { EXECUTION_MODE: 'live', EXCHANGE: 'binanceusdm', EXCHANGE_API_KEY: KEY, EXCHANGE_API_SECRET: SECRET };

describe('readExchangeConfig', () => {
  it('paper mode has no exchange; live mode is the testnet by default', () => {
    expect(readExchangeConfig({}, 'paper')).toBeNull();
    expect(readExchangeConfig(LIVE, 'live')).toEqual({
      exchange: 'binanceusdm',
      testnet: true,
      url: null,
      timeoutMs: 10_000,
      lossHaltMs: 30_000,
      account: { leverage: null, marginType: null, set: true },
      stops: true,
      userStream: true,
    });
    expect(readExchangeConfig({ ...LIVE, EXCHANGE_TESTNET: 'TRUE' }, 'live')?.testnet).toBe(true);
    expect(readExchangeConfig({ ...LIVE, EXCHANGE_USER_STREAM: 'false' }, 'live')?.userStream).toBe(false);
    expect(() => readExchangeConfig({ ...LIVE, EXCHANGE_USER_STREAM: 'maybe' }, 'live')).toThrow(
      /EXCHANGE_USER_STREAM must be true or false/,
    );
  });

  it('Bybit trades its demo; its mainnet is refused, saying why, until it is proven end to end', () => {
    const bybit = { ...LIVE, EXCHANGE: 'bybit' };
    expect(readExchangeConfig(bybit, 'live')).toMatchObject({ exchange: 'bybit', testnet: true });
    expect(() => readExchangeConfig({ ...bybit, EXCHANGE_TESTNET: 'false', LIVE_MAINNET: 'confirm' }, 'live')).toThrow(
      /mainnet\) is refused for bybit: Bybit is supported on its demo trading only .*set EXCHANGE_TESTNET=true/,
    );
  });

  it('OKX trades its demo; its mainnet is refused, saying why, until it is proven end to end', () => {
    const okx = { ...LIVE, EXCHANGE: 'okx' };
    expect(readExchangeConfig(okx, 'live')).toMatchObject({ exchange: 'okx', testnet: true });
    expect(() => readExchangeConfig({ ...okx, EXCHANGE_TESTNET: 'false', LIVE_MAINNET: 'confirm' }, 'live')).toThrow(
      /mainnet\) is refused for okx: OKX is supported on its demo trading only .*set EXCHANGE_TESTNET=true/,
    );
  });

  it('Binance spot (EXCHANGE=binance) trades the spot testnet; its mainnet is refused until proven end to end', () => {
    const spot = { ...LIVE, EXCHANGE: 'binance' };
    expect(readExchangeConfig(spot, 'live')).toMatchObject({ exchange: 'binance', testnet: true });
    expect(() => readExchangeConfig({ ...spot, EXCHANGE_TESTNET: 'false', LIVE_MAINNET: 'confirm' }, 'live')).toThrow(
      /mainnet\) is refused for binance: Binance spot is refused on mainnet/,
    );
  });

  it('SYMBOLS must be what the exchange trades: all spot on Binance spot, none spot on a perpetuals exchange', () => {
    const spot = { ...LIVE, EXCHANGE: 'binance' };
    expect(readCommonConfig({ ...spot, SYMBOLS: 'BTCUSDT:spot,ETHUSDT:spot' }).instruments.map((i) => i.kind)).toEqual([
      'spot',
      'spot',
    ]);
    expect(() => readCommonConfig({ ...spot, SYMBOLS: 'BTCUSDT:spot,ETHUSDT' })).toThrow(
      /SYMBOLS: EXCHANGE=binance trades spot, so every entry must be spot \(e\.g\. BTCUSDT:spot\); got ETHUSDT:perp/,
    );
    expect(() => readCommonConfig({ ...LIVE, SYMBOLS: 'BTCUSDT,SOLUSDT:spot' })).toThrow(
      /SYMBOLS: EXCHANGE=binanceusdm trades perpetuals, so no entry may be spot; got SOLUSDT:spot/,
    );
    // Paper mode has no exchange: spot and perpetuals side by side, as the paper venue trades them.
    expect(readCommonConfig({ SYMBOLS: 'BTCUSDT,SOLUSDT:spot' }).instruments).toHaveLength(2);
  });

  it('mainnet needs EXCHANGE_TESTNET=false and LIVE_MAINNET=confirm, both', () => {
    expect(readExchangeConfig({ ...LIVE, EXCHANGE_TESTNET: 'false', LIVE_MAINNET: 'confirm' }, 'live')).toEqual({
      exchange: 'binanceusdm',
      testnet: false,
      url: null,
      timeoutMs: 10_000,
      lossHaltMs: 30_000,
      account: { leverage: null, marginType: null, set: true },
      stops: true,
      userStream: true,
    });
  });

  it.each([
    [{ ...LIVE, EXCHANGE: '' }, 'live', /EXCHANGE is not set/],
    // The list is the registry's: a new exchange is one line there, not here.
    [
      { ...LIVE, EXCHANGE: 'kraken' },
      'live',
      `EXCHANGE must be one of ${SUPPORTED_EXCHANGES.join(', ')}, got "kraken"`,
    ],
    [{ ...LIVE, EXCHANGE_TESTNET: 'no' }, 'live', /EXCHANGE_TESTNET must be true or false/],
    [{ ...LIVE, EXCHANGE_TESTNET: 'false' }, 'live', /LIVE_MAINNET must be "confirm"/],
    [{ ...LIVE, EXCHANGE_TESTNET: 'false', LIVE_MAINNET: 'yes' }, 'live', /LIVE_MAINNET must be "confirm"/],
    [{ ...LIVE, LIVE_MAINNET: 'confirm' }, 'live', /LIVE_MAINNET is set but EXCHANGE_TESTNET is true/],
    [{ LIVE_MAINNET: 'confirm' }, 'paper', /LIVE_MAINNET is set but EXECUTION_MODE is paper/],
    [{ ...LIVE, EXCHANGE_URL: 'ftp://x' }, 'live', /EXCHANGE_URL must be an http\(s\) URL/],
    [{ ...LIVE, EXCHANGE_URL: 'not a url' }, 'live', /EXCHANGE_URL must be an http\(s\) URL/],
    [{ ...LIVE, EXCHANGE_URL: 'https://u:p@x.test' }, 'live', /EXCHANGE_URL must not carry credentials/],
    [{ ...LIVE, EXCHANGE_TIMEOUT_MS: '100' }, 'live', /EXCHANGE_TIMEOUT_MS must be between 500 and 120000, got 100/],
    [{ ...LIVE, EXCHANGE_LOSS_HALT_MS: '30s' }, 'live', /EXCHANGE_LOSS_HALT_MS must be a whole number, got "30s"/],
  ] as const)('refuses %j in %s mode', (env, mode, message) => {
    expect(() => readExchangeConfig(env, mode)).toThrow(ConfigError);
    expect(() => readExchangeConfig(env, mode)).toThrow(message);
  });

  it('EXCHANGE_TIMEOUT_MS and EXCHANGE_LOSS_HALT_MS are read', () => {
    const config = readExchangeConfig({ ...LIVE, EXCHANGE_TIMEOUT_MS: '2500', EXCHANGE_LOSS_HALT_MS: '60000' }, 'live');
    expect(config).toMatchObject({ timeoutMs: 2_500, lossHaltMs: 60_000 });
  });

  it('EXCHANGE_LEVERAGE, EXCHANGE_MARGIN_TYPE and EXCHANGE_SET_LEVERAGE say what the account must have', () => {
    const config = readExchangeConfig(
      { ...LIVE, EXCHANGE_LEVERAGE: '5', EXCHANGE_MARGIN_TYPE: 'Isolated', EXCHANGE_SET_LEVERAGE: 'false' },
      'live',
    );
    expect(config?.account).toEqual({ leverage: 5, marginType: 'isolated', set: false });
    expect(readExchangeConfig({ ...LIVE, EXCHANGE_MARGIN_TYPE: 'cross' }, 'live')?.account.marginType).toBe('cross');
  });

  it.each([
    [{ EXCHANGE_LEVERAGE: '0' }, 'EXCHANGE_LEVERAGE must be between 1 and 125, got 0'],
    [{ EXCHANGE_LEVERAGE: '126' }, 'EXCHANGE_LEVERAGE must be between 1 and 125, got 126'],
    [{ EXCHANGE_LEVERAGE: '2.5' }, 'EXCHANGE_LEVERAGE must be a whole number, got "2.5"'],
    [{ EXCHANGE_MARGIN_TYPE: 'crossed' }, 'EXCHANGE_MARGIN_TYPE must be isolated or cross, got "crossed"'],
    [{ EXCHANGE_SET_LEVERAGE: 'no' }, 'EXCHANGE_SET_LEVERAGE must be true or false, got "no"'],
    [{ EXCHANGE_STOPS: 'off' }, 'EXCHANGE_STOPS must be true or false, got "off"'],
  ])('%o is refused naming the variable', (vars, message) => {
    expect(() => readExchangeConfig({ ...LIVE, ...vars }, 'live')).toThrow(message);
  });

  it('EXCHANGE_STOPS: exchange stops are on unless it is false', () => {
    expect(readExchangeConfig({ ...LIVE, EXCHANGE_STOPS: 'False' }, 'live')?.stops).toBe(false);
    expect(readExchangeConfig({ ...LIVE, EXCHANGE_STOPS: 'true' }, 'live')?.stops).toBe(true);
  });

  it('EXCHANGE_URL is kept without a trailing slash', () => {
    expect(readExchangeConfig({ ...LIVE, EXCHANGE_URL: 'http://127.0.0.1:9/' }, 'live')?.url).toBe(
      'http://127.0.0.1:9',
    );
  });
});

describe('readExchangeCredentials', () => {
  it.each([
    [{ ...LIVE, EXCHANGE_API_KEY: ' ' }, /EXCHANGE_API_KEY is not set/],
    [{ ...LIVE, EXCHANGE_API_SECRET: undefined }, /EXCHANGE_API_SECRET is not set/],
    [{ ...LIVE, EXCHANGE_API_SECRET: `${SECRET} x` }, /EXCHANGE_API_SECRET contains whitespace/],
  ])('refuses %#, naming the variable and never the value', (env, message) => {
    let error: Error | null = null;
    try {
      readExchangeCredentials(env);
    } catch (err) {
      error = err as Error;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.message).toMatch(message);
    expect(error!.message).not.toContain(KEY);
    expect(error!.message).not.toContain(SECRET);
  });

  it('returns them as given (trimmed)', () => {
    expect(readExchangeCredentials({ ...LIVE, EXCHANGE_API_KEY: ` ${KEY} ` })).toEqual({ apiKey: KEY, secret: SECRET });
  });

  it("needs EXCHANGE_API_PASSPHRASE where the exchange's keys have one (OKX), never naming its value; ignores it elsewhere", () => {
    const PASS = 'pa55-THAT-must-never-be-printed';
    const okx = { ...LIVE, EXCHANGE: 'okx' };
    expect(() => readExchangeCredentials(okx)).toThrow(
      /EXCHANGE_API_PASSPHRASE is not set: okx keys have a passphrase/,
    );
    let error: Error | null = null;
    try {
      readExchangeCredentials({ ...okx, EXCHANGE_API_PASSPHRASE: `${PASS} x` });
    } catch (err) {
      error = err as Error;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.message).toMatch(/EXCHANGE_API_PASSPHRASE contains whitespace/);
    expect(error!.message).not.toContain(PASS);
    expect(readExchangeCredentials({ ...okx, EXCHANGE_API_PASSPHRASE: ` ${PASS} ` })).toEqual({
      apiKey: KEY,
      secret: SECRET,
      passphrase: PASS,
    });
    expect(readExchangeCredentials({ ...LIVE, EXCHANGE_API_PASSPHRASE: PASS })).toEqual({
      apiKey: KEY,
      secret: SECRET,
    });
  });
});

describe('EXECUTION_MODE=live in the processes', () => {
  const base = { SERVICE_API_KEY: generateKey(), RISK_HMAC_SECRET: generateKey(), CONTROL_SECRET: generateKey() };

  it('the API reads the exchange, never the secrets (it does not need them)', () => {
    const config = readApiConfig({ ...base, ...LIVE, EXCHANGE_API_KEY: undefined, EXCHANGE_API_SECRET: undefined });
    expect(config.executionMode).toBe('live');
    expect(config.exchange).toMatchObject({ exchange: 'binanceusdm', testnet: true, url: null });
    expect(JSON.stringify(readApiConfig({ ...base, ...LIVE }))).not.toContain(SECRET);
  });

  it('the trading process names a missing key first, then needs market data from the same exchange', () => {
    expect(() => readTradingConfig({ ...base, ...LIVE, EXCHANGE_API_KEY: '' })).toThrow(/EXCHANGE_API_KEY is not set/);
    expect(() => readTradingConfig({ ...base, ...LIVE })).toThrow(
      /EXECUTION_MODE=live needs MARKET_DATA=live:binanceusdm .* got MARKET_DATA=synthetic/,
    );
  });

  it('a complete live configuration holds the key and secret where nothing that prints the config sees them', () => {
    const config = readTradingConfig({ ...base, ...LIVE, MARKET_DATA: 'live:binanceusdm' });
    expect(config.executionMode).toBe('live');
    expect(config.exchangeCredentials?.()).toEqual({ apiKey: KEY, secret: SECRET });
    expect(JSON.stringify(config)).not.toContain(SECRET);
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(config.exchangeThrottleMs).toBeNull();
  });
});
