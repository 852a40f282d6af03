/**
 * Seeded pseudo-random numbers for the synthetic feed. sfc32 has a 128-bit state and good
 * statistical quality at almost no cost; each stream is seeded by hashing a string (cyrb128), so
 * every symbol gets its own independent stream from (seed, symbol) and adding a symbol never
 * changes another symbol's path. The state is four 32-bit words and can be read and restored,
 * which is what lets a restarted trading process continue the market instead of replaying it.
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (mean 0, variance 1). */
  normal(): number;
  /** The four state words; `restoreRng(state())` continues exactly where this stream is. */
  state(): RngState;
}

export type RngState = [number, number, number, number];

/** cyrb128: spreads a string over four 32-bit words, the seed material sfc32 needs. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A deterministic generator for `seedText`; identical text gives an identical sequence. */
export function createRng(seedText: string): Rng {
  const rng = restoreRng(cyrb128(seedText));
  // The first outputs still carry hash structure; discarding a few is the usual sfc32 warm-up.
  for (let i = 0; i < 15; i++) rng.next();
  return rng;
}

/** The stream whose state is `state` (from `Rng.state()`); throws on anything but four 32-bit words. */
export function restoreRng(state: readonly number[]): Rng {
  if (state.length !== 4 || !state.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff))
    throw new RangeError('an rng state is four unsigned 32-bit integers');
  let [a, b, c, d] = state as RngState;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  return {
    next,
    state: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
    normal(): number {
      // Box–Muller; 1 − u keeps the logarithm's argument away from zero.
      const u1 = 1 - next();
      const u2 = next();
      return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    },
  };
}

/**
 * A uniform number in [0, 1) from a 32-bit key and an integer index, with no state: the same key and
 * index always give the same number (used where a value must be rebuilt from a checkpoint, e.g. a
 * synthetic candle's wicks). A murmur3-style finaliser over the pair.
 */
export function hashUniform(key: number, index: number): number {
  let h = Math.imul(key ^ Math.imul(index | 0, 0x9e3779b1), 0x85ebca6b) ^ Math.floor(index / 4294967296);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** A 32-bit key for `hashUniform` from text. */
export function hashKey(text: string): number {
  return cyrb128(text)[0];
}
