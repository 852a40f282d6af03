/**
 * Binance's dead-man's switch (POST /fapi/v1/countdownCancelAll): per symbol, a deadline
 * `countdownTime` ms after the last call; each call replaces the previous one, 0 disarms it. When a
 * deadline passes without being re-armed, the exchange cancels that symbol's open orders. The
 * fake reads its own clock, so a test moves time instead of sleeping.
 */
export class Countdowns {
  private readonly deadlines = new Map<string, number>();
  /** Every call as it arrived, for a test counting how often a symbol was (re-)armed or disarmed. */
  readonly calls: Array<{ symbol: string; countdownMs: number }> = [];

  arm(symbol: string, countdownMs: number, now: number): void {
    this.calls.push({ symbol, countdownMs });
    if (countdownMs === 0) this.deadlines.delete(symbol);
    else this.deadlines.set(symbol, now + countdownMs);
  }

  /** When the symbol's countdown runs out (epoch ms), or null when none is armed. */
  deadline(symbol: string): number | null {
    return this.deadlines.get(symbol) ?? null;
  }

  /** The symbols whose countdown has run out by `now`, disarmed as they are returned. */
  expired(now: number): string[] {
    const out: string[] = [];
    for (const [symbol, at] of this.deadlines) {
      if (now >= at) {
        out.push(symbol);
        this.deadlines.delete(symbol);
      }
    }
    return out;
  }
}
