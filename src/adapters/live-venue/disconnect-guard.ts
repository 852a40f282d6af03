/**
 * Holds the private connection a held dead-man's switch watches (Bybit's DCP; the profile's
 * `disconnectCancel`): the exchange cancels the account's orders once that connection has been gone
 * its window, so while the process lives the connection must stay open. `open()` makes the first
 * connection (the start fails without it: a switch never armed protects nothing); after that a
 * connection that ends is made again after a backoff doubling from 1 s up to `maxBackoffMs` (kept
 * well inside the window, so several attempts fit before the exchange acts). `down()` says for how
 * long it has been down and why: the venue refuses a cycle and the safety monitor halts new exposure
 * once that passes the grace (live-venue.ts, live-execution.ts). Durations on the monotonic clock.
 */
export interface DisconnectGuardOptions {
  /** One connection: resolves once up, with `closed`, which settles when it ends. */
  connect(): Promise<{ closed: Promise<unknown> }>;
  /** Milliseconds that never step. */
  monotonic(): number;
  sleep(ms: number): Promise<void>;
  /** The longest wait between two attempts. */
  maxBackoffMs: number;
  /** Each change, for the log: up, or down with why. */
  report(change: { up: true } | { up: false; reason: string }): void;
}

const FIRST_BACKOFF_MS = 1_000;

export class DisconnectGuard {
  /** When the connection went down (monotonic), or null while it is up. */
  private downSince: number | null;
  private reason = 'not connected yet';
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(private readonly o: DisconnectGuardOptions) {
    this.downSince = o.monotonic();
  }

  /** The first connection; throws when it cannot be made. Then held until `stop()`. */
  async open(): Promise<void> {
    const { closed } = await this.o.connect();
    this.up();
    this.loop = this.hold(closed);
  }

  /** Null while up; else how long the connection has been down (ms) and why. */
  down(): { forMs: number; reason: string } | null {
    if (this.downSince === null) return null;
    return { forMs: Math.max(0, this.o.monotonic() - this.downSince), reason: this.reason };
  }

  /**
   * Stops reconnecting (the process is ending: the exchange's window then starts, as it should). The
   * open connection is ended by its owner closing the client; `ended` settles once the holding has.
   */
  stop(): void {
    this.stopped = true;
  }

  /** Settles once the holding has ended (after `stop()` and the connection's end). */
  get ended(): Promise<void> {
    return this.loop ?? Promise.resolve();
  }

  private up(): void {
    this.downSince = null;
    this.o.report({ up: true });
  }

  private async hold(first: Promise<unknown>): Promise<void> {
    let closed: Promise<unknown> | null = first;
    let backoff = FIRST_BACKOFF_MS;
    while (!this.stopped) {
      try {
        if (closed === null) {
          closed = (await this.o.connect()).closed;
          if (this.stopped) break;
          this.up();
          backoff = FIRST_BACKOFF_MS;
        }
        await closed;
        this.lost('the connection ended');
      } catch (err) {
        this.lost(err instanceof Error ? err.message : String(err));
      }
      closed = null;
      if (this.stopped) break;
      await this.o.sleep(backoff);
      backoff = Math.min(backoff * 2, this.o.maxBackoffMs);
    }
  }

  private lost(reason: string): void {
    this.reason = reason;
    // The first failure dates the outage: later failed attempts do not restart it.
    if (this.downSince === null) {
      this.downSince = this.o.monotonic();
      this.o.report({ up: false, reason });
    }
  }
}
