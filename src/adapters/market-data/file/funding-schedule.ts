/**
 * What a perpetual's funding looks like at a moment of the replay: the rate announced for the next
 * settlement and when that settlement is. Two policies for the rate:
 *
 *  * 'last-settled' (default): the most recent settled rate at or before the moment, taken as the
 *    prediction of the next one. Nothing from the future reaches a strategy; 0 before the file's
 *    first settlement. The paper venue pays the announced rate, so each settlement is paid at the
 *    previous settlement's rate (funding persists, so the difference is small).
 *  * 'next-settlement': the rate the next settlement actually had. Settlements are paid at their
 *    historical rates, but strategies see each rate up to one interval early (exchanges publish a
 *    converging estimate, not the final number).
 *
 * After the file's last settlement the times continue on its last interval (8 h when the file has
 * a single settlement) with the last rate.
 */
import type { FundingSeries } from './series.js';

export type FundingPolicy = 'last-settled' | 'next-settlement';

const DEFAULT_INTERVAL_MS = 8 * 3_600_000;

export interface FundingSchedule {
  /** The announcement at unshifted time `t`; `t` never goes backwards between calls. */
  at(t: number): { rate: number; nextTs: number };
}

export function createFundingSchedule(series: FundingSeries, policy: FundingPolicy): FundingSchedule {
  const { ts, rate, count } = series;
  const interval = count >= 2 ? ts[count - 1]! - ts[count - 2]! : DEFAULT_INTERVAL_MS;
  let next = 0; // index of the first settlement after the last `t` seen
  return {
    at(t) {
      while (next < count && ts[next]! <= t) next += 1;
      if (next < count) {
        const settled = next > 0 ? rate[next - 1]! : 0;
        return { rate: policy === 'last-settled' ? settled : rate[next]!, nextTs: ts[next]! };
      }
      const last = ts[count - 1]!;
      const periods = Math.floor((t - last) / interval) + 1;
      return { rate: rate[count - 1]!, nextTs: last + periods * interval };
    },
  };
}
