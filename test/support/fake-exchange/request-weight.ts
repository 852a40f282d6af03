/**
 * Request weight as Binance USDⓈ-M counts it (issue 32, item 3): every request costs its endpoint's
 * published weight (some by `limit`, some more without `symbol`), summed per IP over the calendar
 * minute of the exchange's clock, told on every answer in `X-MBX-USED-WEIGHT-1M`. A request that
 * would pass the minute's REQUEST_WEIGHT limit is answered 429 (-1003) with Retry-After up to the
 * minute's end, and one that keeps coming during that wait gets the IP banned (418), as Binance
 * does. Weights from Binance's USDⓈ-M REST docs (ccxt's `binance` api table carries the same costs,
 * except a few it rounds, e.g. v2/v3 balance and positionRisk, which Binance weighs 5).
 */

const MINUTE = 60_000;
/** Binance's REQUEST_WEIGHT limit for USDⓈ-M (exchangeInfo `rateLimits`). */
const BINANCE_WEIGHT_LIMIT = 2_400;
/** Requests answered 429 in one wait before the IP is banned, and the first ban's length. */
const STRIKES_BEFORE_BAN = 3;
const FIRST_BAN_SECONDS = 120;

/** [upper limit inclusive, weight] steps, Binance's "by limit" tables. */
type ByLimit = Array<[number, number]>;
const DEPTH: ByLimit = [
  [50, 2],
  [100, 5],
  [500, 10],
  [1000, 20],
];
const KLINES: ByLimit = [
  [99, 1],
  [499, 2],
  [1000, 5],
  [Infinity, 10],
];

/** Weight per `METHOD /path`; a number, or one by the query. Anything unlisted weighs 1. */
const WEIGHTS: Record<string, number | ((q: URLSearchParams) => number)> = {
  'GET /fapi/v1/depth': (q) => byLimit(DEPTH, Number(q.get('limit') ?? 500)),
  'GET /fapi/v1/klines': (q) => byLimit(KLINES, Number(q.get('limit') ?? 500)),
  'GET /fapi/v1/premiumIndex': (q) => (q.has('symbol') ? 1 : 10),
  'GET /fapi/v1/ticker/24hr': (q) => (q.has('symbol') ? 1 : 40),
  'GET /fapi/v1/openOrders': (q) => (q.has('symbol') ? 1 : 40),
  'GET /fapi/v1/openAlgoOrders': (q) => (q.has('symbol') ? 1 : 40),
  'GET /fapi/v1/allOrders': 5,
  'GET /fapi/v1/userTrades': 5,
  'GET /fapi/v1/income': 30,
  'GET /fapi/v2/balance': 5,
  'GET /fapi/v3/balance': 5,
  'GET /fapi/v2/account': 5,
  'GET /fapi/v3/account': 5,
  'GET /fapi/v2/positionRisk': 5,
  'GET /fapi/v3/positionRisk': 5,
  'GET /fapi/v1/positionSide/dual': 30,
  'GET /fapi/v1/multiAssetsMargin': 30,
  'GET /fapi/v1/symbolConfig': 5,
  'GET /fapi/v1/accountConfig': 5,
  'POST /fapi/v1/countdownCancelAll': 10,
  'POST /fapi/v1/batchOrders': 5,
  'PUT /fapi/v1/batchOrders': 5,
};

export function requestWeight(method: string, pathname: string, query: URLSearchParams): number {
  const w = WEIGHTS[`${method} ${pathname}`];
  return w === undefined ? 1 : typeof w === 'number' ? w : w(query);
}

function byLimit(steps: ByLimit, limit: number): number {
  return (steps.find(([upTo]) => limit <= upTo) ?? steps[steps.length - 1]!)[1];
}

/** What the meter says of one request: sent on (with the minute's weight), refused 429, or ban the IP. */
type Metered =
  | { verdict: 'ok'; used: number }
  | { verdict: '429'; used: number; retryAfterS: number }
  | { verdict: 'ban'; seconds: number };

/** The weight used per calendar minute (the exchange's clock), and the 429 then 418 it answers. */
export class WeightMeter {
  private minute = Number.NaN;
  private used = 0;
  /** Weight of every request counted, all minutes: what a benchmark reads. */
  total = 0;
  /** 429s answered for weight. */
  refused = 0;
  /** Requests that came during the current 429's wait. */
  private strikes = 0;
  private limitedUntil = Number.NEGATIVE_INFINITY;

  constructor(readonly limit: number = BINANCE_WEIGHT_LIMIT) {}

  /** Counts one request of `weight` arriving at `now` (the exchange's epoch ms). */
  charge(now: number, weight: number): Metered {
    const minute = Math.floor(now / MINUTE);
    if (minute !== this.minute) {
      this.minute = minute;
      this.used = 0;
    }
    const retryAfterS = Math.ceil(((minute + 1) * MINUTE - now) / 1000);
    if (now < this.limitedUntil) {
      // Told to wait and did not: a few more and the IP is banned.
      if (++this.strikes >= STRIKES_BEFORE_BAN) {
        this.limitedUntil = Number.NEGATIVE_INFINITY;
        this.strikes = 0;
        return { verdict: 'ban', seconds: FIRST_BAN_SECONDS };
      }
      this.refused++;
      return { verdict: '429', used: this.used, retryAfterS };
    }
    if (this.used + weight > this.limit) {
      this.limitedUntil = (minute + 1) * MINUTE;
      this.strikes = 0;
      this.refused++;
      return { verdict: '429', used: this.used, retryAfterS };
    }
    this.used += weight;
    this.total += weight;
    return { verdict: 'ok', used: this.used };
  }

  /** The weight used in the minute of `now`. */
  usedAt(now: number): number {
    return Math.floor(now / MINUTE) === this.minute ? this.used : 0;
  }
}
