/**
 * The request weight a minute of live trading needs, against the exchange's budget (issue 32, item 3:
 * at 1 s cycles with 10 symbols ccxt's throttle stretched cycles to 11.5 s and every opening was
 * refused LIQUIDITY_STALE, silently). The configuration check warns, naming the shortest cycle that
 * fits, before a start that could only fall behind. An estimate from Binance USDⓈ-M's published
 * weights and what the system sends (docs/operate/live-trading.md), not a measurement.
 */

/** Binance USDⓈ-M's REQUEST_WEIGHT limit (exchangeInfo `rateLimits`): per IP, per minute. */
const EXCHANGE_LIMIT_PER_MINUTE = 2_400;
/**
 * The part of it a configuration may plan to use: ccxt paces each client at one weight per 50 ms
 * (1,200 a minute) for binanceusdm, so beyond that its throttle stretches the cycles and the data
 * ages; the rest is the margin for retries, the probe and the other client.
 */
const BUDGET_FRACTION = 0.5;
/**
 * Per symbol, per cycle: the live venue's countdown re-arm (10), order and trade polls and the
 * reconciliation (about 30 in all, measured against the fake exchange: issue 32, item 8), and the
 * live feed's order book (depth at 10 levels: 2) and 1m candles (klines under 100: 1).
 */
const WEIGHT_PER_SYMBOL_PER_CYCLE = 30 + 2 + 1;
/** The current funding rate (premiumIndex, 1), refreshed once a minute per symbol. */
const FUNDING_WEIGHT_PER_SYMBOL_PER_MINUTE = 1;
/** The income history (fees and funding, 30), read at most once a cycle and every 10 s. */
const INCOME_WEIGHT = 30;
const INCOME_READS_PER_MINUTE_MAX = 6;

export interface RequestBudget {
  weightPerMinute: number;
  budgetPerMinute: number;
  /** One line naming the figures and the fix when the configuration does not fit, else null. */
  warning: string | null;
}

export function requestBudget(options: { symbols: number; cycleMs: number }): RequestBudget {
  const { symbols, cycleMs } = options;
  const budgetPerMinute = EXCHANGE_LIMIT_PER_MINUTE * BUDGET_FRACTION;
  const weightPerMinute = Math.ceil(weightFor(symbols, cycleMs));
  if (weightPerMinute <= budgetPerMinute) return { weightPerMinute, budgetPerMinute, warning: null };
  const fitsAt = shortestFittingCycleS(symbols, budgetPerMinute);
  const fix = fitsAt === null ? 'fewer symbols' : `CYCLE_SECONDS=${fitsAt} or more (or fewer symbols)`;
  return {
    weightPerMinute,
    budgetPerMinute,
    warning:
      `${symbols} symbols at ${cycleMs / 1000} s cycles need about ${n(weightPerMinute)} request weight a minute, ` +
      `more than ${n(budgetPerMinute)} of the exchange's ${n(EXCHANGE_LIMIT_PER_MINUTE)} (ccxt paces a client at ` +
      `${n(budgetPerMinute)} a minute: cycles would stretch and the data age past FEED_STALE_MS, refusing ` +
      `openings LIQUIDITY_STALE): use ${fix}`,
  };
}

function weightFor(symbols: number, cycleMs: number): number {
  const cyclesPerMinute = 60_000 / cycleMs;
  return (
    cyclesPerMinute * symbols * WEIGHT_PER_SYMBOL_PER_CYCLE +
    symbols * FUNDING_WEIGHT_PER_SYMBOL_PER_MINUTE +
    Math.min(cyclesPerMinute, INCOME_READS_PER_MINUTE_MAX) * INCOME_WEIGHT
  );
}

/** Whole seconds, up to an hour; null when even an hour's cycle does not fit. */
function shortestFittingCycleS(symbols: number, budgetPerMinute: number): number | null {
  for (let s = 1; s <= 3_600; s++) if (weightFor(symbols, s * 1000) <= budgetPerMinute) return s;
  return null;
}

function n(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
