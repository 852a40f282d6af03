/**
 * Funding settlement for perpetuals. Each snapshot announces the next funding time and the rate
 * that will apply; the venue remembers the latest announcement and, on the first market whose
 * timestamp has reached that time, settles it with the announced rate at the current mark. A venue
 * first started after a funding time does not charge it. Funding times missed while the process was
 * down are each paid: the announced time plus every whole funding interval (the venue's
 * fundingIntervalMs, which must match the market's cadence; 8 h for the synthetic feed) up to the
 * market's timestamp, so three intervals → three payments. Only the last announced rate is known
 * for them, so each is paid at that rate and at the current mark.
 */
import type { MarketView } from '../../domain/market.js';
import { settleFunding } from './ledger.js';
import { markOf } from '../../domain/market.js';
import type { PaperState } from './state.js';

/** Settles due funding and records new announcements; `isPerp` says which symbols carry funding. */
export function observeFunding(
  state: PaperState,
  market: MarketView,
  isPerp: (symbol: string) => boolean,
  intervalMs: number,
): void {
  for (const [symbol, snapshot] of market) {
    if (!isPerp(symbol)) continue;
    const funding = state.funding.get(symbol) ?? { due: null, rate: 0, settledDue: null };
    if (funding.due !== null && snapshot.ts >= funding.due && funding.due !== funding.settledDue) {
      const times = 1 + Math.floor((snapshot.ts - funding.due) / intervalMs);
      const mark = markOf(snapshot.bid, snapshot.ask, snapshot.last) ?? state.marks.get(symbol);
      if (mark !== undefined) for (let i = 0; i < times; i += 1) settleFunding(state, symbol, funding.rate, mark);
      funding.settledDue = funding.due;
    }
    if (snapshot.nextFundingTs !== null && snapshot.fundingRate !== null && snapshot.ts < snapshot.nextFundingTs) {
      funding.due = snapshot.nextFundingTs;
      funding.rate = snapshot.fundingRate;
    }
    state.funding.set(symbol, funding);
  }
}
