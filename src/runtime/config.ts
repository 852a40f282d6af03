/**
 * Configuration from the environment (and `.env`). Every variable is documented in .env.example;
 * a bad value stops start-up with a message naming the variable, never a stack trace.
 */
import { parseInstruments, DEFAULT_SYMBOLS } from '../domain/instruments.js';
import type { Instrument } from '../domain/market.js';
import { DEFAULT_COMMAND_QUEUE_MAX } from '../ports/command-queue.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../ports/store.js';
import { ConfigError } from './config-error.js';
import { readInt } from './config-numbers.js';
import { checkInstrumentKinds, readExchangeConfig } from './exchange-config.js';
import type { ExchangeConfig } from './exchange-config.js';

export const MIN_KEY_LENGTH = 32;
/** `live` is configured and validated (./exchange-config.ts); the trading process refuses it until the live venue exists. */
export const EXECUTION_MODES = ['paper', 'live'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export { ConfigError } from './config-error.js';
export { readInt, readNumber } from './config-numbers.js';

export interface CommonConfig {
  storeUrl: string;
  /** Deadline of every store command in ms (Redis command timeout, SQLite busy timeout). */
  storeTimeoutMs: number;
  instruments: Instrument[];
  executionMode: ExecutionMode;
  /** EXECUTION_MODE=live: the exchange, testnet or mainnet, its URL (no secret); null in paper mode. */
  exchange: ExchangeConfig | null;
  logLevel: string;
}

export interface ApiConfig extends CommonConfig {
  host: string;
  port: number;
  /** Accepted keys (several during a rotation). */
  apiKeys: string[];
  /** Control POSTs per key per minute (kill-switch exempt). */
  controlRateLimit: number;
  /** COMMAND_QUEUE_MAX: operator commands are refused (503) while this many are open. */
  commandQueueMax: number;
  /** API_HEARTBEAT_MS: how often the API tells the trading process it is there (CONTROL_PLANE_TIMEOUT). */
  heartbeatMs: number;
  /** CONTROL_SECRET: signs the commands and control records this API writes, checks those it reads. */
  controlSecret: string;
}

export function readCommonConfig(env: NodeJS.ProcessEnv): CommonConfig {
  const executionMode = readMode(env);
  const instruments = wrap('SYMBOLS', () => parseInstruments(env.SYMBOLS ?? DEFAULT_SYMBOLS));
  const exchange = readExchangeConfig(env, executionMode);
  checkInstrumentKinds(instruments, exchange);
  return {
    storeUrl: readStoreUrl(env),
    storeTimeoutMs: readStoreTimeoutMs(env),
    instruments,
    executionMode,
    exchange,
    logLevel: readLogLevel(env),
  };
}

export function readApiConfig(env: NodeJS.ProcessEnv): ApiConfig {
  return {
    ...readCommonConfig(env),
    host: env.HOST?.trim() || '127.0.0.1',
    port: readInt(env, 'PORT', 8000, 0, 65535),
    apiKeys: readApiKeys(env),
    controlRateLimit: readInt(env, 'CONTROL_RATE_LIMIT', 60, 1, 1_000_000),
    commandQueueMax: readInt(env, 'COMMAND_QUEUE_MAX', DEFAULT_COMMAND_QUEUE_MAX, 1, 1_000_000),
    heartbeatMs: readInt(env, 'API_HEARTBEAT_MS', 1_000, 50, 60_000),
    controlSecret: readControlSecret(env),
  };
}

/** SERVICE_API_KEY: one key, or several comma-separated during a rotation; each ≥ 32 characters. */
export function readApiKeys(env: NodeJS.ProcessEnv): string[] {
  const raw = env.SERVICE_API_KEY;
  if (!raw || raw.trim() === '') {
    throw new ConfigError(
      'SERVICE_API_KEY is not set. Generate one with `node bin/tcs.mjs keygen` and put it in .env (npm start writes one on first run).',
    );
  }
  const keys = raw
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
  keys.forEach((key, i) => {
    if (key.length < MIN_KEY_LENGTH) {
      throw new ConfigError(
        `SERVICE_API_KEY: key #${i + 1} has ${key.length} characters; at least ${MIN_KEY_LENGTH} are required (use \`node bin/tcs.mjs keygen\`).`,
      );
    }
  });
  return keys;
}

export function readHmacSecret(env: NodeJS.ProcessEnv): string {
  const secret = env.RISK_HMAC_SECRET?.trim();
  if (!secret)
    throw new ConfigError(
      'RISK_HMAC_SECRET is not set. Generate one with `node bin/tcs.mjs keygen` and put it in .env.',
    );
  if (secret.length < MIN_KEY_LENGTH) {
    throw new ConfigError(`RISK_HMAC_SECRET has ${secret.length} characters; at least ${MIN_KEY_LENGTH} are required.`);
  }
  return secret;
}

/**
 * CONTROL_SECRET: the key of the MACs on what crosses the store (src/domain/control-mac.ts), shared
 * by the API, the trading process and the operator's `tcs` commands that write the store.
 */
export function readControlSecret(env: NodeJS.ProcessEnv): string {
  const secret = env.CONTROL_SECRET?.trim();
  if (!secret)
    throw new ConfigError(
      'CONTROL_SECRET is not set. Generate one with `node bin/tcs.mjs keygen` and put it in .env (npm start writes one on first run); ' +
        'the API and the trading process must share it.',
    );
  if (secret.length < MIN_KEY_LENGTH) {
    throw new ConfigError(`CONTROL_SECRET has ${secret.length} characters; at least ${MIN_KEY_LENGTH} are required.`);
  }
  return secret;
}

/** STORE_TIMEOUT_MS: every store call's deadline (each process that opens the store reads it). */
export function readStoreTimeoutMs(env: NodeJS.ProcessEnv): number {
  return readInt(env, 'STORE_TIMEOUT_MS', DEFAULT_STORE_TIMEOUT_MS, 10, 60_000);
}

export function readStoreUrl(env: NodeJS.ProcessEnv): string {
  const url = env.STORE_URL?.trim() || 'sqlite:var/tcs.db';
  if (!/^(sqlite:.+|rediss?:\/\/.+)$/.test(url)) {
    throw new ConfigError('STORE_URL must be sqlite:<path> or redis://host:port/db');
  }
  return url;
}

const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration for a variable whose name carries no unit: a positive number and a unit, `s`, `m`, `h`
 * or `d` (`90m`, `24h`, `1.5d`), as the candle timeframes are written (`15m`, `1h`). A bare number
 * is refused rather than guessed at (seconds? hours?). Returns whole milliseconds.
 */
export function readDuration(
  env: NodeJS.ProcessEnv,
  name: string,
  fallbackMs: number,
  minMs: number,
  maxMs: number,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallbackMs;
  const match = /^(\d+(?:\.\d+)?)\s*([smhd])$/.exec(raw);
  if (!match) {
    throw new ConfigError(`${name} must be a duration such as 30m, 24h or 7d (units s, m, h, d), got "${raw}"`);
  }
  const ms = Math.round(Number(match[1]) * DURATION_UNITS[match[2]!]!);
  if (ms < minMs || ms > maxMs) {
    throw new ConfigError(
      `${name} must be between ${formatDuration(minMs)} and ${formatDuration(maxMs)}, got "${raw}"`,
    );
  }
  return ms;
}

/** The largest unit that divides `ms` (for messages): 86400000 → 1d, 90000 → 90s. */
function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = DURATION_UNITS[unit]!;
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

function readMode(env: NodeJS.ProcessEnv): ExecutionMode {
  const mode = env.EXECUTION_MODE?.trim() || 'paper';
  if (!(EXECUTION_MODES as readonly string[]).includes(mode)) {
    throw new ConfigError(`EXECUTION_MODE must be one of ${EXECUTION_MODES.join(', ')}, got "${mode}"`);
  }
  return mode as ExecutionMode;
}

function readLogLevel(env: NodeJS.ProcessEnv): string {
  const level = env.LOG_LEVEL?.trim() || 'info';
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}, got "${level}"`);
  return level;
}

function wrap<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new ConfigError(
      (err as Error).message.startsWith(name) ? (err as Error).message : `${name}: ${(err as Error).message}`,
    );
  }
}
