/**
 * The exchange-side protective stops (issue 32, item 4): for each open position, one close-position
 * STOP_MARKET on the mark price rests on the exchange, so a crash, a ban or a clock fault still
 * leaves a stop. Which stop each position wants is decided in src/domain/exchange-stops.ts; this
 * places, moves (cancel, then place: an exchange may allow one close-position stop per direction,
 * as Binance does, -4130) and cancels them, and recognises them by their client id prefix, which
 * nothing else of ours uses, so a restart adopts them as ours without any memory.
 *
 * How a stop is placed, addressed and read is the exchange profile's `exchangeStops`
 * (src/adapters/exchanges/<id>.ts). Stops are apart from the book's open orders (Binance's Algo
 * Service), so the live venue's foreign-order reconciliation and the kill's cancel-all do not see
 * them. Whether the exchange's dead-man's switch cancels them is not documented: a symbol with a stop
 * of ours resting has its countdown disarmed (`disarm`), so the switch can never take the stop with it.
 */
import type { Exchange, Order, Trade } from 'ccxt';
import {
  EXCHANGE_STOP_PREFIX,
  EXCHANGE_STOP_PREFIX_ALPHANUMERIC,
  isExchangeStopId,
} from '../../domain/exchange-stops.js';
import type { ExchangeStop } from '../../domain/exchange-stops.js';
import type { SymbolMap } from './ccxt-mapping.js';
import type { CcxtErrorClasses } from './exchange-errors.js';
import { profileOf } from '../exchanges/registry.js';

/** True for the client id of one of our protective stops (the prefix is the domain's: the cycle reads it too). */
export const isProtectiveStopId = isExchangeStopId;

interface ProtectiveStopsOptions {
  exchange: Exchange;
  errors: CcxtErrorClasses;
  symbols: SymbolMap;
  /** Wall time, epoch ms: only to make each placement's client id unique. */
  now(): number;
  /** Disarms the exchange's countdown for one symbol (as the live venue arms it); absent when none is armed. */
  disarm?: (symbolId: string) => Promise<unknown>;
}

export class ProtectiveStops {
  /** Symbols where a stop of ours rested at the last look (adopted at start, placed since). */
  private readonly resting = new Set<string>();
  /** The exchange id of our stop on each symbol, as last seen resting: what `triggered` looks up. */
  private readonly seen = new Map<string, string>();
  private placed = 0;

  constructor(private readonly o: ProtectiveStopsOptions) {}

  /** Whether a stop of ours rests on `symbol` (our symbol name), as last seen. */
  restingOn(symbol: string): boolean {
    return this.resting.has(symbol);
  }

  /** Reads which symbols hold a stop of ours (at start, before the countdowns are armed). */
  async adopt(): Promise<void> {
    await Promise.all(
      this.o.symbols.symbols.map(async (symbol) => {
        const ours = await this.oursOn(symbol);
        this.remember(symbol, ours[0]?.id);
      }),
    );
  }

