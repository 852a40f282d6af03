/**
 * Binance's dead-man's switch (POST /fapi/v1/countdownCancelAll): per symbol, a deadline
 * `countdownTime` ms after the last call; each call replaces the previous one, 0 disarms it. When a
 * deadline passes without being re-armed, the exchange cancels that symbol's open orders. The
 * fake reads its own clock, so a test moves time instead of sleeping.
 */
export class Countdowns {
  private readonly deadlines = new Map<string, { at: number; stopsToo: boolean }>();
  /** Every call as it arrived, for a test counting how often a symbol was (re-)armed or disarmed. */
  readonly calls: Array<{ symbol: string; countdownMs: number }> = [];

  /**
   * `stopsToo`: whether running out cancels the symbol's conditional (algo) orders as well — Binance's
   * does in the fake's pessimistic reading; OKX's cancel-all-after covers the order book only.
   */
  arm(symbol: string, countdownMs: number, now: number, stopsToo = true): void {
    this.calls.push({ symbol, countdownMs });
    if (countdownMs === 0) this.deadlines.delete(symbol);
    else this.deadlines.set(symbol, { at: now + countdownMs, stopsToo });
  }

  /** When the symbol's countdown runs out (epoch ms), or null when none is armed. */
  deadline(symbol: string): number | null {
    return this.deadlines.get(symbol)?.at ?? null;
  }

  /** The symbols whose countdown has run out by `now`, disarmed as they are returned. */
  expired(now: number): Array<{ symbol: string; stopsToo: boolean }> {
    const out: Array<{ symbol: string; stopsToo: boolean }> = [];
    for (const [symbol, { at, stopsToo }] of this.deadlines) {
      if (now >= at) {
        out.push({ symbol, stopsToo });
        this.deadlines.delete(symbol);
      }
    }
    return out;
  }
}
