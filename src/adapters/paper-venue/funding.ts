/**
 * Funding settlement for perpetuals. Each snapshot announces the next funding time and the rate
 * that will apply; the venue remembers the latest announcement and, on the first market whose
 * timestamp has reached that time, settles it once with the announced rate at the current mark.
 * A venue first started after a funding time does not charge it, and several funding times missed
 * while the process was down settle as one (only the last announced rate is known).
 */
import type { MarketView } from '../../domain/market.js';
import { settleFunding } from './ledger.js';
import { markOf } from './marking.js';
import type { PaperState } from './state.js';

/** Settles due funding and records new announcements; `isPerp` says which symbols carry funding. */
export function observeFunding(state: PaperState, market: MarketView, isPerp: (symbol: string) => boolean): void {
  for (const [symbol, snapshot] of market) {
    if (!isPerp(symbol)) continue;
    const funding = state.funding.get(symbol) ?? { due: null, rate: 0, settledDue: null };
    if (funding.due !== null && snapshot.ts >= funding.due && funding.due !== funding.settledDue) {
      const mark = markOf(snapshot.bid, snapshot.ask, snapshot.last) ?? state.marks.get(symbol);
      if (mark !== undefined) settleFunding(state, symbol, funding.rate, mark);
      funding.settledDue = funding.due;
    }
    if (snapshot.nextFundingTs !== null && snapshot.fundingRate !== null && snapshot.ts < snapshot.nextFundingTs) {
      funding.due = snapshot.nextFundingTs;
      funding.rate = snapshot.fundingRate;
    }
    state.funding.set(symbol, funding);
  }
}
