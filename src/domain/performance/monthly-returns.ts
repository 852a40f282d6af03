/**
 * Monthly returns from the equity curve: the NAV at each month's end (UTC) over the NAV at the
 * previous month's end (the starting cash before the first), one row per year with the year's
 * compounded total. A cycle belongs to the month in which its period ends: one ending exactly at
 * midnight on the 1st is the last cycle of the month before. Only one NAV per month is kept, so a
 * run of any length costs a few numbers. Definitions: docs/strategies/simulation-metrics.md, "Monthly returns".
 */
import { round } from './run-summary.js';

export interface MonthlyReturnRow {
  year: number;
  /** January … December; null for a month the run did not cover (or after a NAV ≤ 0). */
  months: (number | null)[];
  /** NAV at the year's last month end covered / NAV before its first month − 1. */
  total: number | null;
}

interface MonthEnd {
  year: number;
  /** 0 = January. */
  month: number;
  nav: number;
}

const growth = (to: number, from: number): number | null => (from > 0 ? to / from - 1 : null);

export class MonthlyReturns {
  private readonly ends: MonthEnd[] = [];

  constructor(private readonly startingCash: number) {}

  /** The current month's span [start, end) in epoch ms: a cycle inside it needs no Date. */
  private monthStart = Infinity;
  private monthEnd = -Infinity;

  add(ts: number, nav: number): void {
    // The instant before the cycle's end: its period's last moment, in the month it belongs to.
    const instant = ts - 1;
    const last = this.ends[this.ends.length - 1];
    if (last !== undefined && instant >= this.monthStart && instant < this.monthEnd) {
      last.nav = nav;
      return;
    }
    const at = new Date(instant);
    const year = at.getUTCFullYear();
    const month = at.getUTCMonth();
    this.monthStart = Date.UTC(year, month, 1);
    this.monthEnd = Date.UTC(year, month + 1, 1);
    if (last !== undefined && last.year === year && last.month === month) last.nav = nav;
    else this.ends.push({ year, month, nav });
  }

  rows(): MonthlyReturnRow[] {
    const rows: MonthlyReturnRow[] = [];
    let previous = this.startingCash;
    let yearStart = this.startingCash;
    for (const end of this.ends) {
      let row = rows[rows.length - 1];
      if (row === undefined || row.year !== end.year) {
        yearStart = previous;
        row = { year: end.year, months: new Array<number | null>(12).fill(null), total: null };
        rows.push(row);
      }
      row.months[end.month] = round(growth(end.nav, previous));
      row.total = round(growth(end.nav, yearStart));
      previous = end.nav;
    }
    return rows;
  }
}
