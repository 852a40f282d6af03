/**
 * The exchange's user-data stream (issue 32, item 8), through ccxt pro's `watchOrders` and
 * `watchMyTrades` on the venue's own exchange client (a ccxt pro instance: one throttle, one request
 * gate, so the listen key's requests are weighed and held back in a ban like every other). It only
 * collects: the orders and trades pushed since the last `take()`, and whether the stream has been up
 * without a break since when (`upSince`). The live venue decides from that which orders it must
 * still poll (./live-venue.ts); nothing in the fail-closed machinery reads this.
 *
 * A connection that fails (a drop, a listen key expired or refused, a keepalive that failed) ends
 * the session: `upSince` is null at once, the listen key is forgotten (Binance's POST answers the
 * active key when there is one, so nothing is lost by asking), and it reconnects after a backoff
 * that doubles from `firstBackoffMs` to `maxBackoffMs`, reset by a connection that opened.
 */
import type { Exchange, Order, Trade } from 'ccxt';

export interface UserStreamOptions {
  /** A ccxt pro client (keys set, markets loaded, pointed where it should be). */
  exchange: Exchange;
  /** Milliseconds that never step. */
  monotonic(): number;
  sleep(ms: number): Promise<void>;
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** Told when the stream goes down (with why) and comes back. */
  report?: (change: { up: boolean; reason?: string }) => void;
}

/** What ccxt pro's binance keeps per market type about the listen key. */
interface ListenKeyBucket {
  listenKey?: string;
  lastAuthenticatedTime?: number;
}

/** The parts of ccxt pro's client this adapter needs (not in ccxt's public types). */
interface ProClient {
  authenticate(params: object): Promise<unknown>;
  getPrivateWsUrl(type: string, listenKey: string): string;
  client(url: string): { connected: Promise<unknown> };
  spawn(method: unknown, ...args: unknown[]): unknown;
  delay(timeout: number, method: unknown, ...args: unknown[]): void;
  options: Record<string, unknown>;
}

export class UserStream {
  private up: number | null = null;
  private orders: Order[] = [];
  private trades: Trade[] = [];
  private stopped = false;
  private running: Promise<void> | null = null;
  private readonly pro: ProClient;

  constructor(private readonly o: UserStreamOptions) {
    this.pro = o.exchange as unknown as ProClient;
    // ccxt schedules the listen key's keepalive (every 20 min) on a timer that would keep a process
    // that closed everything alive for up to 20 minutes: the same call, on a timer that does not.
    const pro = this.pro;
    pro.delay = (timeout, method, ...args) => {
      setTimeout(() => pro.spawn(method, ...args), timeout).unref();
    };
  }

  /** Starts the stream in the background; it runs until `stop()`. */
  start(): void {
    this.running ??= this.run();
  }

  /** When (monotonic ms) the stream's current connection opened, or null while it is down. */
  upSince(): number | null {
    return this.up;
  }

  /** How many orders and trades wait for `take()` (a test waits on it instead of sleeping). */
  pending(): number {
    return this.orders.length + this.trades.length;
  }

  /** The orders and trades pushed since the last call. */
  take(): { orders: Order[]; trades: Trade[] } {
    const taken = { orders: this.orders, trades: this.trades };
    this.orders = [];
    this.trades = [];
    return taken;
  }

  /** Ends the stream; the exchange client's `close()` closes its socket. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.up = null;
    // ccxt keeps the listen key on the client: a later stream on it must not reuse a dead one.
    this.forgetListenKey();
  }

  private async run(): Promise<void> {
    const first = this.o.firstBackoffMs ?? 1_000;
    const max = this.o.maxBackoffMs ?? 60_000;
    let backoff = first;
    // A key ccxt remembers from an earlier stream on this client may be dead: ask for the active one.
    this.forgetListenKey();
    while (!this.stopped) {
      let opened = false;
      try {
        await this.session(() => {
          opened = true;
          backoff = first;
        });
      } catch (err) {
        if (this.up !== null) this.o.report?.({ up: false, reason: oneLine(err) });
        this.up = null;
      }
      if (this.stopped) return;
      this.forgetListenKey();
      await this.o.sleep(backoff);
      if (!opened) backoff = Math.min(backoff * 2, max);
    }
  }

  /** One connection: resolves never; throws when it fails. */
  private async session(onOpen: () => void): Promise<void> {
    await this.pro.authenticate({ type: 'future' });
    const key = (this.pro.options['future'] as ListenKeyBucket | undefined)?.listenKey;
    if (!key) throw new Error('no listen key');
    const client = this.pro.client(this.pro.getPrivateWsUrl('future', key));
    const pumps = Promise.race([
      this.pump(
        () => this.o.exchange.watchOrders(),
        (orders) => this.orders.push(...orders),
      ),
      this.pump(
        () => this.o.exchange.watchMyTrades(),
        (trades) => this.trades.push(...trades),
      ),
    ]);
    await Promise.race([client.connected, pumps]);
    if (this.stopped) return;
    this.up = this.o.monotonic();
    onOpen();
    this.o.report?.({ up: true });
    await pumps;
  }

  private async pump<T>(watch: () => Promise<T[]>, keep: (items: T[]) => void): Promise<never> {
    for (;;) {
      const items = await watch();
      if (this.stopped) throw new Error('stopped');
      keep(items);
    }
  }

  /** The next connection asks for the listen key again (an expired one is refused on connecting). */
  private forgetListenKey(): void {
    const bucket = (this.pro.options['future'] as ListenKeyBucket | undefined) ?? {};
    this.pro.options['future'] = { ...bucket, listenKey: undefined, lastAuthenticatedTime: 0 };
  }
}

function oneLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err)
    .split('\n')[0]!
    .slice(0, 200);
}
