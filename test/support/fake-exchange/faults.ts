/**
 * The faults a test can tell the fake exchange to inject, each a switch with a count of requests it
 * applies to, each answered in the words of the exchange the fake speaks (./fault-replies.ts;
 * Binance's described here, the dialect's own where it has them):
 * - 429 (rate limit) and 418 (IP ban), with Retry-After and Binance's -1003 bodies;
 * - 5xx bursts, either refused before anything happened (-1001 "Internal error") or carried out
 *   first and then answered with an error (-1007, "execution status unknown"), as Binance's 503
 *   can be;
 * - a request carried out but never answered (an order accepted, its acknowledgement lost);
 * - order lookups answering -2013 "Order does not exist." for an order that does exist;
 * - silence: every request accepted and none answered, until resumed;
 * - new orders refused with a given Binance error (-2027, -2028, -4131, ...) whose conditions (leverage
 *   brackets, the counterparty's book against PERCENT_PRICE) the fake does not model.
 * - a 503 storm: a seeded share of requests refused -1001 (storm.ts), until calmed;
 * - slowness: every request carried out and answered 2–5 s (any range) after it arrives, until calmed.
 * Partial fills, foreign orders and positions changed behind the system's back belong to the
 * venue (venue.ts), which owns the orders and the account.
 */
import { errors } from './binance-errors.js';
import type { BinanceError } from './binance-errors.js';
import { BINANCE_FAULT_REPLIES } from './fault-replies.js';
import type { FaultReplies } from './fault-replies.js';
import { seededRandom } from '../../../src/domain/seeded-random.js';
import { Storm } from './storm.js';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Which request a timed ban begins with: the next one, or the next signed or public one. */
type BanStart = 'any' | 'signed' | 'public';

export class Faults {
  /** `replies`: how the exchange the fake speaks words each fault. */
  constructor(private readonly replies: FaultReplies = BINANCE_FAULT_REPLIES) {}

  /** Accept every request and answer none (the existing fake's hang()/resume()). */
  silent = false;
  private limited = { count: 0, retryAfter: 1, answered: 0 };
  private banned = { count: 0, retryAfter: 120 };
  /** A ban by time, as Binance bans an IP: every request until `until` (the fake's clock) is a 418. */
  private timedBan: { seconds: number; until: number | null; startsOn: BanStart } | null = null;
  private banAnswers = { public: 0, signed: 0 };
  /** Whether the request being answered is signed (the account's own, not public market data). */
  private signedRequest = false;
  /** When (performance.now() of this process) the last request answered 418 arrived. */
  private lastBanArrival: number | null = null;
  private failing: {
    count: number;
    status: number;
    executed: boolean;
    only: { method: string; pathname: string } | null;
  } = {
    count: 0,
    status: 503,
    executed: false,
    only: null,
  };
  private unanswered: Array<{ method: string; pathname: string; count: number; withheld?: () => void }> = [];
  private lookups = 0;
  private refusals: { count: number; error: () => BinanceError } = { count: 0, error: errors.internal };
  private weather: Storm | null = null;

  /** From now on, each request (or each signed one) is refused 503 -1001 with probability `rate` (seeded). */
  storm(rate: number, seed = 1, signedOnly = false): Storm {
    this.weather = new Storm(rate, seed, signedOnly, () => this.replies.serverError(503, Date.now()));
    return this.weather;
  }

  /** Ends the storm. */
  calm(): void {
    this.weather = null;
    this.slowness = null;
  }

  private slowness: { min: number; max: number; draw: () => number } | null = null;

  /**
   * From now on every request is carried out and answered `minMs`–`maxMs` after it arrives (seeded,
   * uniform): an exchange under load. Until calm().
   */
  slow(minMs: number, maxMs: number, seed = 1): void {
    if (!(minMs >= 0 && maxMs >= minMs)) throw new RangeError(`latency ${minMs}–${maxMs} ms is not a range`);
    this.slowness = { min: minMs, max: maxMs, draw: seededRandom(seed) };
  }

  /** How long the request arriving now waits before it is carried out (ms; 0 when not slow). */
  latency(): number {
    const s = this.slowness;
    return s === null ? 0 : Math.round(s.min + (s.max - s.min) * s.draw());
  }

  /** The next `count` requests get a 429 with Retry-After: `retryAfterSeconds`. */
  rateLimit(count: number, retryAfterSeconds = 1): void {
    this.limited = { ...this.limited, count, retryAfter: retryAfterSeconds };
  }

  /** How many 429 answers were given so far. */
  rateLimited(): number {
    return this.limited.answered;
  }

  /** The next `count` requests get a 418 (the IP banned for `retryAfterSeconds`). */
  ban(count: number, retryAfterSeconds = 120): void {
    this.banned = { count, retryAfter: retryAfterSeconds };
  }

