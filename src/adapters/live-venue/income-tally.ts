/**
 * The live account's fees and funding, as the exchange booked them: its income history (Binance
 * USDⓈ-M: GET /fapi/v1/income, weight 30), read forward from where the last read ended and summed for
 * the traded symbols — COMMISSION into `feesPaid` (a fee is a negative income), FUNDING_FEE into
 * `fundingPnl`. Counted from the first time this account was read live on this store (`since`),
 * carried across restarts by the caller's `save`. Only USDT incomes are summed: a fee paid in BNB is
 * not converted and is left out of `feesPaid`, but not silently: the first one is told
 * (`unconverted`) and they are kept apart by asset (`unconvertedFees`).
 *
 * The live venue reads it when a cycle is done (its `idle`), never on the way from a cycle's market to
 * its orders: a page weighs 30, and ccxt's throttle then holds the next request about 1.5 s. At most
 * every `minIntervalMs`, one page of 1,000 lines at a time unless told otherwise (`pagesPerRefresh`).
 * A read that fails leaves the totals as they were: the account must not fail because its fee
 * history did.
 */
import type { Static } from 'typebox';
import type { IncomeStateSchema } from '../../domain/documents/live-income.js';

export type IncomeState = Static<typeof IncomeStateSchema>;

/**
 * One line of the exchange's income history (numbers as strings): Binance's own shape, which an
 * exchange profile's `income` call answers in (src/adapters/exchanges/profile.ts), mapping its
 * exchange's lines when they differ. `incomeType` COMMISSION is a fee, FUNDING_FEE a funding payment.
 */
export interface IncomeLine {
  symbol?: string;
  incomeType?: string;
  income?: string | number;
  asset?: string;
  time?: string | number;
  tranId?: string | number;
}

export interface IncomeTallyOptions {
  /** The exchange's income history from `startTime` (inclusive), oldest first, at most `limit` lines. */
  fetch(startTime: number, limit: number): Promise<IncomeLine[]>;
  /** The exchange's ids of the traded symbols (an income on another symbol is not this system's). */
  symbols: ReadonlySet<string>;
  now(): number;
  /** The state last saved (null: counting starts now). */
  initial: IncomeState | null;
  save?(state: IncomeState): Promise<void>;
  /** Told when reads start failing (once, until one succeeds again): the sums then stand still. */
  failing?(err: unknown): void;
  /** Told the first time a fee in another asset than USDT (BNB) is seen: it is not in `feesPaid`. */
  unconverted?(asset: string): void;
  minIntervalMs?: number;
  /**
   * Pages read per refresh (1 by default): a longer backlog is caught up over the next refreshes. A
   * page weighs 30, and ccxt's throttle, at Binance's rate, holds the request after it about 1.5 s:
   * a refresh inside the account's read, mid-cycle, reads one page.
   */
  pagesPerRefresh?: number;
  /** Lines per read: the exchange's most (its profile's `incomePageSize`); 1,000 unless told. */
  pageSize?: number;
}

export class IncomeTally {
  private state: IncomeState;
  private lastRead = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | null = null;
  private failed = false;
  /** Fees seen in other assets (BNB) since this process started, by asset: left out of `feesPaid`. */
  private readonly otherFees = new Map<string, number>();

  constructor(private readonly o: IncomeTallyOptions) {
    const now = o.now();
    this.state = o.initial ?? { since: now, through: now, seen: [], fundingPnl: 0, feesPaid: 0 };
  }

  totals(): { fundingPnl: number; feesPaid: number } {
    return { fundingPnl: this.state.fundingPnl, feesPaid: this.state.feesPaid };
  }

  /** Fees paid in other assets than USDT since this process started (not converted, not in feesPaid). */
  unconvertedFees(): ReadonlyMap<string, number> {
    return this.otherFees;
  }

  /** Reads what was booked since the last read (not more often than minIntervalMs); never throws. */
  refresh(): Promise<void> {
    if (this.reading) return this.reading;
    if (this.o.now() - this.lastRead < (this.o.minIntervalMs ?? 10_000)) return Promise.resolve();
    this.lastRead = this.o.now();
    this.reading = this.read()
      .then(
        () => void (this.failed = false),
        (err: unknown) => {
          if (!this.failed) this.o.failing?.(err);
          this.failed = true;
        },
      )
      .finally(() => (this.reading = null));
    return this.reading;
  }

  private async read(): Promise<void> {
    const before = JSON.stringify(this.state);
    const size = this.o.pageSize ?? 1_000;
    for (let page = 0; page < (this.o.pagesPerRefresh ?? 1); page++) {
      const lines = await this.o.fetch(this.state.through, size);
      this.count(lines);
      if (lines.length < size) break;
    }
    if (JSON.stringify(this.state) !== before) await this.o.save?.(this.state);
  }

  private count(lines: readonly IncomeLine[]): void {
    let { through, seen, fundingPnl, feesPaid } = this.state;
    for (const line of lines) {
      const time = Number(line.time);
      // A tranId is unique only within one incomeType (on Binance a fee and a funding payment can
      // share one), so a line is known by both.
      const id = `${line.incomeType}:${line.tranId}`;
      if (!Number.isFinite(time) || time < through || (time === through && seen.includes(id))) continue;
      if (time > through) [through, seen] = [time, []];
      seen = [...seen, id];
      const amount = Number(line.income);
      if (!this.o.symbols.has(String(line.symbol)) || !Number.isFinite(amount)) continue;
      if (line.asset !== 'USDT') {
        if (line.incomeType === 'COMMISSION') this.noteOtherFee(String(line.asset), -amount);
        continue;
      }
      // Rounded as the exchange books them (8 decimals), so a long sum does not drift.
      if (line.incomeType === 'COMMISSION') feesPaid = round8(feesPaid - amount);
      else if (line.incomeType === 'FUNDING_FEE') fundingPnl = round8(fundingPnl + amount);
    }
    this.state = { ...this.state, through, seen, fundingPnl, feesPaid };
  }

  private noteOtherFee(asset: string, fee: number): void {
    if (!this.otherFees.has(asset)) this.o.unconverted?.(asset);
    this.otherFees.set(asset, round8((this.otherFees.get(asset) ?? 0) + fee));
  }
}

function round8(x: number): number {
  return Math.round(x * 1e8) / 1e8;
}
