/**
 * Each agent's own copy of the candles it reads. The feed's bars are views of memory the feed, the
 * other agents and the next cycles share, and typed arrays cannot be frozen: a strategy writing into
 * `candles.close` rewrote every other agent's history. Each agent now reads arrays of its own,
 * copied from the feed's on first read of each field in a cycle (a strategy reading only closes
 * copies only closes), into buffers kept per symbol and reused every cycle, so a cycle allocates one
 * small object per agent and symbol and no array once the window's length is steady. A write lands
 * in the writer's copy and is gone at its next read. Measured against a read-only Proxy view in
 * bench/strategy-isolation.ts (BENCHMARKS.md).
 */
import type { Bars } from './bars.js';

type Field = 'time' | 'open' | 'high' | 'low' | 'close' | 'volume';

/** The buffers of one agent: per symbol and kind (base or higher timeframe), one per field. */
export class PrivateBars {
  private readonly buffers = new Map<string, Partial<Record<Field, Float64Array>>>();

  /** `source` as this agent sees it for one call: same numbers, none of the source's memory. */
  view(key: string, source: Bars): Bars {
    let slots = this.buffers.get(key);
    if (slots === undefined) this.buffers.set(key, (slots = {}));
    return new CopiedBars(source, slots);
  }
}

/** Copies `from` into `slots[field]`, replacing the buffer only when the length changed. */
function copyField(slots: Partial<Record<Field, Float64Array>>, field: Field, from: Float64Array): Float64Array {
  let into = slots[field];
  if (into === undefined || into.length !== from.length) slots[field] = into = new Float64Array(from.length);
  into.set(from);
  return into;
}

/**
 * Bars whose arrays are copied on first read. Getters without setters: assigning `candles.close = …`
 * throws in a module (strict mode) instead of being silently kept.
 */
class CopiedBars implements Bars {
  readonly length: number;
  #time: Float64Array | undefined;
  #open: Float64Array | undefined;
  #high: Float64Array | undefined;
  #low: Float64Array | undefined;
  #close: Float64Array | undefined;
  #volume: Float64Array | undefined;

  // True private fields: a TypeScript `private` is a plain property at run time, and the source is
  // exactly what the strategy must not reach.
  readonly #source: Bars;
  readonly #slots: Partial<Record<Field, Float64Array>>;

  constructor(source: Bars, slots: Partial<Record<Field, Float64Array>>) {
    this.length = source.length;
    this.#source = source;
    this.#slots = slots;
  }

  get time(): Float64Array {
    return (this.#time ??= copyField(this.#slots, 'time', this.#source.time));
  }
  get open(): Float64Array {
    return (this.#open ??= copyField(this.#slots, 'open', this.#source.open));
  }
  get high(): Float64Array {
    return (this.#high ??= copyField(this.#slots, 'high', this.#source.high));
  }
  get low(): Float64Array {
    return (this.#low ??= copyField(this.#slots, 'low', this.#source.low));
  }
  get close(): Float64Array {
    return (this.#close ??= copyField(this.#slots, 'close', this.#source.close));
  }
  get volume(): Float64Array {
    return (this.#volume ??= copyField(this.#slots, 'volume', this.#source.volume));
  }
}
