/**
 * NAV and drawdown series for the chart, from the decision log (each entry carries the account's
 * NAV and peak NAV after its cycle) and the live portfolio. lightweight-charts wants points in
 * strictly increasing time (whole seconds), so points are keyed by second and the last one wins.
 * Pure, tested without a browser.
 */

export interface NavPoint {
  /** Unix seconds. */
  time: number;
  nav: number;
  /** Fraction below the peak, ≥ 0. */
  drawdown: number;
}

export function navPoint(at: string, nav: number, peakNav: number): NavPoint | null {
  const ms = new Date(at).getTime();
  if (!Number.isFinite(ms) || !Number.isFinite(nav)) return null;
  const drawdown = peakNav > 0 ? Math.max(0, (peakNav - nav) / peakNav) : 0;
  return { time: Math.floor(ms / 1000), nav, drawdown };
}

/** Merges points into a series sorted by time, one point per second (a later point replaces it). */
export function mergePoints(series: readonly NavPoint[], points: readonly (NavPoint | null)[], max = 5000): NavPoint[] {
  const byTime = new Map<number, NavPoint>();
  for (const p of series) byTime.set(p.time, p);
  for (const p of points) if (p) byTime.set(p.time, p);
  const sorted = [...byTime.values()].sort((a, b) => a.time - b.time);
  return sorted.length > max ? sorted.slice(sorted.length - max) : sorted;
}
