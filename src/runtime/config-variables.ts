/**
 * Every environment variable the code reads: its default, the values it accepts and what it does.
 * The source of docs/reference/configuration.md (scripts/reference/configuration-page.ts). A test
 * (test/docs/reference-docs.test.ts) fails when src reads a variable that is not listed here, when
 * one listed here is no longer read, and when .env.example disagrees (a variable missing there, or a
 * default it shows that is not the one listed here). Defaults come from the code's own constants
 * where it has them, so the two cannot disagree.
 */
import { DEFAULT_PAPER_VENUE_CONFIG } from '../adapters/paper-venue/config.js';
import { ORDER_STYLES } from '../domain/allocation.js';
import { FEE_RANGE } from '../domain/fees.js';
import { DEFAULT_SYMBOLS } from '../domain/instruments.js';
import { DEFAULT_MARGIN_RATES } from '../domain/margin.js';
import { FILL_MODELS, MARK_PRICES, SPREAD_MODELS } from '../domain/market.js';
import { DEFAULT_RISK_LIMITS, RISK_LIMIT_VARIABLES } from '../domain/risk/limits.js';
import type { RiskLimits } from '../domain/risk/limits.js';
import { DEFAULT_NO_TRADE_BAND, DEFAULT_RISK_FRACTION } from '../domain/sizing.js';
import { DEFAULT_COMMAND_QUEUE_MAX } from '../ports/command-queue.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../ports/store.js';
import { DEFAULT_STRATEGIES } from '../strategies/registry.js';
import { EXECUTION_MODES } from './config.js';
import { profiles } from '../adapters/exchanges/registry.js';
import { DEFAULT_AUDIT_ARCHIVE_URL, DEFAULT_AUDIT_RETAIN } from './audit-archive.js';

/** The exchanges whose API keys carry a passphrase (their profiles say so), as the help lists them. */
const PASSPHRASE_EXCHANGES = profiles()
  .filter((p) => p.passphrase)
  .map((p) => `\`${p.id}\``)
  .join(', ');

export type ConfigSection =
  | 'API'
  | 'Store'
  | 'Trading cycle and market data'
  | 'Live trading'
  | 'Strategies, arbitration and sizing'
  | 'Risk limits and order approval'
  | 'Protective exits'
  | 'Paper venue'
  | 'Failing closed'
  | 'Diagnostics'
  | 'Shell'
  | 'Tests';

export interface ConfigVariable {
  name: string;
  section: ConfigSection;
  /** The value used when unset or blank, exactly as it would be written; null: none (required, off or empty). */
  default: string | null;
  /** What it accepts. */
  allowed: string;
  meaning: string;
  /** The value .env.example shows when it shows an example rather than the default. */
  example?: string;
  /** False for what .env.example leaves out on purpose (shell variables, test hooks). */
  inEnvExample: boolean;
}

type Entry = Omit<ConfigVariable, 'inEnvExample'> & { inEnvExample?: boolean };

const RISK_LIMIT_MEANINGS: { readonly [K in keyof RiskLimits]: string } = {
  maxDrawdown:
    'Largest fall of NAV from its peak (over `RISK_DRAWDOWN_WINDOW`) before no new risk is added, as a fraction of the peak.',
  maxLeverage:
    'Largest gross notional of all positions (longs and shorts both count) as a multiple of NAV; × the highest initial margin rate must be ≤ 1.',
  maxVolumeFraction: 'Largest order notional as a fraction of the recent traded notional (volume × last).',
  maxDepthFraction: 'Largest order quantity as a fraction of the visible book depth it would take.',
  maxSymbolExposure: 'Largest |position notional| in one symbol as a multiple of NAV.',
  maxTotalExposure: 'Largest net directional exposure (longs minus shorts) as a multiple of NAV.',
};

