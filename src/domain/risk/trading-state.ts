/**
 * The risk engine's trading state (issue 20): what kind of order it lets through, apart from the four
 * guards' limits. Pure rules; the risk actor (machines/risk.machine.ts) holds the state and moves it.
 *  - `active`: every order is judged by the four guards, as always.
 *  - `reducing`: the account's drawdown went beyond RISK_MAX_DRAWDOWN. Only orders that lower
 *    exposure pass (RISK_REDUCING for the rest), and every cycle the engine itself closes what is still
 *    open, reduce-only, at the size the liquidity guard allows (`reducingCloses`). It ends only when the
 *    drawdown reference changes: the operator's reset, or the rolling window dropping the peak the
 *    breach was measured from (`windowEnded`) — never because prices bounced back while still holding.
 *  - `halted`: trading is killed. No order of a cycle passes (RISK_HALTED); a command's reduce-only
 *    close (flatten, deleverage) still does, because a close is never refused.
 */
import { floorToLot } from '../market.js';
import type { Instrument } from '../market.js';
import type { OrderRequest } from '../orders.js';
import type { AccountSnapshot } from '../portfolio.js';
import { drawdown } from './drawdown-guard.js';

export type RiskTradingState = 'active' | 'reducing' | 'halted';

export const RISK_TRADING_STATES: readonly RiskTradingState[] = Object.freeze(['active', 'reducing', 'halted']);

/** The state with when and why it was entered; what is stored, shown and audited. */
export interface RiskStateRecord {
  state: RiskTradingState;
  /** Epoch ms the state was entered; null when the machine was not told (a kill sent without its time). */
  since: number | null;
  reason: string;
  /**
   * The peak NAV the breach was measured against: in `reducing`, and in a `halted` that interrupted a
   * `reducing` (so a kill's end resumes the breach instead of forgetting it). Null otherwise.
   */
  peakNav: number | null;
}

/** A transition, as the event line, the audit entry and the metric report it. */
export interface RiskStateChange {
  from: RiskTradingState;
  to: RiskTradingState;
  /** Epoch ms; null when the machine was not told (the composition root stamps it with its clock). */
  at: number | null;
  reason: string;
  /** The account's drawdown from its reference when the change happened; null when not known (a kill). */
  drawdown: number | null;
  nav: number | null;
  peakNav: number | null;
  /** The new record's breach reference (RiskStateRecord.peakNav), what a restart resumes from. */
  reference: number | null;
}

export const ACTIVE_AT_START: RiskStateRecord = Object.freeze({
  state: 'active',
  since: 0,
  reason: 'started',
  peakNav: null,
});

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

/** The account's drawdown beyond the limit (strictly, as the drawdown guard judges it), or null. */
export function breach(account: Pick<AccountSnapshot, 'nav' | 'peakNav'>, maxDrawdown: number): string | null {
  const value = drawdown(account.nav, account.peakNav);
  if (!(value > maxDrawdown)) return null;
  return `drawdown ${pct(value)} from peak NAV ${account.peakNav.toFixed(2)} exceeds RISK_MAX_DRAWDOWN ${pct(maxDrawdown)}`;
}

/**
 * How long this process has watched the current `reducing`, on a clock a wall-clock step cannot move
 * (steady-clock.ts), and whether it resumed it from the store.
 */
export interface WindowWatch {
  /** RISK_DRAWDOWN_WINDOW in ms. */
  ms: number;
  /** Since this process entered the state, or first observed it after resuming it. */
  watchedMs: number;
  /** The state was resumed from the store at start (not entered by this process). */
  resumed: boolean;
}

/**
 * `reducing` ends by the window once the breach is out of it — the reference has fallen below the
 * peak the breach was measured against (that peak left the window), or this process has watched a
 * whole window in the state (every NAV from before it left the window, also after a rally above it) —
 * and the drawdown from the reference of now is within the limit. Time is monotonic time this process
 * watched, never a wall-clock difference: a step (NTP, a VM restore) ends nothing. A state resumed
 * from the store at start ends only after a whole window watched: the stored peaks and times are
 * wall stamps, and a process cannot tell a step while it was down from time that passed, so a
 * restart may lengthen `reducing` by up to one window, never shorten it.
 */
