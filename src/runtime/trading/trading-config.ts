/**
 * Configuration of the trading process, from the environment (and `.env`). Every variable is in
 * .env.example; a bad value stops start-up with a message naming the variable.
 */
import { readFileSync } from 'node:fs';
import { SYNTHETIC_SYMBOLS } from '../../adapters/market-data/index.js';
import { ORDER_STYLES } from '../../domain/allocation.js';
import type { OrderStyle } from '../../domain/allocation.js';
import type { ArbitrationOptions } from '../../domain/arbitration.js';
import { DEFAULT_MARGIN_RATES, parseMarginTable } from '../../domain/margin.js';
import type { MarginTable } from '../../domain/margin.js';
import type { Instrument } from '../../domain/market.js';
import { DEFAULT_NO_TRADE_BAND, DEFAULT_RISK_FRACTION } from '../../domain/sizing.js';
import { parseRiskLimits } from '../../domain/risk/risk-engine.js';
import type { RiskLimits } from '../../domain/risk/risk-engine.js';
import { DEFAULT_STRATEGIES } from '../../strategies/registry.js';
import type { StrategyParamsByEntry } from '../../strategies/registry.js';
import { DEFAULT_DRAWDOWN_WINDOW_MS } from '../../domain/risk/peak-window.js';
import { ConfigError, readCommonConfig, readDuration, readHmacSecret, readInt, readNumber } from '../config.js';
import type { CommonConfig } from '../config.js';
import { readExchangeCredentials } from '../exchange-config.js';
import type { ExchangeCredentials } from '../exchange-config.js';
import { readSafetyConfig } from './safety-config.js';
import type { SafetyConfig } from './safety-config.js';
import { readProtectionConfig } from './protection-config.js';
import { readFillConfig } from './fill-config.js';
import type { FillConfig } from './fill-config.js';
import type { ProtectionSettings } from '../../domain/protection.js';

export interface TradingConfig extends CommonConfig {
  hmacSecret: string;
  cycleMs: number;
  strategies: string;
  strategyParams: StrategyParamsByEntry;
  /** MARKET_DATA: the seeded synthetic market, `file:<dir>` (historical replay) or `live:<ccxt exchange id>` (public data, no keys). */
  marketData: MarketDataSource;
  /** LIVE_EXCHANGE_URL: another origin for the live exchange's REST API (tests, proxies); null = the exchange's own. */
  liveExchangeUrl: string | null;
  /** FEED_STALE_MS: market data older than this opens no new exposure in its symbol (closes still pass). */
  feedStaleMs: number;
  marketSeed: number;
  /** The synthetic market's settings: SYNTHETIC_CORRELATION, SYNTHETIC_TREND, SYNTHETIC_FUNDING_HALF_LIFE_HOURS. */
  synthetic: SyntheticMarketConfig;
  riskLimits: RiskLimits;
  /** RISK_DRAWDOWN_WINDOW: the drawdown is measured from the highest NAV over this long (default 365d: see peak-window.ts). */
  drawdownWindowMs: number;
  /** Target |position| at confidence 1, as a fraction of NAV. */
  riskFraction: number;
  /** Changes of target smaller than this fraction of riskFraction × NAV are not traded. */
  noTradeBand: number;
  orderStyle: OrderStyle;
  arbitration: Required<Pick<ArbitrationOptions, 'minConfidence' | 'maxOrders'>> & { weights: Record<string, number> };
  tokenTtlMs: number;
  /** Trip the kill switch when drawdown from peak NAV reaches this fraction; null = off. */
  circuitBreakerDrawdown: number | null;
  startingCash: number;
  /** Paper venue margin of perpetuals: MARGIN_INITIAL_RATE, MARGIN_MAINTENANCE_RATE, MARGIN_RATES. */
  margin: MarginTable;
  /**
   * LIQUIDATION_FEE: the paper venue's liquidation fee, a fraction of a liquidation close's notional,
   * paid into its insurance fund on top of the taker fee (default 0.005; 0–0.05).
   */
  liquidationFee: number;
  /** The paper venue's fill model and fees: FILL_MODEL, FILL_VOLUME_SHARE, FILL_TOUCH_SHARE, FEE_MAKER, FEE_TAKER. */
  fills: FillConfig;
  heartbeatMs: number;
  /** Stately inspector WebSocket URL, used with --inspect. */
  inspectUrl: string;
  safety: SafetyConfig;
  /** Protective exits: STOP_LOSS, TAKE_PROFIT, TRAILING_STOP, COOLDOWN_AFTER_STOP, PROTECTION_PARAMS. */
  protection: ProtectionSettings;
  /** EXECUTION_MODE=live: the exchange's key and secret, behind a function so nothing that prints the config shows them. */
  exchangeCredentials: (() => ExchangeCredentials) | null;
  /**
   * Test-only (TCS_TEST_EXCHANGE_RATE_LIMIT_MS, not in .env.example, as for `tcs data download`):
   * ccxt's throttle per unit of request weight for the live venue, so the e2e tests against the local
   * fake exchange need not wait out Binance's weights. Null: the exchange's published rate.
   */
  exchangeThrottleMs: number | null;
}

