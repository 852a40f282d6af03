/**
 * The feed's seeded PRNG: reproducible per seed text, independent across texts, uniform in [0, 1)
 * and with a standard normal of mean ≈ 0 and variance ≈ 1.
 */
import { describe, expect, it } from 'vitest';
import { createRng, restoreRng } from '../../../src/adapters/market-data/prng.js';

describe('seeded PRNG', () => {
  it('repeats for the same seed text and differs for another', () => {
    const draw = (seed: string) => {
      const rng = createRng(seed);
      return Array.from({ length: 20 }, () => rng.next());
    };
    expect(draw('a:BTCUSDT')).toEqual(draw('a:BTCUSDT'));
    expect(draw('a:BTCUSDT')).not.toEqual(draw('a:ETHUSDT'));
  });

  it('draws uniforms in [0, 1) and standard normals', () => {
    const rng = createRng('stats');
    const n = 20_000;
    let sum = 0;
    let outside = 0;
    const buckets = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      if (!(u >= 0 && u < 1)) outside += 1;
      sum += u;
      const k = Math.floor(u * 4);
      buckets[k] = (buckets[k] ?? 0) + 1;
    }
    expect(outside).toBe(0);
    expect(sum / n).toBeCloseTo(0.5, 1);
    for (const b of buckets) expect(b / n).toBeCloseTo(0.25, 1);
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      const z = rng.normal();
      s1 += z;
      s2 += z * z;
    }
    expect(Math.abs(s1 / n)).toBeLessThan(0.05);
    expect(s2 / n).toBeCloseTo(1, 1);
  });

  it('continues exactly from a saved state and refuses a malformed one', () => {
    const rng = createRng('resume');
    for (let i = 0; i < 37; i++) rng.normal();
    const copy = restoreRng(JSON.parse(JSON.stringify(rng.state())) as number[]);
    const ahead = Array.from({ length: 50 }, () => [rng.next(), rng.normal()]);
    expect(Array.from({ length: 50 }, () => [copy.next(), copy.normal()])).toEqual(ahead);
    expect(() => restoreRng([1, 2, 3])).toThrow(/four unsigned/);
    expect(() => restoreRng([1, 2, 3, -1])).toThrow(/four unsigned/);
    expect(() => restoreRng([1, 2, 3, 0.5])).toThrow(/four unsigned/);
  });
});