export function windowEnded(
  record: Pick<RiskStateRecord, 'peakNav'>,
  account: Pick<AccountSnapshot, 'nav' | 'peakNav'>,
  maxDrawdown: number,
  window?: WindowWatch,
): string | null {
  const value = drawdown(account.nav, account.peakNav);
  if (!(value <= maxDrawdown)) return null;
  const within = `drawdown ${pct(value)} from ${account.peakNav.toFixed(2)} is within ${pct(maxDrawdown)}`;
  if (!window?.resumed && record.peakNav !== null && account.peakNav < record.peakNav)
    return `RISK_DRAWDOWN_WINDOW: the peak NAV ${record.peakNav.toFixed(2)} left the window; ${within}`;
  if (window && window.watchedMs >= window.ms)
    return `RISK_DRAWDOWN_WINDOW: a whole window has passed since the breach; ${within}`;
  return null;
}

/**
 * The state a process starts in: killed is halted (keeping a breach's reference); otherwise the
 * stored state. A halt whose kill has ended is over — unless it interrupted a `reducing`: that breach
 * still holds (only a reset or the window end it), so it resumes, timed from the kill.
 */
export function startingState(stored: RiskStateRecord | null, killed: boolean, now: number): RiskStateRecord {
  if (killed) {
    if (stored?.state === 'halted') return stored;
    const reference = stored?.state === 'reducing' ? stored.peakNav : null;
    return { state: 'halted', since: now, reason: 'started killed', peakNav: reference };
  }
  if (stored === null) return { ...ACTIVE_AT_START, since: now };
  if (stored.state !== 'halted') return stored;
  if (stored.peakNav === null) return { ...ACTIVE_AT_START, since: now };
  return {
    state: 'reducing',
    since: stored.since ?? now,
    reason: `the kill ended; the drawdown breach it interrupted still holds (peak NAV ${stored.peakNav.toFixed(2)})`,
    peakNav: stored.peakNav,
  };
}

/** Client order id of the engine's own close: `rsk-<epoch>-<cycle>-<symbol>`, unique per cycle and symbol. */
export function reducingOrderId(epoch: number, cycle: number, symbol: string): string {
  return `rsk-${epoch}-${cycle}-${symbol}`;
}

/**
 * The engine's own closes in `reducing`: for every open position, reduce-only at market, for what is
 * left after the orders already approved this cycle (a strategy's exit, a protective stop) — so the
 * engine never closes twice what another order already closes. The liquidity guard may scale each one
 * down (LIQUIDITY_SCALED); the rest is closed in the next cycles. Below one lot, nothing can be sent.
 */
export function reducingCloses(input: {
  epoch: number;
  cycle: number;
  positions: readonly { symbol: string; qty: number }[];
  instruments: ReadonlyMap<string, Pick<Instrument, 'lotSize'>>;
  /** Orders approved earlier in the same request. */
  approved: readonly Pick<OrderRequest, 'symbol' | 'side' | 'qty' | 'reduceOnly'>[];
}): OrderRequest[] {
  const orders: OrderRequest[] = [];
  for (const { symbol, qty: held } of input.positions) {
    if (held === 0) continue;
    let left = Math.abs(held);
    for (const o of input.approved) {
      const closes = o.symbol === symbol && o.reduceOnly && (o.side === 'SELL') === held > 0;
      if (closes) left -= o.qty;
    }
    const lot = input.instruments.get(symbol)?.lotSize;
    const qty = lot === undefined ? left : Math.min(floorToLot(left, lot), left);
    if (!(qty > 0)) continue;
    orders.push({
      clientOrderId: reducingOrderId(input.epoch, input.cycle, symbol),
      symbol,
      side: held > 0 ? 'SELL' : 'BUY',
      qty,
      type: 'market',
      limitPrice: null,
      reduceOnly: true,
    });
  }
  return orders;
}
