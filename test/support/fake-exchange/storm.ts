/**
 * A 503 storm, as Binance has on a bad day: each request (only signed ones, or every one) is refused
 * with probability `rate` before anything happens, answered as the exchange the fake speaks answers
 * a server error refused unprocessed (`reply`; Binance: HTTP 503, -1001 "Internal error"). Drawn
 * from a seeded generator, so a run is repeatable request by request.
 */
import { seededRandom } from '../../../src/domain/seeded-random.js';
import type { Reply } from './faults.js';

export class Storm {
  private readonly draw: () => number;
  private refusedCount = 0;

  constructor(
    private readonly rate: number,
    seed: number,
    /** Only the account's signed requests (orders, cancels, balance, positions); public data passes. */
    private readonly signedOnly = false,
    /** The 503 refusal in the exchange's words. */
    private readonly reply: () => Reply,
  ) {
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`a storm's rate is a probability, not ${rate}`);
    this.draw = seededRandom(seed);
  }

  /** The 503 this request gets, or null to go on. */
  answer(signed: boolean): Reply | null {
    if (this.signedOnly && !signed) return null;
    if (this.draw() >= this.rate) return null;
    this.refusedCount++;
    return this.reply();
  }

  /** How many requests the storm refused so far. */
  refused(): number {
    return this.refusedCount;
  }
}
