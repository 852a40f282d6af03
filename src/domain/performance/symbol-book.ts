/**
 * One symbol's fills matched into lots and round trips, for win rate, profit factor and the split
 * of trading PnL by strategy.
 *
 * Lots are matched FIFO: a fill that reduces the position closes the oldest open lots first, and
 * the realized PnL of each match belongs to the strategy that OPENED the lot (the entry made the
 * outcome; a liquidation closing a lot does not own its loss). Fees belong to the fill's strategy.
 *
 * A round trip runs from the moment the position leaves zero to the moment it returns to zero;
 * a fill that flips the position closes one round trip and opens the next, its fee split by
 * quantity. A round trip's PnL (realized PnL of its matches − its fees) does not depend on the
 * matching method, only the per-strategy split does.
 *
 * Funding is shared among the lots held when the cycle began, before its fills: the venue settles
 * funding as it reads the cycle's market, before any order of the cycle fills, so a lot closed in
 * the cycle that paid funding still pays its share and a lot opened in it pays none. When nothing
 * was held then (a venue that settled after the fills), the lots held now share it.
 */
import { NO_STRATEGY } from './observations.js';
import type { TradeObservation } from './observations.js';

/** A position this small relative to the fill (or below 1e-9 units) counts as flat: float dust. */
const DUST = 1e-9;

interface Lot {
  /** Signed open quantity. */
  qty: number;
  price: number;
  strategy: string;
}

/** Per-strategy totals kept by the caller: realized trading PnL, fees and funding. */
export interface StrategyTotals {
  realized: number;
  fees: number;
  funding: number;
}

export interface FillResult {
  /** Trading PnL realized by this fill (before fees). */
  realized: number;
  positionAfter: number;
  /** Net PnL of the round trip this fill closed, or null when it closed none. */
  closedRoundTrip: number | null;
}

export class SymbolBook {
  private lots: Lot[] = [];
  position = 0;
  realized = 0;
  fees = 0;
  /** Traded notional, quote currency. */
  volume = 0;
  fills = 0;
  private tripPnl = 0;
  /** The lots as the current cycle began, copied at its first fill; null until then. */
  private heldAtCycleStart: { strategy: string; qty: number }[] | null = null;

  constructor(private readonly byStrategy: (strategy: string) => StrategyTotals) {}

  fill(t: TradeObservation): FillResult {
    const signed = t.side === 'BUY' ? t.qty : -t.qty;
    const strategy = t.strategy ?? NO_STRATEGY;
    const before = this.position;
    this.heldAtCycleStart ??= this.lots.map((lot) => ({ strategy: lot.strategy, qty: lot.qty }));
    const flat = DUST * Math.max(1, t.qty);
    this.fills += 1;
    this.fees += t.fee;
    this.volume += Math.abs(t.qty * t.price);
    this.byStrategy(strategy).fees += t.fee;

    let remaining = signed;
    let realized = 0;
    while (Math.abs(remaining) > flat && this.lots.length > 0) {
      const lot = this.lots[0]!;
      if (Math.sign(lot.qty) === Math.sign(remaining)) break;
      const direction = Math.sign(lot.qty);
      const matched = Math.min(Math.abs(remaining), Math.abs(lot.qty));
      const pnl = matched * (t.price - lot.price) * direction;
      realized += pnl;
      this.byStrategy(lot.strategy).realized += pnl;
      lot.qty -= matched * direction;
      remaining += matched * direction;
      if (Math.abs(lot.qty) <= flat) this.lots.shift();
    }
    if (Math.abs(remaining) > flat) this.lots.push({ qty: remaining, price: t.price, strategy });
    // The insurance fund's cover of a liquidation past zero offsets the loss the fill realized.
    const cover = t.insuranceCover ?? 0;
    if (cover !== 0) {
      realized += cover;
      this.byStrategy(strategy).realized += cover;
    }
    this.realized += realized;
    this.position = before + signed;
    if (Math.abs(this.position) <= flat) {
      this.position = 0;
      this.lots.length = 0;
    }

    // Round trips: the part of the fill that closes goes to the open trip, the rest opens a new one.
    const closing = Math.abs(before) <= flat ? 0 : Math.min(Math.abs(signed), Math.abs(before));
    const closingShare = Math.sign(before) !== Math.sign(signed) ? closing / t.qty : 0;
    let closedRoundTrip: number | null = null;
    if (Math.abs(before) > flat && closingShare > 0) {
      this.tripPnl += realized - t.fee * closingShare;
      const closedAll = this.position === 0 || Math.sign(this.position) !== Math.sign(before);
      if (closedAll) {
        closedRoundTrip = this.tripPnl;
        this.tripPnl = 0;
      }
      if (this.position !== 0 && closedAll) this.tripPnl = -t.fee * (1 - closingShare);
    } else {
      this.tripPnl -= t.fee;
    }
    return { realized, positionAfter: this.position, closedRoundTrip };
  }

  /** Open-lot PnL at `mark`, added to each lot's strategy through `credit`. */
  unrealized(mark: number, credit?: (strategy: string, pnl: number) => void): number {
    let total = 0;
    for (const lot of this.lots) {
      const pnl = lot.qty * (mark - lot.price);
      total += pnl;
      credit?.(lot.strategy, pnl);
    }
    return total;
  }

  /**
   * Shares `amount` (the cycle's funding on this symbol) among the strategies of the lots held as
   * the cycle began (else of those held now) by quantity; false when there are none.
   */
  shareAmongLots(amount: number, credit: (strategy: string, part: number) => void): boolean {
    const start = this.heldAtCycleStart;
    return (start !== null && share(start, amount, credit)) || share(this.lots, amount, credit);
  }

  /** The cycle has been observed: the next fill starts another. */
  cycleEnded(): void {
    this.heldAtCycleStart = null;
  }
}

function share(
  lots: readonly { strategy: string; qty: number }[],
  amount: number,
  credit: (strategy: string, part: number) => void,
): boolean {
  let open = 0;
  for (const lot of lots) open += Math.abs(lot.qty);
  if (open <= DUST) return false;
  for (const lot of lots) credit(lot.strategy, (amount * Math.abs(lot.qty)) / open);
  return true;
}
