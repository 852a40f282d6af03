/**
 * What a perpetual's funding looks like at a moment of the replay: the rate announced for the next
 * settlement and when that settlement is, and the settlement that has just happened.
 *
 * Payment and prediction are kept apart. `settled` lists the settlements since the previous moment
 * asked (after it, up to and including this one; on the first ask, the latest one only), each with
 * the rate it actually had: the paper venue pays each settlement at that rate, as the exchange did
 * (issue 22: paying the announced rate paid every settlement at the previous one's rate). A bar
 * longer than the funding interval (daily candles, 8 h or 1 h funding) holds several, each paid. It
 * is past information, so it exposes nothing early. `rate` is what a strategy sees of the next
 * settlement, under one of two policies:
 *
 *  * 'last-settled' (default): the most recent settled rate at or before the moment, taken as the
 *    prediction of the next one. Nothing from the future reaches a strategy; 0 before the file's
 *    first settlement.
 *  * 'next-settlement': the rate the next settlement actually had, so strategies see each rate up
 *    to one interval early (exchanges publish a converging estimate, not the final number).
 *
 * Either way the payments are the same. After the file's last settlement the times continue on its
 * last interval (8 h when the file has a single settlement) with the last rate.
 */
import type { FundingSeries } from './series.js';

export type FundingPolicy = 'last-settled' | 'next-settlement';

const DEFAULT_INTERVAL_MS = 8 * 3_600_000;

/** A settlement: its (unshifted) time and the rate it was paid at. */
export interface Settlement {
  ts: number;
  rate: number;
}

export interface FundingAt {
  /** The rate announced for the next settlement (see the policies above). */
  rate: number;
  nextTs: number;
  /** The settlements since the previous ask, oldest first (the latest only on the first ask). */
  settled: readonly Settlement[];
}

export interface FundingSchedule {
  /** The funding at unshifted time `t`; `t` never goes backwards between calls. */
  at(t: number): FundingAt;
}

const NONE: readonly Settlement[] = Object.freeze([]);

export function createFundingSchedule(series: FundingSeries, policy: FundingPolicy): FundingSchedule {
  const { ts, rate, count } = series;
  const interval = count >= 2 ? ts[count - 1]! - ts[count - 2]! : DEFAULT_INTERVAL_MS;
  let next = 0; // index of the first settlement after the last `t` seen
  let previous: number | null = null; // the last `t` seen
  /** The file's settlements from index `from` up to (not including) `next`. */
  const filed = (from: number): Settlement[] => {
    const out: Settlement[] = [];
    for (let i = from; i < next; i += 1) out.push({ ts: ts[i]!, rate: rate[i]! });
    return out;
  };
  /** The settlements continued past the file's last one (its interval, its rate), in (after, t]. */
  const continued = (after: number, t: number): Settlement[] => {
    const last = ts[count - 1]!;
    const out: Settlement[] = [];
    const first = Math.max(1, Math.floor((after - last) / interval) + 1);
    for (let k = first; last + k * interval <= t; k += 1) out.push({ ts: last + k * interval, rate: rate[count - 1]! });
    return out;
  };
  return {
    at(t) {
      const from = next;
      while (next < count && ts[next]! <= t) next += 1;
      const after = previous;
      previous = t;
      let settled = after === null ? filed(Math.max(0, next - 1)) : next > from ? filed(from) : NONE;
      if (next >= count && count > 0) {
        const more = continued(after ?? t - interval, t);
        if (more.length > 0) settled = after === null ? more.slice(-1) : [...settled, ...more];
      }
      if (next < count) {
        const lastSettled = next > 0 ? rate[next - 1]! : 0;
        return { rate: policy === 'last-settled' ? lastSettled : rate[next]!, nextTs: ts[next]!, settled };
      }
      const last = ts[count - 1]!;
      const periods = Math.floor((t - last) / interval) + 1;
      return { rate: rate[count - 1]!, nextTs: last + periods * interval, settled };
    },
  };
}
