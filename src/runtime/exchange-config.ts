/**
 * Live trading's configuration and its explicit opt-in (issue 21, item 2). Two halves:
 *  - `readExchangeConfig`, read by both processes: which exchange, testnet or mainnet, an optional
 *    base URL. No secret: the API answers GET /control/mode from it.
 *  - `readExchangeCredentials`, read by the trading process only: the key and secret. They go to the
 *    exchange client and nowhere else: never in a message, a log line, a response or the store.
 * Rules: `EXECUTION_MODE=live` needs `EXCHANGE` (one of the registry's SUPPORTED_EXCHANGES:
 * src/adapters/exchanges/registry.ts); the testnet is the default
 * (`EXCHANGE_TESTNET=true`); mainnet needs `EXCHANGE_TESTNET=false` and `LIVE_MAINNET=confirm`, both. A
 * missing, malformed or contradictory variable (LIVE_MAINNET=confirm on the testnet or in paper mode,
 * exchange settings in paper mode are fine: they wait) is a ConfigError naming it, so `tcs start`
 * exits 2 before anything starts.
 */
import type { AccountWanted, MarginType } from '../adapters/live-venue/account-check.js';
import { exchangeProfile, findProfile, SUPPORTED_EXCHANGES } from '../adapters/exchanges/registry.js';
import type { ExchangeId } from '../adapters/exchanges/registry.js';
import type { InstrumentKind } from '../domain/market.js';
import { ConfigError } from './config-error.js';
import { readInt } from './config-numbers.js';

/** The execution modes (./config.ts EXECUTION_MODES), named here without importing it back. */
type ExecutionMode = 'paper' | 'live';

export interface ExchangeConfig {
  exchange: ExchangeId;
  /** True: the exchange's sandbox (the default); false: real money (confirmed by LIVE_MAINNET). */
  testnet: boolean;
  /** EXCHANGE_URL: the exchange's base URL overridden (a proxy, a regional endpoint, a local fake). */
  url: string | null;
  /** EXCHANGE_TIMEOUT_MS: every exchange request's deadline (default 10 s). */
  timeoutMs: number;
  /**
   * EXCHANGE_LOSS_HALT_MS: how long the exchange may not answer (timeouts, dropped connections, 5xx)
   * before trading halts, as for a lost store (default 30 s: three request deadlines, so one slow
   * answer does not halt).
   */
  lossHaltMs: number;
  /**
   * What the account must have on each traded symbol, checked at start before the first order
   * (src/adapters/live-venue/account-check.ts): EXCHANGE_LEVERAGE (1..125) and EXCHANGE_MARGIN_TYPE
   * (isolated|cross), unset: whatever the account has (logged); set on the exchange unless
   * EXCHANGE_SET_LEVERAGE=false, which refuses a difference instead (an operator who sets them by hand).
   */
  account: AccountWanted;
  /**
   * EXCHANGE_STOPS (default true): rest a close-position stop on the exchange for each open position
   * at the STOP_LOSS / TRAILING_STOP level (src/adapters/live-venue/protective-stops.ts), so one is left
   * when the process is gone. Nothing rests when neither exit is configured.
   */
  stops: boolean;
  /**
   * EXCHANGE_USER_STREAM (default true): fills and order updates from the exchange's user-data stream
   * (src/adapters/live-venue/user-stream.ts), a resting order polled only when the stream cannot vouch
   * for it; false: every resting order is polled each cycle.
   */
  userStream?: boolean;
}

export interface ExchangeCredentials {
  apiKey: string;
  secret: string;
  /** The key's passphrase, for an exchange whose profile says its keys have one (OKX); else absent. */
  passphrase?: string;
}

export function readExchangeConfig(env: NodeJS.ProcessEnv, mode: ExecutionMode): ExchangeConfig | null {
  const confirm = env.LIVE_MAINNET?.trim() ?? '';
  if (mode !== 'live') {
    if (confirm !== '')
      throw new ConfigError(
        `LIVE_MAINNET is set but EXECUTION_MODE is ${mode}: mainnet is only for EXECUTION_MODE=live; remove LIVE_MAINNET`,
      );
    return null;
  }
  const exchange = readExchange(env);
  const testnet = readTestnet(env);
  if (!testnet && confirm !== 'confirm')
    throw new ConfigError(
      'LIVE_MAINNET must be "confirm" to trade real money: EXCHANGE_TESTNET=false is mainnet; ' +
        'set LIVE_MAINNET=confirm, or EXCHANGE_TESTNET=true for the testnet',
    );
  const refused = exchangeProfile(exchange).mainnetRefused;
  if (!testnet && refused !== null)
    throw new ConfigError(
      `EXCHANGE_TESTNET=false (mainnet) is refused for ${exchange}: ${refused}; set EXCHANGE_TESTNET=true`,
    );
  if (testnet && confirm !== '')
    throw new ConfigError(
      'LIVE_MAINNET is set but EXCHANGE_TESTNET is true (the testnet): set EXCHANGE_TESTNET=false to trade ' +
        'mainnet, or remove LIVE_MAINNET',
    );
  return {
    exchange,
    testnet,
    url: readUrl(env),
    timeoutMs: readInt(env, 'EXCHANGE_TIMEOUT_MS', 10_000, 500, 120_000),
    lossHaltMs: readInt(env, 'EXCHANGE_LOSS_HALT_MS', 30_000, 1_000, 3_600_000),
    account: readAccountWanted(env),
    stops: readBoolean(env, 'EXCHANGE_STOPS', true),
    userStream: readBoolean(env, 'EXCHANGE_USER_STREAM', true),
  };
}