export interface SyntheticMarketConfig {
  /** Correlation of any two symbols' returns (default 0.8, crypto majors). */
  correlation: number;
  /** Demo trend strength: 0 (default) is driftless, 1 the old trending market. */
  trend: number;
  /** Half-life of the funding level in hours (default 72). */
  fundingHalfLifeHours: number;
}

export type MarketDataSource = 'synthetic' | `live:${string}` | `file:${string}`;

/** Default FEED_STALE_MS: a quarter of a minute without fresh data is an outage, not a slow answer. */
const DEFAULT_FEED_STALE_MS = 15_000;

function readMarketData(env: NodeJS.ProcessEnv): MarketDataSource {
  const raw = env.MARKET_DATA?.trim() || 'synthetic';
  if (raw === 'synthetic') return raw;
  if (raw.startsWith('live:')) {
    const id = raw.slice('live:'.length);
    if (!/^[a-z][a-z0-9]*$/.test(id))
      throw new ConfigError(`MARKET_DATA=live:<exchange> needs a ccxt exchange id such as binanceusdm, got "${raw}"`);
    return `live:${id}`;
  }
  if (raw.startsWith('file:')) {
    const dir = raw.slice('file:'.length).trim();
    if (dir === '')
      throw new ConfigError('MARKET_DATA=file:<dir> needs the data directory, e.g. file:data/binance-2024');
    return `file:${dir}`;
  }
  throw new ConfigError(
    `MARKET_DATA must be synthetic, file:<dir> or live:<exchange> (e.g. live:binanceusdm), got "${raw}"`,
  );
}

function readUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL such as http://127.0.0.1:9000, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http(s) URL such as http://127.0.0.1:9000, got "${raw}"`);
  return url.origin;
}

/**
 * EXECUTION_MODE=live: the exchange's key and secret (checked now, so a missing one exits 2 naming
 * it), held in a function so no log line, JSON or inspector that shows the config ever shows them;
 * and market data from the same exchange — orders on an exchange are judged on its own prices.
 */
function readLiveExecution(
  env: NodeJS.ProcessEnv,
  exchange: string,
  marketData: MarketDataSource,
): () => ExchangeCredentials {
  const credentials = readExchangeCredentials(env);
  if (marketData !== `live:${exchange}`)
    throw new ConfigError(
      `EXECUTION_MODE=live needs MARKET_DATA=live:${exchange} (orders on the exchange are judged on its own prices), got MARKET_DATA=${marketData}`,
    );
  return () => credentials;
}

/** A symbol the synthetic market does not know is a typo, not a market to make up (exit 2). */
function assertSyntheticKnows(instruments: readonly Instrument[]): void {
  const unknown = instruments.map((i) => i.symbol).filter((s) => !SYNTHETIC_SYMBOLS.includes(s));
  if (unknown.length === 0) return;
  throw new ConfigError(
    `SYMBOLS: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a market' : 'are not markets'} the synthetic market data knows; ` +
      `it knows ${SYNTHETIC_SYMBOLS.join(', ')} (MARKET_DATA=file:<dir> or live:<exchange> for others)`,
  );
}

