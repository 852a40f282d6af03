/**
 * The candle timeframes the data format allows (those exchanges publish and ccxt names), and the
 * conversions between their names and milliseconds.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const TIMEFRAMES: Readonly<Record<string, number>> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '6h': 6 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': 24 * HOUR,
};

/** The name of a timeframe of `ms`, or undefined when no allowed timeframe is that long. */
export function timeframeName(ms: number): string | undefined {
  return Object.keys(TIMEFRAMES).find((name) => TIMEFRAMES[name] === ms);
}

export const TIMEFRAME_LIST = Object.keys(TIMEFRAMES).join(', ');
