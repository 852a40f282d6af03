/**
 * Online drawdown: the running peak of NAV, the deepest fall below it (a fraction of the peak) and
 * the longest time spent under water: from the moment of the peak to the first NAV at or above it,
 * or to the last observation when the run ends under water.
 */
export class DrawdownTracker {
  private peak: number;
  private peakTs: number;
  /** The deepest drawdown so far, a fraction in [0, 1] (can exceed 1 if NAV goes negative). */
  maxDrawdown = 0;
  /** Longest underwater period so far, ms. */
  longestUnderwaterMs = 0;
  private lastTs: number;

  constructor(startNav: number, startTs: number) {
    this.peak = startNav;
    this.peakTs = startTs;
    this.lastTs = startTs;
  }

  /** Adds one NAV point and returns its drawdown from the running peak (0 at a peak, > 0 below). */
  add(nav: number, ts: number): number {
    const wasUnderwater = this.underwater;
    this.lastTs = ts;
    if (nav >= this.peak) {
      // Recovery: the underwater period ran from the peak's moment to this one.
      if (wasUnderwater) this.longestUnderwaterMs = Math.max(this.longestUnderwaterMs, ts - this.peakTs);
      this.peak = nav;
      this.peakTs = ts;
      return 0;
    }
    const drawdown = this.peak > 0 ? (this.peak - nav) / this.peak : 0;
    if (drawdown > this.maxDrawdown) this.maxDrawdown = drawdown;
    const underwater = ts - this.peakTs;
    if (underwater > this.longestUnderwaterMs) this.longestUnderwaterMs = underwater;
    return drawdown;
  }

  /** True when the last observation was below the peak. */
  get underwater(): boolean {
    return this.lastTs > this.peakTs;
  }
}
