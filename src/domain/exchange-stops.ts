/**
 * The stop each open position should have resting on the exchange (issue 32, item 4): the in-process
 * protective exits (./protection.ts) are judged once a cycle and die with the process; this is the
 * same stop-loss or trailing-stop level, left with the exchange so a crash, a ban or a clock fault
 * still leaves a stop. Pure: which stop, at which price, on which side; placing, moving and
 * cancelling it is the live venue's (src/adapters/live-venue/protective-stops.ts).
 *
 * Of the two adverse levels the nearer one is used (the one the in-process check would hit first).
 * A take-profit is not rested: it needs the process's judgement of the bar, and a resting order that
 * only takes profit is no protection.
 */
import type { Position } from './portfolio.js';
import { adverseLevels, ruleFor } from './protection.js';
import type { ExitReason, ProtectionSettings, ProtectionState } from './protection.js';

/**
 * The client id prefix of our exchange stops; no other order of ours starts so
 * (src/adapters/live-venue/client-ids.ts). Here, not in the venue, because the cycle also reads it: a
 * fill under it is the exchange's stop closing a position, which starts the cooldown (./protection.ts).
 */
export const EXCHANGE_STOP_PREFIX = 'tcs-stop-';
/** The same prefix where an exchange takes letters and digits only in a client id (OKX). */
export const EXCHANGE_STOP_PREFIX_ALPHANUMERIC = 'tcsstop';

/** True for the client id of one of our exchange stops (and of the fills it made). */
export function isExchangeStopId(clientOrderId: string | undefined | null): boolean {
  return (
    typeof clientOrderId === 'string' &&
    (clientOrderId.startsWith(EXCHANGE_STOP_PREFIX) || clientOrderId.startsWith(EXCHANGE_STOP_PREFIX_ALPHANUMERIC))
  );
}

export interface ExchangeStop {
  symbol: string;
  /** The closing side: SELL for a long, BUY for a short. */
  side: 'BUY' | 'SELL';
  /** The level, unrounded; the venue rounds it to the exchange's tick. */
  triggerPrice: number;
  reason: Exclude<ExitReason, 'take_profit'>;
}

/**
 * The stops for `positions` (after the cycle's fills), from the protection state's best prices and
 * owners; a position the state does not track on the same side is judged from its entry price with
 * the global rule (a fresh entry, or one adopted at start).
 */
export function exchangeStops(
  positions: readonly Position[],
  state: ProtectionState,
  settings: ProtectionSettings,
): ExchangeStop[] {
  const stops: ExchangeStop[] = [];
  for (const p of positions) {
    if (p.qty === 0 || !(p.entryPrice > 0)) continue;
    const side = p.qty > 0 ? 1 : -1;
    const tracked = state.positions[p.symbol];
    const same = tracked !== undefined && tracked.side === side;
    const levels = adverseLevels(
      { side, entry: p.entryPrice },
      same ? tracked.best : p.entryPrice,
      ruleFor(settings, same ? tracked.agent : null),
    );
    // The nearer level: the highest for a long, the lowest for a short; the first on a tie.
    let nearest: (typeof levels)[number] | null = null;
    for (const level of levels) if (nearest === null || side * level[1] > side * nearest[1]) nearest = level;
    if (nearest === null || !(nearest[1] > 0)) continue;
    stops.push({ symbol: p.symbol, side: side > 0 ? 'SELL' : 'BUY', triggerPrice: nearest[1], reason: nearest[0] });
  }
  return stops;
}