const riskLimits: Entry[] = (Object.keys(RISK_LIMIT_VARIABLES) as (keyof RiskLimits)[]).map((key) => ({
  name: RISK_LIMIT_VARIABLES[key].variable,
  section: 'Risk limits and order approval',
  default: String(DEFAULT_RISK_LIMITS[key]),
  allowed: RISK_LIMIT_VARIABLES[key].fraction ? 'plain decimal in (0, 1]' : 'plain decimal > 0',
  meaning: RISK_LIMIT_MEANINGS[key],
}));

const ENTRIES: Entry[] = [
  // API
  {
    name: 'SERVICE_API_KEY',
    section: 'API',
    default: null,
    allowed: 'required; ≥ 32 characters each, comma-separated during a rotation',
    meaning:
      'Secret. API key(s) that authenticate control calls (`node bin/tcs.mjs keygen`); the first `npm start` writes one.',
  },
  {
    name: 'HOST',
    section: 'API',
    default: '127.0.0.1',
    allowed: 'an interface address',
    meaning: 'Interface the API listens on; 0.0.0.0 listens on every interface.',
  },
  {
    name: 'PORT',
    section: 'API',
    default: '8000',
    allowed: 'whole number 0–65535',
    meaning: 'TCP port of the API (0 = any free port).',
  },
  {
    name: 'CONTROL_RATE_LIMIT',
    section: 'API',
    default: '60',
    allowed: 'whole number 1–1000000',
    meaning: 'Control POSTs allowed per API key per minute (the kill switch is exempt).',
  },
  {
    name: 'COMMAND_QUEUE_MAX',
    section: 'API',
    default: String(DEFAULT_COMMAND_QUEUE_MAX),
    allowed: 'whole number 1–1000000',
    meaning:
      'Commands (cancel-all, deleverage, flatten) that may wait for the trading process at once; past it another is refused with 503 `TCS_COMMAND_QUEUE_FULL` (the kill switch is exempt).',
  },
  {
    name: 'API_HEARTBEAT_MS',
    section: 'Failing closed',
    default: '1000',
    allowed: 'whole number 50–60000',
    meaning: 'How often the API writes its heartbeat for the trading process, in milliseconds.',
  },
  // Store
  {
    name: 'STORE_URL',
    section: 'Store',
    default: 'sqlite:var/tcs.db',
    allowed: '`sqlite:<path>` or `redis://[:password@]host:port/db[?prefix=tcs:]` (`rediss://` for TLS)',
    meaning: 'Where control state, events and the audit trail live; shared by the API, the trading process and `tcs`.',
  },
  {
    name: 'STORE_TIMEOUT_MS',
    section: 'Store',
    default: String(DEFAULT_STORE_TIMEOUT_MS),
    allowed: 'whole number 10–60000',
    meaning:
      'Deadline of every store command (Redis command timeout; how long SQLite waits for another process’s lock, from timers); past it the API answers 503 and the trading process halts.',
  },
  {
    name: 'AUDIT_RETAIN',
    section: 'Store',
    default: DEFAULT_AUDIT_RETAIN,
    allowed: 'a number of entries (e.g. `10080`) or an age: `<n>m`, `<n>h`, `<n>d`',
    meaning:
      'How much of the audit trail the store keeps; `tcs audit archive` archives older entries to `AUDIT_ARCHIVE_URL`, then trims them (docs/operate/retention.md).',
  },
  {
    name: 'AUDIT_ARCHIVE_URL',
    section: 'Store',
    default: DEFAULT_AUDIT_ARCHIVE_URL,
    allowed: '`file:<directory>` (gzip JSON-lines segments) or `postgres://user[:password]@host[:port]/database`',
    meaning:
      "Where `tcs audit archive` writes the entries it trims; `tcs audit verify` walks it and the store as one chain; the API reads it (read-only) to page `/reports/decisions` below the store's window.",
  },
  {
    name: 'NOTIFY_WEBHOOK_URLS',
    section: 'Store',
    default: null,
    allowed:
      'http(s) URLs separated by spaces, commas or `;`; optional `discord:`/`slack:` prefix and `?kinds=fill,kill`',
    meaning:
      'Secret (URLs may hold tokens). Where `tcs notify` posts the chosen audit events (docs/operate/notifications.md).',
    example: 'https://hooks.example.com/tcs',
  },
  {
    name: 'NOTIFY_WEBHOOK_SECRET',
    section: 'Store',
    default: null,
    allowed: 'required by `tcs notify`; ≥ 32 characters',
    meaning: 'Secret. The HMAC-SHA256 key of the `x-tcs-signature` header receivers check.',
  },
  {
    name: 'NOTIFY_STORE_FAULT_MS',
    section: 'Store',
    default: '15000',
    allowed: '0–3600000',
    meaning:
      'How long (monotonic) `tcs notify` must fail to read or write its store before it sends `store_fault` to every target that takes it, straight from memory (docs/operate/notifications.md).',
  },
  {
    name: 'NOTIFY_DAILY_AT',
    section: 'Store',
    default: '00:00',
    allowed: '`HH:MM` (UTC) or `off`',
    meaning:
      "When `tcs notify` sends the previous UTC day's `daily_summary` (fills, realised PnL, fees, NAV, halts, kills, from the audit trail), once per day.",
  },
  {
    name: 'TELEGRAM_BOT_TOKEN',
    section: 'Store',
    default: null,
    allowed: '`<bot id>:<secret>` as BotFather gives it; unset: no Telegram',
    meaning:
      'Secret. `tcs notify` runs this Telegram bot: notifications to TELEGRAM_CHAT_IDS and their commands (docs/operate/notifications.md). Its commands need CONTROL_SECRET.',
  },
  {
    name: 'TELEGRAM_CHAT_IDS',
    section: 'Store',
    default: null,
    allowed: 'chat ids (digits, groups negative) separated by commas or spaces; required with TELEGRAM_BOT_TOKEN',
    meaning:
      'The only chats the bot notifies and takes commands from; any other chat is answered nothing and audited as refused.',
    example: '123456789',
  },
  {
    name: 'TELEGRAM_KINDS',
    section: 'Store',
    default: null,
    allowed: 'notification kinds separated by commas (`fill,kill,halt_started,halt_ended` …); unset: all',
    meaning: 'Which notifications the Telegram chats get.',
  },
  {
    name: 'TELEGRAM_API_ROOT',
    section: 'Store',
    default: 'https://api.telegram.org',
    allowed: 'an http(s) URL without a trailing path',
    meaning: 'The Bot API server the bot talks to (a self-hosted one, or a test double).',
  },
  // Trading cycle and market data
  {
    name: 'SYMBOLS',
    section: 'Trading cycle and market data',
    default: DEFAULT_SYMBOLS,
    allowed: 'comma-separated `SYMBOL` or `SYMBOL:perp`/`SYMBOL:spot`, upper case, no duplicates; not empty',
    meaning:
      'Whitelist of what may open; the synthetic market knows BTC/ETH/SOL/BNB/XRPUSDT only. Positions in a symbol removed from the list stay closable.',
  },
  {
    name: 'EXECUTION_MODE',
    section: 'Trading cycle and market data',
    default: 'paper',
    allowed: EXECUTION_MODES.join(', '),
    meaning: 'Execution venue: the paper venue, or a real exchange through ccxt (see Live trading).',
  },
  {
    name: 'CYCLE_SECONDS',
    section: 'Trading cycle and market data',
    default: '60',
    allowed: 'number 0.05–86400',
    meaning: 'Seconds between the end of one cycle and the start of the next; the first starts at once.',
  },
  {
    name: 'MARKET_DATA',
    section: 'Trading cycle and market data',
    default: 'synthetic',
    allowed: '`synthetic`, `file:<dir>` or `live:<ccxt exchange id>`',
    meaning:
      'Market data feed: the seeded synthetic market, a historical replay of a data directory (docs/data-format.md), or an exchange’s public data.',
  },
  {
    name: 'LIVE_EXCHANGE_URL',
    section: 'Trading cycle and market data',
    default: null,
    allowed: 'an http(s) URL',
    meaning: 'Another origin for the live exchange’s REST API (tests, proxies); default the exchange’s own.',
  },
  {
    name: 'FEED_STALE_MS',
    section: 'Trading cycle and market data',
    default: '15000',
    allowed: 'whole number 100–86400000',
    meaning: 'Market data older than this opens no new exposure in its symbol (`LIQUIDITY_STALE`); closes pass.',
  },
  {
    name: 'MARKET_SEED',
    section: 'Trading cycle and market data',
    default: '42',
    allowed: 'whole number 0–2147483647',
    meaning: 'Seed of the synthetic market (same seed, same prices).',
  },
  {
    name: 'SYNTHETIC_CORRELATION',
    section: 'Trading cycle and market data',
    default: '0.8',
    allowed: 'number 0–1',
    meaning: 'Synthetic market: correlation of any two symbols’ returns.',
  },
  {
    name: 'SYNTHETIC_TREND',
    section: 'Trading cycle and market data',
    default: '0',
    allowed: 'number 0–10',
    meaning: 'Synthetic market: demo trend strength (0 = driftless; for demos only).',
  },
  {
    name: 'SYNTHETIC_FUNDING_HALF_LIFE_HOURS',
    section: 'Trading cycle and market data',
    default: '72',
    allowed: 'number 0.1–8760',
    meaning: 'Synthetic market: half-life of the funding level, in hours.',
  },
  {
    name: 'ORDER_STYLE',
    section: 'Trading cycle and market data',
    default: 'market',
    allowed: ORDER_STYLES.join(', '),
    meaning: 'How orders are placed: take liquidity now, or a limit order joining the best quote on its own side.',
  },
  // Live trading
  {
    name: 'EXCHANGE',
    section: 'Live trading',
    default: null,
    allowed: 'a ccxt exchange id, e.g. `binanceusdm`; required when live',
    meaning: 'The exchange `EXECUTION_MODE=live` trades on; `MARKET_DATA` must be `live:` the same exchange.',
  },
  {
    name: 'EXCHANGE_API_KEY',
    section: 'Live trading',
    default: null,
    allowed: 'required when live',
    meaning: 'Secret. The exchange key (trade permission only, no withdrawal); never logged, never stored.',
  },
  {
    name: 'EXCHANGE_API_SECRET',
    section: 'Live trading',
    default: null,
    allowed: 'required when live',
    meaning: 'Secret. The exchange key’s secret; never logged, never stored.',
  },
  {
    name: 'EXCHANGE_API_PASSPHRASE',
    section: 'Live trading',
    default: null,
    allowed: `required when live on an exchange whose keys have one (${PASSPHRASE_EXCHANGES}); ignored elsewhere`,
    meaning: 'Secret. The passphrase chosen when the exchange key was made; never logged, never stored.',
  },
  {
    name: 'EXCHANGE_TESTNET',
    section: 'Live trading',
    default: 'true',
    allowed: 'true, false',
    meaning: 'Trade on the exchange’s testnet; real money needs `false` and `LIVE_MAINNET=confirm`.',
  },
  {
    name: 'LIVE_MAINNET',
    section: 'Live trading',
    default: null,
    allowed: '`confirm`, only with `EXCHANGE_TESTNET=false`',
    meaning: 'The second switch for trading real money on the exchange’s mainnet.',
  },
  {
    name: 'EXCHANGE_URL',
    section: 'Live trading',
    default: null,
    allowed: 'an http(s) URL without credentials',
    meaning: 'Overrides the exchange’s base URL (a proxy, a regional endpoint, a local fake).',
  },
  {
    name: 'EXCHANGE_TIMEOUT_MS',
    section: 'Live trading',
    default: '10000',
    allowed: 'whole number 500–120000',
    meaning: 'Every exchange request’s deadline, in milliseconds.',
  },
  {
    name: 'EXCHANGE_LOSS_HALT_MS',
    section: 'Live trading',
    default: '30000',
    allowed: 'whole number 1000–3600000',
    meaning:
      'How long the exchange may not answer before trading halts (`exchange_unreachable`); it resumes by itself.',
  },
  {
    name: 'EXCHANGE_LEVERAGE',
    section: 'Live trading',
    default: null,
    allowed: 'whole number 1–125',
    meaning:
      'The leverage every traded symbol must have on the exchange, set at start (or checked: `EXCHANGE_SET_LEVERAGE`); unset: whatever the account has.',
  },
  {
    name: 'EXCHANGE_MARGIN_TYPE',
    section: 'Live trading',
    default: null,
    allowed: 'isolated, cross',
    meaning:
      'The margin type every traded symbol must have on the exchange, set at start (or checked: `EXCHANGE_SET_LEVERAGE`); unset: whatever the account has.',
  },
  {
    name: 'EXCHANGE_SET_LEVERAGE',
    section: 'Live trading',
    default: 'true',
    allowed: 'true, false',
    meaning:
      '`false`: the start sets nothing on the exchange and refuses to start when leverage or margin type differ from `EXCHANGE_LEVERAGE` / `EXCHANGE_MARGIN_TYPE`.',
  },
  {
    name: 'EXCHANGE_STOPS',
    section: 'Live trading',
    default: 'true',
    allowed: 'true, false',
    meaning:
      'Rest a close-position stop on the exchange for each open position at the `STOP_LOSS` / `TRAILING_STOP` level, so a position keeps a stop when the process is gone; nothing rests when neither is set.',
  },
  {
    name: 'EXCHANGE_USER_STREAM',
    section: 'Live trading',
    default: 'true',
    allowed: 'true, false',
    meaning:
      "Take fills and order updates from the exchange's user-data stream (a listen key and a WebSocket) and poll a resting order only when the stream cannot vouch for it; `false`: every resting order is polled each cycle.",
  },
  // Strategies, arbitration and sizing
  {
    name: 'STRATEGIES',
    section: 'Strategies, arbitration and sizing',
    default: DEFAULT_STRATEGIES,
    allowed: 'comma-separated built-in names or paths to strategy modules',
    meaning: 'The strategy agents.',
  },
  {
    name: 'STRATEGY_PARAMS',
    section: 'Strategies, arbitration and sizing',
    default: null,
    allowed: 'a JSON object of objects, keyed by `STRATEGIES` entry',
    meaning: 'Parameters per strategy (default `{}`: each strategy’s own defaults); not with `STRATEGY_PARAMS_FILE`.',
  },
  {
    name: 'STRATEGY_PARAMS_FILE',
    section: 'Strategies, arbitration and sizing',
    default: null,
    allowed: 'a path to a file holding that JSON',
    meaning: 'The same parameters from a file (for parameters too long for a variable); not with `STRATEGY_PARAMS`.',
  },
  {
    name: 'AGENT_WEIGHTS',
    section: 'Strategies, arbitration and sizing',
    default: null,
    allowed: '`name=weight` comma-separated, each weight ≥ 0',
    meaning: 'Arbitration weight per agent (score = weight × confidence); an agent not listed weighs 1.',
  },
  {
    name: 'ARBITER_MIN_CONFIDENCE',
    section: 'Strategies, arbitration and sizing',
    default: '0.1',
    allowed: 'number 0–1',
    meaning: 'Signals with a confidence below this are ignored.',
  },
  {
    name: 'ARBITER_MAX_ORDERS',
    section: 'Strategies, arbitration and sizing',
    default: '1',
    allowed: 'whole number 1–100',
    meaning: 'Most orders selected per cycle (at most one per symbol).',
  },
  {
    name: 'RISK_FRACTION',
    section: 'Strategies, arbitration and sizing',
    default: String(DEFAULT_RISK_FRACTION),
    allowed: 'number 0.0001–1',
    meaning: 'Target position at confidence 1, as a fraction of NAV (a sizing setting, not a risk limit).',
  },
  {
    name: 'NO_TRADE_BAND',
    section: 'Strategies, arbitration and sizing',
    default: String(DEFAULT_NO_TRADE_BAND),
    allowed: 'number 0–1',
    meaning: 'Changes of target below this × `RISK_FRACTION` × NAV are not traded; exits always trade.',
  },
  // Risk limits and order approval
  {
    name: 'CONTROL_SECRET',
    section: 'Risk limits and order approval',
    default: null,
    allowed: 'required; ≥ 32 characters',
    meaning:
      'Secret. Key of the MACs on queued commands and control records; the API, the trading process and `tcs` must share it (trust boundary).',
  },
  {
    name: 'RISK_HMAC_SECRET',
    section: 'Risk limits and order approval',
    default: null,
    allowed: 'required by the trading process; ≥ 32 characters',
    meaning: 'Secret. Key the risk engine signs approved orders with and the order manager verifies them with.',
  },
  {
    name: 'TOKEN_TTL_MS',
    section: 'Risk limits and order approval',
    default: '10000',
    allowed: 'whole number 100–3600000',
    meaning: 'How long a signed approval stays valid, in milliseconds.',
  },
  ...riskLimits,
  {
    name: 'RISK_DRAWDOWN_WINDOW',
    section: 'Risk limits and order approval',
    default: '365d',
    allowed: 'a number and a unit `s`, `m`, `h` or `d`; 1m–365d',
    meaning: 'The drawdown is measured from the highest NAV over this rolling window.',
  },
  {
    name: 'CIRCUIT_BREAKER_DRAWDOWN',
    section: 'Risk limits and order approval',
    default: null,
    allowed: 'number 0.001–1; unset: off',
    meaning: 'Trip the kill switch at this drawdown from peak NAV, then flatten every position.',
  },
  // Protective exits
  {
    name: 'STOP_LOSS',
    section: 'Protective exits',
    default: null,
    allowed: 'a fraction of the entry price; unset: off',
    meaning: 'Exit when the bar’s low (high, for a short) reaches entry × (1 − STOP_LOSS).',
  },
  {
    name: 'TAKE_PROFIT',
    section: 'Protective exits',
    default: null,
    allowed: 'a fraction of the entry price; unset: off',
    meaning: 'Exit at entry × (1 + TAKE_PROFIT).',
  },
  {
    name: 'TRAILING_STOP',
    section: 'Protective exits',
    default: null,
    allowed: 'a fraction of the entry price; unset: off',
    meaning: 'Exit at the best price since entry − TRAILING_STOP × entry.',
  },
  {
    name: 'COOLDOWN_AFTER_STOP',
    section: 'Protective exits',
    default: '0',
    example: '15',
    allowed: 'whole number 0–1000000',
    meaning: 'Cycles an agent whose position was stopped out stays out of that symbol.',
  },
  {
    name: 'PROTECTION_PARAMS',
    section: 'Protective exits',
    default: null,
    allowed: 'a JSON object keyed by strategy name (default `{}`)',
    meaning:
      'Per-strategy exits: `stop_loss`, `take_profit`, `trailing_stop` (fraction or null), `cooldown_after_stop`.',
  },
  // Paper venue
  {
    name: 'PAPER_STARTING_CASH',
    section: 'Paper venue',
    default: '100000',
    allowed: 'number 1–1000000000000',
    meaning: 'Cash a brand-new paper account starts with; a restart never resets money.',
  },
  {
    name: 'MARGIN_INITIAL_RATE',
    section: 'Paper venue',
    default: String(DEFAULT_MARGIN_RATES.initial),
    allowed: 'number 0.0001–1, above `MARGIN_MAINTENANCE_RATE`',
    meaning: 'Initial margin of perpetuals, a fraction of notional; an order needing more than is free is refused.',
  },
  {
    name: 'MARGIN_MAINTENANCE_RATE',
    section: 'Paper venue',
    default: String(DEFAULT_MARGIN_RATES.maintenance),
    allowed: 'number 0.0001–1, below `MARGIN_INITIAL_RATE`',
    meaning: 'Maintenance margin of perpetuals: at this equity the venue liquidates (`position_liquidated`).',
  },
  {
    name: 'MARGIN_RATES',
    section: 'Paper venue',
    default: null,
    allowed: '`SYMBOL:initial:maintenance` comma-separated; perpetuals in `SYMBOLS` only',
    meaning: 'Per-symbol margin overrides.',
  },
  {
    name: 'LIQUIDATION_FEE',
    section: 'Paper venue',
    default: '0.005',
    allowed: 'number 0–0.05',
    meaning:
      'Liquidation fee, a fraction of a liquidation close’s notional, on top of the taker fee, paid into the insurance fund.',
  },
  {
    name: 'FEE_MAKER',
    section: 'Paper venue',
    default: String(DEFAULT_PAPER_VENUE_CONFIG.makerFee),
    allowed: `number ${FEE_RANGE.maker.min}–${FEE_RANGE.maker.max} (negative = rebate)`,
    meaning: 'Fee rate of resting limits that fill later, a fraction of notional; a manifest’s per-symbol fee wins.',
  },
  {
    name: 'FEE_TAKER',
    section: 'Paper venue',
    default: String(DEFAULT_PAPER_VENUE_CONFIG.takerFee),
    allowed: `number ${FEE_RANGE.taker.min}–${FEE_RANGE.taker.max}`,
    meaning:
      'Fee rate of market orders and marketable limits, a fraction of notional; a manifest’s per-symbol fee wins.',
  },
  {
    name: 'FILL_MODEL',
    section: 'Paper venue',
    default: 'next_open',
    allowed: FILL_MODELS.join(', '),
    meaning: 'Replays: a market order fills at the next candle’s open, or at the close the strategy saw.',
  },
  {
    name: 'SPREAD_MODEL',
    section: 'Paper venue',
    default: 'derived',
    allowed: SPREAD_MODELS.join(', '),
    meaning:
      'Replays: the spread of the book a candle implies — derived from its range (1 % of high − low, at least a tick), fixed_bps of the close (SPREAD_BPS), or none (bid = ask = the price).',
  },
  {
    name: 'SPREAD_BPS',
    section: 'Paper venue',
    default: null,
    example: '2',
    allowed: 'number 0.01–1000, only with SPREAD_MODEL=fixed_bps',
    meaning: 'Replays: the spread in basis points of the close (2 = 0.02 %), at least one tick.',
  },
  {
    name: 'SLIPPAGE_BPS',
    section: 'Paper venue',
    default: '0',
    allowed: 'number 0–1000',
    meaning:
      'Taker fills (market orders, marketable limits) pay this many bps of their price beyond the book: buys higher, sells lower; a limit never beyond its limit. The risk engine counts it.',
  },
  {
    name: 'MARK_PRICE',
    section: 'Paper venue',
    default: 'mid',
    allowed: MARK_PRICES.join(', '),
    meaning:
      'What positions are marked (valued) at: the book’s mid, or the last price (a replay’s candle close, as a backtester without spread marks).',
  },
  {
    name: 'FILL_VOLUME_SHARE',
    section: 'Paper venue',
    default: String(DEFAULT_PAPER_VENUE_CONFIG.barFills.volumeShare),
    allowed: 'number 0.0001–1',
    meaning: 'Replays: resting limits of a symbol and side fill at most this share of a candle’s volume.',
  },
  {
    name: 'FILL_TOUCH_SHARE',
    section: 'Paper venue',
    default: String(DEFAULT_PAPER_VENUE_CONFIG.barFills.touchShare),
    allowed: 'number 0–1',
    meaning: 'Replays: a limit the candle only touches fills this share of what one traded through would.',
  },
  // Failing closed
  {
    name: 'CONTROL_PLANE_TIMEOUT',
    section: 'Failing closed',
    default: '10',
    allowed: 'number 0–3600 (0 = off)',
    meaning: 'Seconds without an API heartbeat before trading halts (`control_plane_lost`).',
  },
  {
    name: 'STORE_LOSS_HALT_MS',
    section: 'Failing closed',
    default: '3000',
    allowed: 'whole number 100–600000, at most two thirds of `TRADING_LEASE_MS`',
    meaning: 'An unreachable store halts trading and cancels resting orders after this long.',
  },
  {
    name: 'TRADING_LEASE_MS',
    section: 'Failing closed',
    default: '10000',
    allowed: 'whole number 2000–600000',
    meaning: 'The trading lease (one trading process per store), renewed every third of it.',
  },
  {
    name: 'TRADING_LATCH_PATH',
    section: 'Failing closed',
    default: 'var/trading-latch.json',
    allowed: 'a file path (on a volume in containers)',
    meaning: 'The trading process’s memory of its store (identity, highest epoch), kept across restarts.',
  },
  // Diagnostics
  {
    name: 'LOG_LEVEL',
    section: 'Diagnostics',
    default: 'info',
    allowed: 'fatal, error, warn, info, debug, trace, silent',
    meaning: 'Log level of both processes (logs go to stderr).',
  },
  {
    name: 'HEARTBEAT_MS',
    section: 'Diagnostics',
    default: '5000',
    allowed: 'whole number 100–10000',
    meaning: 'Trading heartbeat interval; `/health` calls the process stale after 3 intervals (at least 2 s).',
  },
  {
    name: 'RESTART_MAX_FAILURES',
    section: 'Diagnostics',
    default: '5',
    allowed: 'whole number 1–100',
    meaning:
      '`tcs start` stops everything (exit 1) when a child fails this many times within `RESTART_WINDOW_SECONDS`.',
  },
  {
    name: 'RESTART_WINDOW_SECONDS',
    section: 'Diagnostics',
    default: '60',
    allowed: 'whole number 1–86400',
    meaning: 'The window of `RESTART_MAX_FAILURES`.',
  },
  {
    name: 'STATELY_INSPECT_URL',
    section: 'Diagnostics',
    default: 'ws://localhost:8080',
    allowed: 'a WebSocket URL',
    meaning: 'The Stately inspector, used only with `--inspect`.',
  },
  // Shell: read from the environment, never from .env.
  {
    name: 'USER',
    section: 'Shell',
    default: null,
    allowed: 'set by the shell',
    meaning: '`--reset-kill` and `tcs store adopt` record `operator:$USER@hostname` as the actor.',
    inEnvExample: false,
  },
  {
    name: 'NODE_OPTIONS',
    section: 'Shell',
    default: null,
    allowed: 'Node.js options',
    meaning:
      '`tcs simulate` runs in-process when it already sets a semi-space size (else in a child with a larger one).',
    inEnvExample: false,
  },
  // Tests
  {
    name: 'TEST_REDIS_URL',
    section: 'Tests',
    default: 'redis://127.0.0.1:6379/15',
    allowed: 'a redis:// URL',
    meaning: 'The Redis the Redis adapter tests use (read by the test suite from the shell only).',
  },
  ...(
    [
      [
        'TCS_TEST_EXCHANGE_RATE_LIMIT_MS',
        'ccxt’s throttle per unit of request weight, for tests against the local fake exchange.',
      ],
      ['TCS_TEST_INSPECT_RETRY_MS', 'How long the inspector waits between connection attempts.'],
      ['TCS_TEST_RESTART_BACKOFF_MS', 'The supervisor’s first restart backoff.'],
      ['TCS_TEST_SIM_FLUSH_EVERY', 'How often a simulation commits its run store, in cycles.'],
      ['TCS_TEST_STORE_RETRY_MS', 'How often the trading process retries a lost store.'],
      ['TCS_TEST_SWEEP_FREEZE_AT_CYCLE', 'Makes a sweep worker freeze at this cycle (to test a lost worker).'],
    ] as const
  ).map(([name, meaning]): Entry => ({
    name,
    section: 'Tests',
    default: null,
    allowed: 'test hook',
    meaning: `Test-only: ${meaning}`,
    inEnvExample: false,
  })),
];

export const CONFIG_VARIABLES: readonly ConfigVariable[] = ENTRIES.map((e) => ({ inEnvExample: true, ...e }));