export function readTradingConfig(env: NodeJS.ProcessEnv): TradingConfig {
  const marketData = readMarketData(env);
  let riskLimits: RiskLimits;
  try {
    riskLimits = parseRiskLimits(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const orderStyle = env.ORDER_STYLE?.trim() || 'market';
  if (!(ORDER_STYLES as readonly string[]).includes(orderStyle))
    throw new ConfigError(`ORDER_STYLE must be one of ${ORDER_STYLES.join(', ')}, got "${orderStyle}"`);
  const breaker = env.CIRCUIT_BREAKER_DRAWDOWN?.trim();
  const common = readCommonConfig(env);
  const exchangeCredentials =
    common.executionMode === 'live' && common.exchange
      ? readLiveExecution(env, common.exchange.exchange, marketData)
      : null;
  if (marketData === 'synthetic') assertSyntheticKnows(common.instruments);
  const margin = readMargin(env, common.instruments);
  assertLeverageFitsMargin(riskLimits, margin);
  return {
    ...common,
    hmacSecret: readHmacSecret(env),
    cycleMs: Math.round(readNumber(env, 'CYCLE_SECONDS', 60, 0.05, 86_400) * 1000),
    strategies: env.STRATEGIES?.trim() || DEFAULT_STRATEGIES,
    strategyParams: readStrategyParams(env.STRATEGY_PARAMS, env.STRATEGY_PARAMS_FILE),
    marketData,
    liveExchangeUrl: readUrl(env, 'LIVE_EXCHANGE_URL'),
    feedStaleMs: readInt(env, 'FEED_STALE_MS', DEFAULT_FEED_STALE_MS, 100, 86_400_000),
    marketSeed: readInt(env, 'MARKET_SEED', 42, 0, 2 ** 31 - 1),
    synthetic: {
      correlation: readNumber(env, 'SYNTHETIC_CORRELATION', 0.8, 0, 1),
      trend: readNumber(env, 'SYNTHETIC_TREND', 0, 0, 10),
      fundingHalfLifeHours: readNumber(env, 'SYNTHETIC_FUNDING_HALF_LIFE_HOURS', 72, 0.1, 24 * 365),
    },
    riskLimits,
    // At least a minute (a shorter window forgets a peak within a cycle or two), at most a year.
    drawdownWindowMs: readDuration(env, 'RISK_DRAWDOWN_WINDOW', DEFAULT_DRAWDOWN_WINDOW_MS, 60_000, 365 * 86_400_000),
    riskFraction: readNumber(env, 'RISK_FRACTION', DEFAULT_RISK_FRACTION, 0.0001, 1),
    noTradeBand: readNumber(env, 'NO_TRADE_BAND', DEFAULT_NO_TRADE_BAND, 0, 1),
    orderStyle: orderStyle as OrderStyle,
    arbitration: {
      minConfidence: readNumber(env, 'ARBITER_MIN_CONFIDENCE', 0.1, 0, 1),
      maxOrders: readInt(env, 'ARBITER_MAX_ORDERS', 1, 1, 100),
      weights: readWeights(env.AGENT_WEIGHTS),
    },
    tokenTtlMs: readInt(env, 'TOKEN_TTL_MS', 10_000, 100, 3_600_000),
    circuitBreakerDrawdown: breaker ? readNumber(env, 'CIRCUIT_BREAKER_DRAWDOWN', 0, 0.001, 1) : null,
    startingCash: readNumber(env, 'PAPER_STARTING_CASH', 100_000, 1, 1e12),
    margin,
    liquidationFee: readNumber(env, 'LIQUIDATION_FEE', 0.005, 0, 0.05),
    fills: readFillConfig(env),
    heartbeatMs: readInt(env, 'HEARTBEAT_MS', 5_000, 100, 10_000),
    inspectUrl: env.STATELY_INSPECT_URL?.trim() || 'ws://localhost:8080',
    safety: readSafetyConfig(env),
    protection: readProtectionConfig(env),
    exchangeCredentials,
    exchangeThrottleMs: env.TCS_TEST_EXCHANGE_RATE_LIMIT_MS?.trim()
      ? readInt(env, 'TCS_TEST_EXCHANGE_RATE_LIMIT_MS', 1, 1, 60_000)
      : null,
  };
}

/**
 * MARGIN_INITIAL_RATE / MARGIN_MAINTENANCE_RATE (defaults 0.1 / 0.05) for every perpetual, and
 * MARGIN_RATES=SYMBOL:initial:maintenance,… for per-symbol overrides; 0 < maintenance < initial ≤ 1.
 */
function readMargin(env: NodeJS.ProcessEnv, instruments: readonly Instrument[]): MarginTable {
  const initial = readNumber(env, 'MARGIN_INITIAL_RATE', DEFAULT_MARGIN_RATES.initial, 0.0001, 1);
  const maintenance = readNumber(env, 'MARGIN_MAINTENANCE_RATE', DEFAULT_MARGIN_RATES.maintenance, 0.0001, 1);
  let table: MarginTable;
  try {
    table = parseMarginTable({ initial, maintenance, overrides: env.MARGIN_RATES });
  } catch (err) {
    const which = (err as Error).message.startsWith('margin override')
      ? 'MARGIN_RATES'
      : 'MARGIN_INITIAL_RATE/MARGIN_MAINTENANCE_RATE';
    throw new ConfigError(`${which}: ${(err as Error).message}`);
  }
  // An override for a symbol that is not traded is a typo that would silently leave the default in force.
  const perps = new Set(instruments.filter((i) => i.kind === 'perp').map((i) => i.symbol));
  for (const symbol of Object.keys(table.bySymbol)) {
    if (!perps.has(symbol)) throw new ConfigError(`MARGIN_RATES names ${symbol}, which is not a perpetual in SYMBOLS`);
  }
  return table;
}

/**
 * The leverage guard is what keeps the system's own orders within margin: worst-case gross notional
 * ≤ RISK_MAX_LEVERAGE × NAV, so initial margin ≤ RISK_MAX_LEVERAGE × rate × NAV. With the product
 * above 1 the venue would refuse orders the risk engine approved (or the account could be margined
 * beyond its equity), so such a configuration does not start.
 */
function assertLeverageFitsMargin(limits: RiskLimits, margin: MarginTable): void {
  const rates = [margin.fallback, ...Object.values(margin.bySymbol)];
  const highest = Math.max(...rates.map((r) => r.initial));
  if (limits.maxLeverage * highest > 1 + 1e-12) {
    throw new ConfigError(
      `RISK_MAX_LEVERAGE (${limits.maxLeverage}) × the highest initial margin rate (${highest}) is above 1: ` +
        `orders within the leverage limit could need more margin than the account has. ` +
        `Lower RISK_MAX_LEVERAGE to at most ${Math.floor((1 / highest) * 1000) / 1000}, or lower the margin rates.`,
    );
  }
}

/** AGENT_WEIGHTS: `name=weight,...`, e.g. `momentum_ma_crossover=1,funding_rate_contrarian=0.8`. */
function readWeights(raw: string | undefined): Record<string, number> {
  const weights: Record<string, number> = {};
  for (const entry of (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, value] = entry.split('=').map((s) => s.trim());
    const weight = Number(value);
    if (!name || value === undefined || value === '' || !Number.isFinite(weight) || weight < 0) {
      throw new ConfigError(`AGENT_WEIGHTS entry "${entry}" must be name=weight with a weight ≥ 0`);
    }
    weights[name] = weight;
  }
  return weights;
}

/**
 * STRATEGY_PARAMS: JSON keyed by STRATEGIES entry, e.g. {"momentum_ma_crossover":{"fast":8}}; or
 * STRATEGY_PARAMS_FILE, the path of a file holding the same JSON (for parameters too long for an
 * environment variable). Not both: which one wins would be a guess.
 */
function readStrategyParams(raw: string | undefined, file: string | undefined): StrategyParamsByEntry {
  const fromFile = file?.trim();
  if (fromFile && raw?.trim())
    throw new ConfigError('STRATEGY_PARAMS and STRATEGY_PARAMS_FILE are both set: give the parameters in one of them');
  let name = 'STRATEGY_PARAMS';
  let text = raw;
  if (fromFile) {
    name = `STRATEGY_PARAMS_FILE (${fromFile})`;
    try {
      text = readFileSync(fromFile, 'utf8');
    } catch (err) {
      throw new ConfigError(`${name} cannot be read: ${(err as Error).message}`);
    }
  }
  if (!text?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(parsed) || !Object.values(parsed).every(isObject)) {
    throw new ConfigError(`${name} must be a JSON object of objects, keyed by STRATEGIES entry`);
  }
  return parsed as StrategyParamsByEntry;
}
