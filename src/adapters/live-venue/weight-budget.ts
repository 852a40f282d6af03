/**
 * The exchange account's request-weight budget (issue 32, item 3), pure arithmetic for the request
 * gate (./request-gate.ts). An exchange such as Binance USDⓈ-M weighs every request, reads included,
 * per IP over the calendar minute of its clock, up to a limit (the profile's `weights`:
 * src/adapters/exchanges/<id>.ts), and tells the minute's total on every answer; past the limit it
 * answers 429, and a client that keeps coming is banned (418). The budget keeps the last reported total, adds the
 * weight of requests still in flight (not yet in any total), and says whether one more may go:
 *
 * - reads and openings only up to OPEN_FRACTION of the limit;
 * - closes and cancels (reduce-only orders, cancels: what a kill and a stop need) up to the limit,
 *   so the last part of the minute is theirs and polling can never starve them.
 *
 * A request held back is refused at once (the gate throws RequestWithheldError, `rate_limited`), not
 * delayed: a read queued until the minute rolls would deliver data up to a minute old, and queued
 * reads would pile up in front of the next cycle's. The refusal says when the window rolls.
 * The window is a calendar minute: `wallNow` (the exchange's time as well as the caller knows it)
 * names the minute, no duration is measured with it.
 */

import { exchangeProfile, SUPPORTED_EXCHANGES } from '../exchanges/registry.js';

const MINUTE = 60_000;
/** The limit until the gate sets the client's exchange's (its profile, then the exchange's answer): the first supported exchange's. */
const DEFAULT_LIMIT = exchangeProfile(SUPPORTED_EXCHANGES[0]!).weights.defaultLimitPerMinute;
/** The part of the minute's weight reads and openings may use; the rest is kept for closes and cancels. */
const OPEN_FRACTION = 0.8;

/** Whether a request reduces risk (a cancel, a reduce-only or close-position order) or is anything else. */
type RequestPriority = 'close' | 'other';

interface WeightBudget {
  /** The exchange's limit per minute (exchangeInfo `rateLimits`, REQUEST_WEIGHT). */
  setLimit(limit: number): void;
  /** An answer's X-MBX-USED-WEIGHT-1M, received at `wallNow`. */
  observe(used: number, wallNow: number): void;
  /**
   * Whether a request of `weight` may go now: null (it may, and its weight is counted as in flight
   * until `settle`), or why not and how long until the window rolls.
   */
  admit(weight: number, priority: RequestPriority, wallNow: number): { reason: string; waitMs: number } | null;
  /** A request admitted with `weight` has been answered (or failed): its weight is in the next total. */
  settle(weight: number): void;
  /**
   * The minute's weight now (used and in flight), the limit, and which priorities it holds: those
   * past their cap, or refused once already this minute (a request heavier than what is left).
   */
  usage(wallNow: number): { used: number; limit: number; holding: 'none' | 'other' | 'all' };
}

export function createWeightBudget(): WeightBudget {
  let limit = DEFAULT_LIMIT;
  /** The calendar minute (epoch minutes) `used` belongs to. */
  let minute = Number.NEGATIVE_INFINITY;
  let used = 0;
  /** Weight of requests sent and not answered: no total the exchange told includes them yet. */
  let inFlight = 0;
  /** The calendar minute in which a request of each priority was last refused. */
  const refusedIn: Record<RequestPriority, number> = {
    close: Number.NEGATIVE_INFINITY,
    other: Number.NEGATIVE_INFINITY,
  };

  const usedAt = (wallNow: number) => (Math.floor(wallNow / MINUTE) === minute ? used : 0);

  return {
    setLimit(value) {
      if (Number.isFinite(value) && value > 0) limit = value;
    },
    observe(value, wallNow) {
      if (!Number.isFinite(value) || value < 0) return;
      const now = Math.floor(wallNow / MINUTE);
      // Answers can arrive out of order: within a minute the total only grows.
      if (now !== minute) {
        minute = now;
        used = value;
      } else used = Math.max(used, value);
    },
    admit(weight, priority, wallNow) {
      const cap = priority === 'close' ? limit : Math.floor(limit * OPEN_FRACTION);
      const total = usedAt(wallNow) + inFlight;
      if (total + weight <= cap) {
        inFlight += weight;
        return null;
      }
      refusedIn[priority] = Math.floor(wallNow / MINUTE);
      const waitMs = MINUTE - (((wallNow % MINUTE) + MINUTE) % MINUTE);
      const what = priority === 'close' ? 'the whole' : `${OPEN_FRACTION * 100} % of the`;
      return {
        waitMs,
        reason:
          `the request weight budget is spent (${total} used or in flight + ${weight} > ${what} ` +
          `${limit} a minute; the rest is kept for closes and cancels); the minute rolls in ${Math.ceil(waitMs / 1000)} s`,
      };
    },
    settle(weight) {
      inFlight = Math.max(0, inFlight - weight);
    },
    usage(wallNow) {
      const total = usedAt(wallNow) + inFlight;
      const now = Math.floor(wallNow / MINUTE);
      const holding =
        total >= limit || refusedIn.close === now
          ? 'all'
          : total >= Math.floor(limit * OPEN_FRACTION) || refusedIn.other === now
            ? 'other'
            : 'none';
      return { used: total, limit, holding };
    },
  };
}

/**
 * A request's weight by the first supported exchange's table (ccxt's cost, raised where ccxt rounds
 * down): the gate weighs by each client's own profile; this name stays for the unit test that reads it.
 */
export const binanceWeight = exchangeProfile(SUPPORTED_EXCHANGES[0]!).weights.weigh;