function readAccountWanted(env: NodeJS.ProcessEnv): AccountWanted {
  const leverage = env.EXCHANGE_LEVERAGE?.trim() ? readInt(env, 'EXCHANGE_LEVERAGE', 1, 1, 125) : null;
  const type = env.EXCHANGE_MARGIN_TYPE?.trim().toLowerCase() ?? '';
  if (type !== '' && type !== 'isolated' && type !== 'cross')
    throw new ConfigError(`EXCHANGE_MARGIN_TYPE must be isolated or cross, got "${env.EXCHANGE_MARGIN_TYPE}"`);
  const set = env.EXCHANGE_SET_LEVERAGE?.trim().toLowerCase() ?? '';
  if (set !== '' && set !== 'true' && set !== 'false')
    throw new ConfigError(`EXCHANGE_SET_LEVERAGE must be true or false, got "${env.EXCHANGE_SET_LEVERAGE}"`);
  return { leverage, marginType: type === '' ? null : (type as MarginType), set: set !== 'false' };
}

function readBoolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
  return raw === 'true';
}

/**
 * The instruments must be what the exchange trades (its profile's `market`): on a spot exchange
 * (EXCHANGE=binance) every SYMBOLS entry spot (`BTCUSDT:spot`), on a perpetuals one none spot. A
 * mismatch would size, margin and allow shorts by the wrong rules (the allocator keeps spot long-only
 * by the kind), so it is refused at start naming the fix. Paper mode (no exchange): anything goes.
 */
export function checkInstrumentKinds(
  instruments: ReadonlyArray<{ symbol: string; kind: InstrumentKind }>,
  exchange: ExchangeConfig | null,
): void {
  if (!exchange) return;
  const spot = exchangeProfile(exchange.exchange).market === 'spot';
  const wrong = instruments.filter((i) => (i.kind === 'spot') !== spot);
  if (wrong.length === 0) return;
  const listed = wrong.map((i) => `${i.symbol}:${i.kind}`).join(', ');
  throw new ConfigError(
    spot
      ? `SYMBOLS: EXCHANGE=${exchange.exchange} trades spot, so every entry must be spot (e.g. BTCUSDT:spot); got ${listed}`
      : `SYMBOLS: EXCHANGE=${exchange.exchange} trades perpetuals, so no entry may be spot; got ${listed}`,
  );
}

/** The trading process's key and secret; their values are never put in an error. */
export function readExchangeCredentials(env: NodeJS.ProcessEnv): ExchangeCredentials {
  const credentials = { apiKey: readSecret(env, 'EXCHANGE_API_KEY'), secret: readSecret(env, 'EXCHANGE_API_SECRET') };
  // Only where the exchange's keys have one (its profile): a passphrase set for another is not sent anywhere.
  if (!findProfile(env.EXCHANGE?.trim() ?? '')?.passphrase) return credentials;
  return { ...credentials, passphrase: readSecret(env, 'EXCHANGE_API_PASSPHRASE') };
}

function readExchange(env: NodeJS.ProcessEnv): ExchangeId {
  const exchange = env.EXCHANGE?.trim() ?? '';
  if (exchange === '')
    throw new ConfigError(`EXCHANGE is not set: EXECUTION_MODE=live needs one of ${SUPPORTED_EXCHANGES.join(', ')}`);
  if (!(SUPPORTED_EXCHANGES as readonly string[]).includes(exchange))
    throw new ConfigError(`EXCHANGE must be one of ${SUPPORTED_EXCHANGES.join(', ')}, got "${exchange}"`);
  return exchange as ExchangeId;
}

function readTestnet(env: NodeJS.ProcessEnv): boolean {
  const raw = env.EXCHANGE_TESTNET?.trim().toLowerCase() ?? '';
  if (raw === '' || raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(`EXCHANGE_TESTNET must be true or false, got "${env.EXCHANGE_TESTNET}"`);
}

function readUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.EXCHANGE_URL?.trim() ?? '';
  if (raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`EXCHANGE_URL must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`EXCHANGE_URL must be an http(s) URL, got "${raw}"`);
  if (url.username !== '' || url.password !== '')
    throw new ConfigError('EXCHANGE_URL must not carry credentials: use EXCHANGE_API_KEY and EXCHANGE_API_SECRET');
  return raw.replace(/\/+$/, '');
}

function readSecret(
  env: NodeJS.ProcessEnv,
  name: 'EXCHANGE_API_KEY' | 'EXCHANGE_API_SECRET' | 'EXCHANGE_API_PASSPHRASE',
): string {
  const value = env[name]?.trim() ?? '';
  if (value === '')
    throw new ConfigError(
      name === 'EXCHANGE_API_PASSPHRASE'
        ? `${name} is not set: ${env.EXCHANGE?.trim()} keys have a passphrase, chosen when the key was made`
        : `${name} is not set: EXECUTION_MODE=live needs the exchange's key and secret`,
    );
  if (/\s/.test(value))
    throw new ConfigError(`${name} contains whitespace: paste the value exactly as the exchange showed it`);
  return value;
}
