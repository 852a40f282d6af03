/** Configuration: every variable's validation names the variable; keys are never defaulted. */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, readApiConfig, readControlSecret, readHmacSecret } from '../../src/runtime/config.js';
import { readEnvFile, writeFirstRunEnvFile } from '../../src/runtime/env-file.js';
import { generateKey, keyId } from '../../src/domain/keys.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';

const KEY = generateKey();
const SECRET = generateKey();

describe('readApiConfig', () => {
  it('has defaults for everything but the key', () => {
    const config = readApiConfig({ SERVICE_API_KEY: KEY, CONTROL_SECRET: SECRET });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8000,
      apiKeys: [KEY],
      storeUrl: 'sqlite:var/tcs.db',
      executionMode: 'paper',
      controlRateLimit: 60,
    });
    expect(config.instruments.map((i) => i.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
  });

  it.each([
    [{}, /SERVICE_API_KEY is not set/],
    [{ SERVICE_API_KEY: '   ' }, /SERVICE_API_KEY is not set/],
    [{ SERVICE_API_KEY: 'short-key' }, /key #1 has 9 characters; at least 32/],
    [{ SERVICE_API_KEY: `${KEY},tooshort` }, /key #2 has 8 characters/],
    [{ SERVICE_API_KEY: KEY, PORT: 'eighty' }, /PORT must be a whole number/],
    [{ SERVICE_API_KEY: KEY, PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ SERVICE_API_KEY: KEY, STORE_URL: 'mysql://x' }, /STORE_URL must be sqlite:<path> or redis:/],
    [{ SERVICE_API_KEY: KEY, EXECUTION_MODE: 'real' }, /EXECUTION_MODE must be one of paper, live, got "real"/],
    [{ SERVICE_API_KEY: KEY, EXECUTION_MODE: 'live' }, /EXCHANGE is not set/],
    [{ SERVICE_API_KEY: KEY, SYMBOLS: 'BTCUSDT,btc-usdt' }, /SYMBOLS entry "btc-usdt"/],
    [{ SERVICE_API_KEY: KEY, SYMBOLS: 'BTCUSDT:option' }, /kind must be perp or spot/],
    [{ SERVICE_API_KEY: KEY, SYMBOLS: 'BTCUSDT,BTCUSDT' }, /lists BTCUSDT twice/],
    [{ SERVICE_API_KEY: KEY, LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
  ])('refuses %j', (env, message) => {
    expect(() => readApiConfig(env)).toThrow(ConfigError);
    expect(() => readApiConfig(env)).toThrow(message);
  });

  it('accepts several keys for a rotation, and never puts a key in an error', () => {
    const second = generateKey();
    expect(readApiConfig({ SERVICE_API_KEY: ` ${KEY} , ${second} `, CONTROL_SECRET: SECRET }).apiKeys).toEqual([
      KEY,
      second,
    ]);
    try {
      readApiConfig({ SERVICE_API_KEY: `${KEY},abc` });
    } catch (err) {
      expect((err as Error).message).not.toContain(KEY);
    }
  });

  it('requires a long RISK_HMAC_SECRET', () => {
    expect(() => readHmacSecret({})).toThrow(/RISK_HMAC_SECRET is not set/);
    expect(() => readHmacSecret({ RISK_HMAC_SECRET: 'abc' })).toThrow(/at least 32/);
    expect(readHmacSecret({ RISK_HMAC_SECRET: KEY })).toBe(KEY);
  });

  it('requires a long CONTROL_SECRET, and never puts it in an error', () => {
    expect(() => readApiConfig({ SERVICE_API_KEY: KEY })).toThrow(/CONTROL_SECRET is not set/);
    expect(() => readControlSecret({ CONTROL_SECRET: '  ' })).toThrow(/CONTROL_SECRET is not set/);
    expect(() => readControlSecret({ CONTROL_SECRET: 'abc' })).toThrow(/CONTROL_SECRET has 3 characters; at least 32/);
    expect(readControlSecret({ CONTROL_SECRET: ` ${SECRET} ` })).toBe(SECRET);
  });
});

describe('readTradingConfig: leverage and margin', () => {
  const base = { RISK_HMAC_SECRET: KEY };
  it('refuses a leverage limit whose orders could need more margin than the account has', () => {
    expect(() => readTradingConfig({ ...base, RISK_MAX_LEVERAGE: '20' })).toThrow(
      /RISK_MAX_LEVERAGE \(20\) × the highest initial margin rate \(0\.1\) is above 1.*at most 10/,
    );
    expect(() =>
      readTradingConfig({ ...base, RISK_MAX_LEVERAGE: '5', MARGIN_RATES: 'BTCUSDT:0.25:0.1', SYMBOLS: 'BTCUSDT' }),
    ).toThrow(ConfigError);
  });

  it('accepts the defaults and a leverage that fits the margin', () => {
    expect(readTradingConfig(base).riskLimits.maxLeverage).toBe(3);
    expect(readTradingConfig({ ...base, RISK_MAX_LEVERAGE: '10' }).riskLimits.maxLeverage).toBe(10);
  });
});

describe('readTradingConfig: RISK_DRAWDOWN_WINDOW', () => {
  const base = { RISK_HMAC_SECRET: KEY };
  const windowOf = (value?: string) => readTradingConfig({ ...base, RISK_DRAWDOWN_WINDOW: value }).drawdownWindowMs;

  it('defaults to a year (until the reducing state exists) and reads a number with a unit (s, m, h, d)', () => {
    expect(windowOf()).toBe(365 * 86_400_000);
    expect(windowOf(' ')).toBe(365 * 86_400_000);
    expect(windowOf('90m')).toBe(5_400_000);
    expect(windowOf('24h')).toBe(86_400_000);
    expect(windowOf('1.5d')).toBe(129_600_000);
    expect(windowOf('3600s')).toBe(3_600_000);
  });

  it.each([
    ['24', /RISK_DRAWDOWN_WINDOW must be a duration such as 30m, 24h or 7d .*got "24"/],
    ['1w', /must be a duration/],
    ['-1h', /must be a duration/],
    ['h', /must be a duration/],
    ['30s', /RISK_DRAWDOWN_WINDOW must be between 1m and 365d, got "30s"/],
    ['400d', /between 1m and 365d/],
  ])('refuses %j, naming the variable', (value, message) => {
    expect(() => windowOf(value)).toThrow(ConfigError);
    expect(() => windowOf(value)).toThrow(message);
  });
});

describe('keys', () => {
  it('generates URL-safe keys from 32 random bytes, and ids that reveal nothing', () => {
    const a = generateKey();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(generateKey()).not.toBe(a);
    expect(keyId(a)).toMatch(/^key_[0-9a-f]{10}$/);
    expect(keyId(a)).toBe(keyId(a));
  });
});

describe('.env files', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a first-run .env with fresh secrets, mode 0600, and never overwrites one', () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-env-'));
    const path = join(dir, '.env');
    expect(writeFirstRunEnvFile(path, {})).toEqual(['SERVICE_API_KEY', 'RISK_HMAC_SECRET', 'CONTROL_SECRET']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const env = readEnvFile(path, {});
    expect(env.SERVICE_API_KEY).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(env.RISK_HMAC_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(env.CONTROL_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([env.SERVICE_API_KEY, env.RISK_HMAC_SECRET, env.CONTROL_SECRET]).size).toBe(3);
    const before = readFileSync(path, 'utf8');
    expect(writeFirstRunEnvFile(path, {})).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('writes only the secrets the environment lacks, and no file when it has both', () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-env-'));
    const path = join(dir, '.env');
    expect(
      writeFirstRunEnvFile(path, { SERVICE_API_KEY: 'from-env', RISK_HMAC_SECRET: '', CONTROL_SECRET: 'from-env' }),
    ).toEqual([]);
    expect(existsSync(path)).toBe(false);
    expect(writeFirstRunEnvFile(path, { SERVICE_API_KEY: 'from-env', CONTROL_SECRET: 'from-env' })).toEqual([
      'RISK_HMAC_SECRET',
    ]);
    expect(Object.keys(readEnvFile(path, {}))).toEqual(['RISK_HMAC_SECRET']);
  });

  it('lets the real environment win over the file', () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-env-'));
    const path = join(dir, '.env');
    writeFileSync(path, 'PORT=9000\nHOST=0.0.0.0\n');
    expect(readEnvFile(path, { PORT: '8123' })).toMatchObject({ PORT: '8123', HOST: '0.0.0.0' });
  });
});