  /**
   * The IP is banned for `seconds` from the next request on: every request until then (on the fake's
   * clock) is answered 418 with the ban's end in Retry-After and in the body, as Binance does.
   * `startsOn: 'signed'` / `'public'`: the ban begins with the next signed (the account's) or public
   * (market data) request instead, the other kind before it answered, so a test knows which of the
   * system's clients learns of the ban first.
   */
  banFor(seconds: number, startsOn: BanStart = 'any'): void {
    this.timedBan = { seconds, until: null, startsOn };
  }

  /**
   * When the last request answered 418 arrived (any: the account's signed ones and public market
   * data alike, since Binance bans the IP), on this (the test's) process's performance.now(): a test
   * compares it with when it saw the client halt, so requests already in flight at the halt (answered
   * 418 a moment later) are told apart from requests sent after it.
   */
  lastBanArrivedAt(): number | null {
    return this.lastBanArrival;
  }

  /** How many 418 answers were given so far: to every request, or only to signed or public ones. */
  bansAnswered(which: 'all' | 'signed' | 'public' = 'all'): number {
    return which === 'all' ? this.banAnswers.public + this.banAnswers.signed : this.banAnswers[which];
  }

  /**
   * The next `count` requests (or only those of `only`'s method and path) get HTTP `status`.
   * `executed`: each is carried out first (an order placed, a cancel done) and only its answer is the
   * error — the caller cannot know which.
   */
  serverErrors(
    count: number,
    status = 503,
    executed = false,
    only: { method: string; pathname: string } | null = null,
  ): void {
    this.failing = { count, status, executed, only };
  }

  private failsHere(method: string, pathname: string): boolean {
    const { only } = this.failing;
    return this.failing.count > 0 && (only === null || (only.method === method && only.pathname === pathname));
  }

  /**
   * The next `count` `method` requests to `pathname` are carried out and never answered; `withheld`
   * is told each time an answer is withheld (the request has arrived: its client's timer is running).
   */
  neverAnswer(method: string, pathname: string, count = 1, withheld?: () => void): void {
    this.unanswered.push({ method, pathname, count, ...(withheld ? { withheld } : {}) });
  }

  /** The next `count` order lookups (GET /fapi/v1/order) answer -2013 whether or not the order exists. */
  unknownOrders(count: number): void {
    this.lookups = count;
  }

  /** The next `count` new orders (POST /fapi/v1/order) are refused with `error`, nothing placed. */
  refuseOrders(count: number, error: () => BinanceError): void {
    this.refusals = { count, error };
  }

  // ---- consulted by the server, one request at a time --------------------------------------

  /** The answer a fault gives before the request is looked at, or null to go on. */
  before(now: number, method = '', pathname = '', signed = false): Reply | null {
    this.signedRequest = signed;
    if (this.limited.count > 0) {
      this.limited.count--;
      this.limited.answered++;
      return this.replies.rateLimited(this.limited.retryAfter, now);
    }
    const starts = this.timedBan?.startsOn;
    if (this.timedBan && (this.timedBan.until !== null || starts === 'any' || (starts === 'signed') === signed)) {
      this.timedBan.until ??= now + this.timedBan.seconds * 1000;
      if (now < this.timedBan.until)
        return this.banAnswer(this.timedBan.until, Math.ceil((this.timedBan.until - now) / 1000), now);
      this.timedBan = null;
    }
    if (this.banned.count > 0) {
      this.banned.count--;
      return this.banAnswer(now + this.banned.retryAfter * 1000, this.banned.retryAfter, now);
    }
    const stormed = this.weather?.answer(signed);
    if (stormed) return stormed;
    if (!this.failing.executed && this.failsHere(method, pathname)) {
      this.failing.count--;
      return this.replies.serverError(this.failing.status, now);
    }
    return null;
  }

  private banAnswer(until: number, retryAfterSeconds: number, now: number): Reply {
    this.banAnswers[this.signedRequest ? 'signed' : 'public']++;
    this.lastBanArrival = performance.now();
    return this.replies.banned(until, retryAfterSeconds, now);
  }

  /** The answer that replaces the one the request earned ('never': no answer at all), or null. */
  after(method: string, pathname: string, now = Date.now()): Reply | 'never' | null {
    const skip = this.unanswered.find((u) => u.method === method && u.pathname === pathname && u.count > 0);
    if (skip) {
      skip.count--;
      skip.withheld?.();
      return 'never';
    }
    if (this.failing.executed && this.failsHere(method, pathname)) {
      this.failing.count--;
      return this.replies.unknownOutcome(this.failing.status, now);
    }
    return null;
  }

  /** Throws the refusal set for this new order, if any (before the order reaches the book). */
  refuseOrder(): void {
    if (this.refusals.count <= 0) return;
    this.refusals.count--;
    throw this.refusals.error();
  }

  /** Whether this order lookup is to be answered "does not exist". */
  forgetLookup(): boolean {
    if (this.lookups <= 0) return false;
    this.lookups--;
    return true;
  }
}
