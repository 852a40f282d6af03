/**
 * Marks the account to market: positions valued at the last mark seen for their symbol (MARK_PRICE:
 * the mid by default, or the last price), NAV,
 * unrealized PnL and the peak NAV the drawdown guard measures from: the highest NAV over the rolling
 * window RISK_DRAWDOWN_WINDOW (src/domain/risk/peak-window.ts), which an operator may also reset. NAV = cash + unrealized PnL of
 * perpetuals + spot holdings at mark. Flat positions are left out of the snapshot (their realized
 * PnL stays in the totals). Marks, unrealized PnL and NAV are kept to QUOTE_STEP like every other
 * amount the venue reports, so a mid of 0.1 and 0.2 reads 0.15, not 0.15000000000000002.
 */
import { markPriceOf } from '../../domain/market.js';
import type { MarketView, MarkPrice } from '../../domain/market.js';
import type { AccountSnapshot, Position } from '../../domain/portfolio.js';
import { observePeak, peakOf, resetPeaks } from '../../domain/risk/peak-window.js';
import { roundQuote } from '../../domain/steps.js';
import type { PaperState } from './state.js';

/** Records each snapshot's mark (MARK_PRICE: its mid, or its last price) as the symbol's; true when any mark changed. */
export function updateMarks(state: PaperState, market: MarketView, rule: MarkPrice): boolean {
  let changed = false;
  for (const [symbol, snapshot] of market) {
    const mark = markPriceOf(rule, snapshot.bid, snapshot.ask, snapshot.last);
    if (mark !== null && state.marks.get(symbol) !== mark) {
      state.marks.set(symbol, mark);
      changed = true;
    }
  }
  return changed;
}

export function positionsOf(state: PaperState): Position[] {
  const positions: Position[] = [];
  for (const [symbol, p] of state.positions) {
    if (p.qty === 0) continue;
    const markPrice = state.marks.get(symbol) ?? p.entryPrice;
    positions.push({
      symbol,
      kind: p.kind,
      qty: p.qty,
      entryPrice: p.entryPrice,
      markPrice,
      unrealizedPnl: roundQuote(p.qty * (markPrice - p.entryPrice)),
      realizedPnl: p.realizedPnl,
    });
  }
  return positions;
}

/** As accountSnapshot's NAV, the same sums in the same order, without building the positions (twice a market). */
export function navOf(state: PaperState): number {
  let nav = state.cash;
  for (const [symbol, p] of state.positions) {
    if (p.qty === 0) continue;
    const markPrice = state.marks.get(symbol) ?? p.entryPrice;
    nav += p.kind === 'spot' ? p.qty * markPrice : roundQuote(p.qty * (markPrice - p.entryPrice));
  }
  return roundQuote(nav);
}

/**
 * Records the current NAV in the peak window at `now` and sets the peak to the window's highest: it
 * rises with NAV and falls when an old high leaves the window. True when anything stored changed.
 */
export function updatePeak(state: PaperState, now: number, windowMs: number): boolean {
  const nav = navOf(state);
  const { peaks } = state;
  // An account without window entries (new, or stored before the window) starts from its stored peak.
  if (peaks.length === 0 && state.peakNav > nav) observePeak(peaks, now, state.peakNav, windowMs);
  const length = peaks.length;
  const back = peaks[length - 1];
  observePeak(peaks, now, nav, windowMs);
  const peak = peakOf(peaks, now, nav, windowMs);
  const changed = peak !== state.peakNav || peaks.length !== length || peaks[peaks.length - 1] !== back;
  state.peakNav = peak;
  return changed;
}

/** What an operator's reset did: the peak before, and the one after (the NAV at the reset). */
export interface PeakReset {
  previousPeakNav: number;
  peakNav: number;
  nav: number;
}

/** The operator's reset: the window forgets everything before `now`; the peak is the current NAV. */
export function resetPeak(state: PaperState, now: number, windowMs: number): PeakReset {
  updatePeak(state, now, windowMs);
  const previousPeakNav = state.peakNav;
  const nav = navOf(state);
  state.peaks = resetPeaks(now, nav, windowMs);
  state.peakNav = nav;
  return { previousPeakNav, peakNav: nav, nav };
}

export function accountSnapshot(state: PaperState, ts: number): AccountSnapshot {
  const positions = positionsOf(state);
  let nav = state.cash;
  let unrealizedPnl = 0;
  for (const p of positions) {
    nav += p.kind === 'spot' ? p.qty * p.markPrice : p.unrealizedPnl;
    unrealizedPnl += p.unrealizedPnl;
  }
  nav = roundQuote(nav);
  return {
    nav,
    peakNav: Math.max(state.peakNav, nav),
    cash: state.cash,
    realizedPnl: state.realizedPnl,
    unrealizedPnl: roundQuote(unrealizedPnl),
    fundingPnl: state.fundingPnl,
    fundingBySymbol: fundingBySymbol(state),
    feesPaid: state.feesPaid,
    startingCash: state.startingCash,
    insuranceCover: state.insuranceCover,
    positions,
    openOrders: [...state.openOrders.values()].map((o) => ({ ...o })),
    ts,
  };
}

/** Each perpetual's funding since the account opened (flat ones included: what they paid stays theirs). */
function fundingBySymbol(state: PaperState): Record<string, number> {
  const paid: Record<string, number> = {};
  for (const [symbol, funding] of state.funding) if (funding.paid !== 0) paid[symbol] = funding.paid;
  return paid;
}
