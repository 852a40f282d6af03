/**
 * What one answer of an exchange says about the request rate or the clock, read by the exchange's
 * profile (`readAnswer`) so that the request gate and the clock watch (src/adapters/live-venue/
 * request-gate.ts, exchange-clock.ts) stay exchange-neutral: Binance says "too many" with HTTP 429
 * and bans with 418, Bybit says "too many" with HTTP 200 and retCode 10006 and bans with a bare
 * 403; Binance refuses a stale timestamp with -1021 under HTTP 400, Bybit with 10002 under HTTP 200.
 * Every answer is read, whatever its status.
 */

export interface AnswerVerdict {
  /** `rate_limited`: wait, then go on; `banned`: the IP is banned (a halt); `clock`: a timestamp refused. */
  kind: 'rate_limited' | 'banned' | 'clock';
  /** How the exchange said it, for people: `429`, `418`, `retCode 10006`, `403`. */
  label: string;
  /**
   * The wait the answer gave as a duration, seconds (Retry-After; Bybit's reset time less the
   * answer's own time), or null. Preferred: a duration needs no agreement between clocks.
   */
  retryAfterS: number | null;
  /** The end of the wait the answer named, epoch ms (the exchange's clock), or null. */
  untilWall: number | null;
  /** The wait when the answer names none, ms (the exchange's documented shortest). */
  fallbackMs: number;
}

/** One header's value by its lower-case name (ccxt hands them capitalised), or undefined. */
export function headerValue(headers: unknown, name: string): string | undefined {
  for (const [key, value] of Object.entries((headers ?? {}) as Record<string, unknown>))
    if (key.toLowerCase() === name && value !== undefined && value !== null) return String(value);
  return undefined;
}

/** Retry-After in seconds, or null when absent or not a number of seconds. */
export function retryAfterSeconds(headers: unknown): number | null {
  const raw = headerValue(headers, 'retry-after');
  const seconds = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

const BANNED_UNTIL = /banned until (\d{12,})/;

/**
 * The plain HTTP reading (Binance's, and a bare client's of no known exchange): 429 asks to wait
 * (Retry-After, else a second), 418 bans the IP (Retry-After, else the end named in the body as
 * "banned until <epoch ms>", else `banFallbackMs`).
 */
export function httpRateVerdict(
  status: number,
  headers: unknown,
  body: string,
  banFallbackMs = 120_000,
): AnswerVerdict | null {
  if (status !== 429 && status !== 418) return null;
  const until = BANNED_UNTIL.exec(body)?.[1];
  return {
    kind: status === 418 ? 'banned' : 'rate_limited',
    label: String(status),
    retryAfterS: retryAfterSeconds(headers),
    untilWall: until === undefined ? null : Number(until),
    fallbackMs: status === 418 ? banFallbackMs : 1_000,
  };
}
