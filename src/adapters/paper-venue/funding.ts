/**
 * Funding settlement for perpetuals. Each snapshot announces the next funding time and the rate
 * expected for it; the venue remembers the latest announcement and, on the first market whose
 * timestamp has reached that time, settles it at the current mark.
 *
 * The rate paid is the settlement's own: when the snapshot lists the settlements since the previous
 * one and their rates (`settledFunding`; a replay reads them from its funding file), each listed
 * settlement from the due time on is paid at its own rate — several in one bar when the bar is
 * longer than the funding interval — so a replay pays each settlement as the exchange did while
 * strategies still saw only the rates known before it. Otherwise (the synthetic feed, live market
 * data) the rate announced last before the funding time is paid: it is the feed's own final figure.
 *
 * A venue first started after a funding time does not charge it. Funding times missed while the
 * process was down are each paid: the announced time plus every whole funding interval (the venue's
 * fundingIntervalMs, which must match the market's cadence; 8 h for the synthetic feed) up to the
 * market's timestamp (or up to the first settlement the snapshot lists), so three intervals → three
 * payments, at the current mark, at the last announced rate; the listed ones each at its own.
 */
import type { MarketSnapshot, MarketView } from '../../domain/market.js';
import { settleFunding } from './ledger.js';
import { markOf } from '../../domain/market.js';
import { roundQuote } from '../../domain/steps.js';
import type { FundingState, PaperState } from './state.js';

/** Settles due funding and records new announcements; `isPerp` says which symbols carry funding. */
export function observeFunding(
  state: PaperState,
  market: MarketView,
  isPerp: (symbol: string) => boolean,
  intervalMs: number,
): void {
  for (const [symbol, snapshot] of market) {
    if (!isPerp(symbol)) continue;
    const funding = state.funding.get(symbol) ?? { due: null, rate: 0, settledDue: null, paid: 0 };
    if (funding.due !== null && snapshot.ts >= funding.due && funding.due !== funding.settledDue) {
      const mark = markOf(snapshot.bid, snapshot.ask, snapshot.last) ?? state.marks.get(symbol);
      if (mark !== undefined) settleDue(state, symbol, funding, snapshot, mark, intervalMs);
      funding.settledDue = funding.due;
    }
    if (snapshot.nextFundingTs !== null && snapshot.fundingRate !== null && snapshot.ts < snapshot.nextFundingTs) {
      funding.due = snapshot.nextFundingTs;
      funding.rate = snapshot.fundingRate;
    }
    state.funding.set(symbol, funding);
  }
}

/**
 * Pays the funding time `funding.due` and every settlement after it up to the snapshot: those the
 * snapshot lists at their own rates; without a list (or before its first entry: a restart gap), every
 * whole interval from the due time at the announced rate.
 */
function settleDue(
  state: PaperState,
  symbol: string,
  funding: FundingState,
  snapshot: MarketSnapshot,
  mark: number,
  intervalMs: number,
): void {
  const due = funding.due!;
  const listed = (snapshot.settledFunding ?? []).filter((s) => s.ts >= due && s.ts <= snapshot.ts);
  const pay = (rate: number) => {
    // On the QUOTE_STEP grid like every running total of the ledger.
    funding.paid = roundQuote(funding.paid + settleFunding(state, symbol, rate, mark));
  };
  const until = listed.length > 0 ? listed[0]!.ts : snapshot.ts + 1;
  for (let time = due; time < until; time += intervalMs) pay(funding.rate);
  for (const s of listed) pay(s.rate);
}
