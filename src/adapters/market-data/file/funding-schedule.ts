/**
 * What a perpetual's funding looks like at a moment of the replay: the rate announced for the next
 * settlement and when that settlement is, and the settlement that has just happened.
 *
 * Payment and prediction are kept apart. `settled` is the latest settlement at or before the moment
 * with the rate it actually had: the paper venue pays each settlement at that rate, as the exchange
 * did (issue 22: paying the announced rate paid every settlement at the previous one's rate). It is
 * past information, so it exposes nothing early. `rate` is what a strategy sees of the next
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

/** The latest settlement at or before a moment: its (unshifted) time and the rate it was paid at. */
export interface Settlement {
  ts: number;
  rate: number;
}

export interface FundingAt {
  /** The rate announced for the next settlement (see the policies above). */
  rate: number;
  nextTs: number;
  /** The latest settlement at or before the moment; null before the file's first. */
  settled: Settlement | null;
}

export interface FundingSchedule {
  /** The funding at unshifted time `t`; `t` never goes backwards between calls. */
  at(t: number): FundingAt;
}

export function createFundingSchedule(series: FundingSeries, policy: FundingPolicy): FundingSchedule {
  const { ts, rate, count } = series;
  const interval = count >= 2 ? ts[count - 1]! - ts[count - 2]! : DEFAULT_INTERVAL_MS;
  let next = 0; // index of the first settlement after the last `t` seen
  // One object per settlement, not per call: the replay asks once a candle.
  let settled: Settlement | null = null;
  const settledAt = (time: number, r: number): Settlement =>
    settled !== null && settled.ts === time ? settled : (settled = { ts: time, rate: r });
  return {
    at(t) {
      while (next < count && ts[next]! <= t) next += 1;
      if (next < count) {
        const last = next > 0 ? settledAt(ts[next - 1]!, rate[next - 1]!) : null;
        const announced = policy === 'last-settled' ? (last?.rate ?? 0) : rate[next]!;
        return { rate: announced, nextTs: ts[next]!, settled: last };
      }
      const last = ts[count - 1]!;
      const periods = Math.floor((t - last) / interval) + 1;
      const r = rate[count - 1]!;
      return { rate: r, nextTs: last + periods * interval, settled: settledAt(last + (periods - 1) * interval, r) };
    },
  };
}
