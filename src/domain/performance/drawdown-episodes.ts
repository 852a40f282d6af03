/**
 * The worst drawdown episodes of a run, for the report's table: each runs from a NAV peak (start)
 * through its lowest NAV (valley) to the first NAV back at or above the peak (recovery; null while
 * the run ends under water). Kept online: the current episode and the `keep` deepest closed ones,
 * so a run of any length costs a few numbers. The same peak rule as DrawdownTracker (drawdown.ts):
 * the starting cash one cycle before the first observation is the first peak.
 */
import { humanDuration, round } from './run-summary.js';

export interface DrawdownEpisode {
  /** ISO times: the peak, the valley and the recovery (null: not recovered by the run's end). */
  start: string;
  valley: string;
  recovery: string | null;
  /** Fall from the peak to the valley, fraction of the peak. */
  depth: number;
  /** Peak to recovery (or to the run's last observation), seconds, and the same in words. */
  duration_seconds: number;
  duration_human: string;
}

interface Open {
  peakTs: number;
  peak: number;
  valleyTs: number;
  valley: number;
}

interface Closed extends Open {
  recoveryTs: number | null;
  endTs: number;
}

export class WorstDrawdowns {
  private peak: number;
  private peakTs: number;
  private open: Open | null = null;
  private readonly closed: Closed[] = [];
  private lastTs: number;

  constructor(
    startNav: number,
    startTs: number,
    private readonly keep = 5,
  ) {
    this.peak = startNav;
    this.peakTs = startTs;
    this.lastTs = startTs;
  }

  add(nav: number, ts: number): void {
    this.lastTs = ts;
    if (nav >= this.peak) {
      if (this.open !== null) this.remember({ ...this.open, recoveryTs: ts, endTs: ts });
      this.open = null;
      this.peak = nav;
      this.peakTs = ts;
      return;
    }
    if (this.open === null) this.open = { peakTs: this.peakTs, peak: this.peak, valleyTs: ts, valley: nav };
    else if (nav < this.open.valley) {
      this.open.valley = nav;
      this.open.valleyTs = ts;
    }
  }

  /** The deepest episodes, deepest first, the one still open (if any) among them. */
  episodes(): DrawdownEpisode[] {
    const all = [...this.closed];
    if (this.open !== null) all.push({ ...this.open, recoveryTs: null, endTs: this.lastTs });
    return all
      .sort((a, b) => depthOf(b) - depthOf(a) || a.peakTs - b.peakTs)
      .slice(0, this.keep)
      .map((e) => {
        const seconds = (e.endTs - e.peakTs) / 1000;
        return {
          start: new Date(e.peakTs).toISOString(),
          valley: new Date(e.valleyTs).toISOString(),
          recovery: e.recoveryTs === null ? null : new Date(e.recoveryTs).toISOString(),
          depth: round(depthOf(e)),
          duration_seconds: round(seconds),
          duration_human: humanDuration(seconds),
        };
      });
  }

  /** Keeps a closed episode when it is among the `keep` deepest (a short sorted list). */
  private remember(e: Closed): void {
    this.closed.push(e);
    if (this.closed.length > this.keep) {
      this.closed.sort((a, b) => depthOf(b) - depthOf(a) || a.peakTs - b.peakTs);
      this.closed.length = this.keep;
    }
  }
}

function depthOf(e: Open): number {
  return e.peak > 0 ? (e.peak - e.valley) / e.peak : 0;
}
