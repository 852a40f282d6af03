/**
 * Remembers recently used clientOrderIds so the order manager can refuse a replayed approval.
 * Bounded (least recently seen ids are forgotten first) so a long-running process does not grow
 * without limit. Safe because tokens expire: the capacity only has to exceed the number of orders
 * approved within one token lifetime for a replay to be caught either here or by the expiry.
 */

export const DEFAULT_LEDGER_CAPACITY = 10_000;

export class UsedTokenLedger {
  readonly capacity: number;
  // A Map iterates in insertion order, so its first key is the least recently seen.
  readonly #ids = new Map<string, true>();

  constructor(capacity: number = DEFAULT_LEDGER_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`ledger capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
  }

  get size(): number {
    return this.#ids.size;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /**
   * Records `id` as used. Returns true the first time, false for a replay. A replay also refreshes
   * the id's recency, so an id that keeps being replayed is never the one forgotten.
   */
  use(id: string): boolean {
    const seen = this.#ids.delete(id);
    this.#ids.set(id, true);
    if (this.#ids.size > this.capacity) {
      const oldest = this.#ids.keys().next();
      if (!oldest.done) this.#ids.delete(oldest.value);
    }
    return !seen;
  }
}
