/**
 * Risk limits: the numbers the four guards enforce, their defaults, and parsing from the
 * environment. One bad variable stops startup with a message naming it, because trading on a
 * silently defaulted limit is worse than not trading.
 */

export interface RiskLimits {
  /** Largest tolerated fall of NAV from its peak, as a fraction of the peak, in (0, 1]. */
  maxDrawdown: number;
  /**
   * Largest gross notional of all positions after the order, Σ |notional| (longs and shorts both
   * count), as a multiple of NAV (> 0).
   */
  maxLeverage: number;
  /** Largest order notional as a fraction of the recent traded notional (volume × last), in (0, 1]. */
  maxVolumeFraction: number;
  /** Largest order quantity as a fraction of the visible book depth it would take, in (0, 1]. */
  maxDepthFraction: number;
  /** Largest |position notional| in one symbol after the order, as a multiple of NAV (> 0). */
  maxSymbolExposure: number;
  /**
   * Largest net directional exposure after the order, |Σ signed notional| over all positions (longs
   * minus shorts, so a hedged book nets out), as a multiple of NAV (> 0). Gross is `maxLeverage`'s job.
   */
  maxTotalExposure: number;
}

/**
 * Conservative desk defaults: stop adding risk after a 10 % drawdown from peak; at most 3× gross
 * leverage; an order at most 5 % of recent traded notional and 25 % of the visible depth on the side
 * it takes; at most 0.5× NAV in one symbol and 1.5× NAV net (long minus short) over all.
 */
export const DEFAULT_RISK_LIMITS: Readonly<RiskLimits> = Object.freeze({
  maxDrawdown: 0.1,
  maxLeverage: 3,
  maxVolumeFraction: 0.05,
  maxDepthFraction: 0.25,
  maxSymbolExposure: 0.5,
  maxTotalExposure: 1.5,
});

interface LimitSpec {
  variable: string;
  /** true: in (0, 1]; false: any positive number. */
  fraction: boolean;
}

/** The environment variable behind each limit. */
export const RISK_LIMIT_VARIABLES: Readonly<Record<keyof RiskLimits, LimitSpec>> = Object.freeze({
  maxDrawdown: { variable: 'RISK_MAX_DRAWDOWN', fraction: true },
  maxLeverage: { variable: 'RISK_MAX_LEVERAGE', fraction: false },
  maxVolumeFraction: { variable: 'RISK_MAX_VOLUME_FRACTION', fraction: true },
  maxDepthFraction: { variable: 'RISK_MAX_DEPTH_FRACTION', fraction: true },
  maxSymbolExposure: { variable: 'RISK_MAX_SYMBOL_EXPOSURE', fraction: false },
  maxTotalExposure: { variable: 'RISK_MAX_TOTAL_EXPOSURE', fraction: false },
});

// Plain decimals only: Number() would also accept "0x10", "Infinity" and "" (as 0).
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Reads the RISK_* variables; unset or blank ones take the default. Throws one Error listing every
 * invalid variable by name, with the value received and the range expected.
 */
export function parseRiskLimits(env: Readonly<Record<string, string | undefined>>): RiskLimits {
  const limits: RiskLimits = { ...DEFAULT_RISK_LIMITS };
  const problems: string[] = [];
  for (const key of Object.keys(RISK_LIMIT_VARIABLES) as (keyof RiskLimits)[]) {
    const { variable, fraction } = RISK_LIMIT_VARIABLES[key];
    const raw = env[variable]?.trim();
    if (raw === undefined || raw === '') continue;
    const value = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
    if (!inRange(value, fraction)) {
      problems.push(`${variable} must be ${rangeText(fraction)}, got ${JSON.stringify(raw)}`);
      continue;
    }
    limits[key] = value;
  }
  if (problems.length > 0) throw new Error(`invalid risk limits: ${problems.join('; ')}`);
  return limits;
}

/**
 * Throws a RangeError when limits built in code are out of range. The guards compare with `<=`, and
 * a NaN limit would make some comparisons pass, so bad limits must never reach them.
 */
export function assertRiskLimits(limits: RiskLimits): void {
  const problems: string[] = [];
  for (const key of Object.keys(RISK_LIMIT_VARIABLES) as (keyof RiskLimits)[]) {
    const { fraction } = RISK_LIMIT_VARIABLES[key];
    if (!inRange(limits[key], fraction)) problems.push(`${key} must be ${rangeText(fraction)}, got ${limits[key]}`);
  }
  if (problems.length > 0) throw new RangeError(`invalid risk limits: ${problems.join('; ')}`);
}

function inRange(value: number, fraction: boolean): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && (!fraction || value <= 1);
}

function rangeText(fraction: boolean): string {
  return fraction ? 'a number in (0, 1]' : 'a number > 0';
}
