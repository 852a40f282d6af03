/**
 * Preparing a deleverage command for the risk actor: the live position (not the API's snapshot), the
 * reduce-only order from it, the market and account the risk engine judges it on, and the stored
 * control epoch to sign it for. When there is nothing to send (flat, less than a lot) the result says
 * so and the command completes without an order. A held symbol SYMBOLS no longer lists is reduced
 * like any other (held-closes.ts). The payload arrives decoded and validated by the queue
 * (src/domain/commands.ts).
 */
import { deleverageOrder } from '../domain/deleverage.js';
import { instrumentOf } from '../domain/instruments.js';
import { withHeldInstruments, withHeldQuotes } from '../domain/held-closes.js';
import type { CommandRecord } from '../domain/commands.js';
import type { Instrument, MarketView } from '../domain/market.js';
import type { Clock } from '../ports/clock.js';
import type { ControlStore } from '../ports/control-store.js';
import type { Venue } from '../ports/venue.js';
import type { PreparedDeleverage } from '../../machines/deleverage.machine.js';

export interface DeleveragePreparationDeps {
  venue: Venue;
  control: ControlStore;
  clock: Clock;
  instruments: ReadonlyMap<string, Instrument>;
  /** The latest market (the current cycle's, or a fresh read when there is none). */
  market(): Promise<MarketView>;
}

export function createDeleveragePreparation(deps: DeleveragePreparationDeps) {
  return async (command: CommandRecord): Promise<PreparedDeleverage> => {
    // The root routes only deleverage commands here; anything else is a wiring error, not an order.
    if (command.type !== 'deleverage') {
      return { kind: 'result', result: { status: 'invalid', message: `${command.type} is not a deleverage` } };
    }
    const { symbol } = command.payload;
    const fed = await deps.market();
    // Read for a close: a live venue never holds it back for its own request budget.
    const account = await deps.venue.account(fed, { forClose: true });
    const position = account.positions.find((p) => p.symbol === symbol)?.qty ?? 0;
    // A held symbol SYMBOLS no longer lists, or the feed no longer carries, is reduced all the same.
    const market = withHeldQuotes(fed, account.positions, deps.clock.now());
    // Not held and not listed: no instrument is needed to answer "no open position", as for a listed one.
    const instrument =
      withHeldInstruments(deps.instruments, account.positions).get(symbol) ?? instrumentOf(symbol, 'perp');
    const prepared = deleverageOrder(command.id, command.payload, instrument, position);
    if (prepared.kind === 'invalid')
      return { kind: 'result', result: { status: 'invalid', message: prepared.message } };
    if (prepared.kind === 'nothing') {
      return {
        kind: 'result',
        result: { status: 'nothing', message: prepared.message, position_qty: prepared.positionQty },
      };
    }
    if (!market.has(symbol)) {
      return { kind: 'result', result: { status: 'invalid', message: `no market data for ${symbol}` } };
    }
    const control = await deps.control.read();
    return { kind: 'order', order: prepared.order, account, market, epoch: control.epoch, now: deps.clock.now() };
  };
}
