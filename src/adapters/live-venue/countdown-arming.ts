/**
 * The exchange's dead-man's switch (Binance's countdownCancelAll), re-armed only as often as it needs
 * to be (issue 32, item 8): each call weighs 10, and sending it every cycle for every symbol was the
 * largest single part of a quiet cycle's weight. A symbol's countdown is sent again when less than
 * half of it remains since it was last sent (on the monotonic clock), or at once when what it should
 * be changes (0 where our exchange stop rests, the countdown elsewhere). A 0 never expires, so it is
 * sent once per change. The guarantee is unchanged: the exchange cancels within `countdownMs` of the
 * last arming, so within `countdownMs` of the process's death (sooner, as the last arming was earlier).
 */
export interface CountdownArmingOptions {
  countdownMs: number;
  /** Sends the countdown for one symbol (its market id); 0 disarms. */
  arm(symbolId: string, countdownMs: number): Promise<unknown>;
  /** Milliseconds that never step. */
  monotonic(): number;
}

export class CountdownArming {
  /** What was last sent per symbol and when (monotonic, taken before sending: the exchange's deadline is later). */
  private readonly sent = new Map<string, { ms: number; at: number }>();

  constructor(private readonly o: CountdownArmingOptions) {}

  /** Arms `symbol` for the countdown, or disarms it (`rests`: our stop rests there), when it needs it. */
  async ensure(symbol: string, rests: boolean): Promise<void> {
    const want = rests ? 0 : this.o.countdownMs;
    const last = this.sent.get(symbol);
    const at = this.o.monotonic();
    if (last && last.ms === want && (want === 0 || at - last.at < this.o.countdownMs / 2)) return;
    // Unknown on the exchange until the answer says so: a failed call is sent again next time.
    this.sent.delete(symbol);
    await this.o.arm(symbol, want);
    this.sent.set(symbol, { ms: want, at });
  }
}