  /**
   * Brings the exchange to `wanted`: each symbol with a wanted stop has exactly that one (kept when
   * its price, on the exchange's tick, is the same), every other stop of ours is cancelled. Every
   * symbol is tried even when one fails; the first failure is thrown after.
   */
  async sync(wanted: readonly ExchangeStop[]): Promise<void> {
    const results = await Promise.allSettled(
      this.o.symbols.symbols.map((symbol) =>
        this.syncSymbol(
          symbol,
          wanted.find((w) => w.symbol === symbol),
        ),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async syncSymbol(symbol: string, want: ExchangeStop | undefined): Promise<void> {
    const unified = this.o.symbols.unified(symbol);
    const ours = await this.oursOn(symbol);
    const price = want ? this.o.exchange.priceToPrecision(unified, want.triggerPrice) : null;
    const keep = ours.find(
      (o) =>
        want !== undefined &&
        o.side === want.side.toLowerCase() &&
        this.o.exchange.priceToPrecision(unified, o.triggerPrice ?? 0) === price,
    );
    for (const o of ours) if (o !== keep) await this.cancel(o, unified);
    this.remember(symbol, keep?.id);
    if (want && !keep) {
      const placed = await this.o.exchange.createOrder(
        unified,
        'market',
        want.side.toLowerCase() as 'buy' | 'sell',
        // 0, or no amount where ccxt refuses 0 (the profile's closeAmount); ccxt's type says number.
        this.stops().closeAmount as number,
        undefined,
        this.stops().params(price!, this.clientId(symbol)),
      );
      this.remember(symbol, placed.id);
      // This cycle's countdown was armed before the stop rested: disarmed now, not at the next cycle.
      // A stop kept from before needs nothing: each cycle's countdown call (and the first, after
      // adopt() at a restart) already sends 0 for a symbol where one rests (live-venue.ts).
      await this.o.disarm?.(symbol);
    }
  }

  private remember(symbol: string, id: string | undefined): void {
    if (id) {
      this.seen.set(symbol, id);
      this.resting.add(symbol);
    } else {
      this.seen.delete(symbol);
      this.resting.delete(symbol);
    }
  }

  /**
   * Our stops that the exchange triggered since the last look (no longer resting, not cancelled by
   * us), each with the trades of the book order it became: the live venue reports them as fills, so
   * a position the exchange's stop closed is the system's own doing, not drift. Each is told once.
   */
  async triggered(): Promise<Array<{ symbol: string; clientOrderId: string; trades: Trade[] }>> {
    const found: Array<{ symbol: string; clientOrderId: string; trades: Trade[] }> = [];
    for (const [symbol, id] of [...this.seen]) {
      const unified = this.o.symbols.unified(symbol);
      const stops = this.stops();
      const order = stops.read
        ? await stops.read(this.o.exchange, id, unified)
        : await this.o.exchange.fetchOrder(id, unified, { ...stops.query });
      if (this.stops().resting(order)) continue;
      this.remember(symbol, undefined);
      const became = this.stops().triggeredOrderId(order);
      if (!became) continue; // cancelled or expired with nothing to close
      const trades = await this.o.exchange.fetchMyTrades(
        unified,
        undefined,
        undefined,
        profileOf(this.o.exchange).tradesOfOrderParams(became),
      );
      found.push({ symbol, clientOrderId: order.clientOrderId ?? id, trades });
    }
    return found;
  }

  private async oursOn(symbol: string): Promise<Order[]> {
    const open = await this.o.exchange.fetchOpenOrders(this.o.symbols.unified(symbol), undefined, undefined, {
      ...this.stops().query,
    });
    return open.filter((o) => isProtectiveStopId(o.clientOrderId));
  }

  private async cancel(order: Order, unified: string): Promise<void> {
    await this.o.exchange.cancelOrder(order.id ?? '', unified, { ...this.stops().query }).catch((err: unknown) => {
      // Gone already (triggered or cancelled meanwhile) is what was wanted.
      if (!(err instanceof this.o.errors.OrderNotFound)) throw err;
    });
  }

  /** Unique among our placements (the exchange wants it unique among open orders), within its length. */
  private clientId(symbol: string): string {
    const rule = profileOf(this.o.exchange).clientOrderId;
    const stamp = `${this.o.now().toString(36)}${(this.placed++).toString(36)}`;
    // Letters and digits only where the exchange's rule says so (OKX): no separators.
    if (rule.alphanumericOnly)
      return `${EXCHANGE_STOP_PREFIX_ALPHANUMERIC}${symbol.replace(/[^A-Za-z0-9]/g, '')}${stamp}`.slice(
        0,
        rule.maxLength,
      );
    return `${EXCHANGE_STOP_PREFIX}${symbol}-${stamp}`.slice(0, rule.maxLength);
  }

  private stops() {
    const profile = profileOf(this.o.exchange);
    // The live venue builds this only for an exchange that has stops (spot has none): a wiring error.
    if (!profile.exchangeStops) throw new Error(`${profile.name}: no exchange-side stops`);
    return profile.exchangeStops;
  }
}
