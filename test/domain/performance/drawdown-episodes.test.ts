/**
 * The worst-drawdowns table: each episode from its peak through its valley to its recovery, the
 * deepest first, the one still open at the run's end marked unrecovered.
 */
import { describe, expect, it } from 'vitest';
import { WorstDrawdowns } from '../../../src/domain/performance/drawdown-episodes.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const at = (h: number) => new Date(T0 + h * H).toISOString();

function feed(navs: number[], keep = 5): WorstDrawdowns {
  const w = new WorstDrawdowns(100, T0, keep);
  navs.forEach((nav, i) => w.add(nav, T0 + (i + 1) * H));
  return w;
}

describe('WorstDrawdowns', () => {
  it('names each episode by its peak, valley and recovery, deepest first', () => {
    //          h1   h2  h3  h4   h5   h6  h7   h8
    const w = feed([110, 99, 88, 110, 120, 114, 120, 90]);
    expect(w.episodes()).toEqual([
      // The open one: from the peak of 120 at h7 to 90 at h8, not recovered.
      { start: at(7), valley: at(8), recovery: null, depth: 0.25, duration_seconds: 3600, duration_human: '01:00:00' },
      {
        start: at(1),
        valley: at(3),
        recovery: at(4),
        depth: 0.2,
        duration_seconds: 3 * 3600,
        duration_human: '03:00:00',
      },
      { start: at(5), valley: at(6), recovery: at(7), depth: 0.05, duration_seconds: 7200, duration_human: '02:00:00' },
    ]);
  });

  it('keeps only the deepest few, whatever the number of episodes', () => {
    const navs: number[] = [];
    let peak = 100;
    for (let i = 1; i <= 1_000; i++) {
      navs.push(peak * (1 - (i % 37) / 100), peak + 1);
      peak += 1;
    }
    const episodes = feed(navs, 3).episodes();
    expect(episodes).toHaveLength(3);
    expect(episodes.map((e) => e.depth)).toEqual([...episodes.map((e) => e.depth)].sort((a, b) => b - a));
    expect(episodes[0]!.depth).toBeCloseTo(0.36, 8);
    expect(episodes.every((e) => e.recovery !== null)).toBe(true);
  });

  it('a run that never falls has no episode; a run that falls from its start has one from the starting cash', () => {
    expect(feed([100, 101, 102]).episodes()).toEqual([]);
    const [e] = feed([90, 95]).episodes();
    expect(e).toMatchObject({ start: new Date(T0).toISOString(), valley: at(1), recovery: null, depth: 0.1 });
  });
});
