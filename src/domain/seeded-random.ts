/**
 * mulberry32: a tiny seeded generator of uniform numbers in [0, 1). The same seed draws the same
 * numbers on every machine and Node version (32-bit integer arithmetic only), which is what a
 * sweep's random search and a repeatable random test need; not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
