/**
 * Flatten: closing whole positions reduce-only, asked for by an operator (POST /control/flatten, or
 * the kill switch with `flatten: true`) or by the drawdown circuit breaker. Two halves, one per process:
 *  - `requestFlatten` (API, breaker): audit the request, then queue the `flatten` command. Audit first,
 *    so no flatten ever runs unaudited; the command then runs at least once, in any state.
 *  - `createFlattenPreparation` (trading process): each round of the flatten actor
 *    (machines/flatten.machine.ts) reads the live positions, market and stored epoch and builds the
 *    closes (src/domain/flatten.ts), which then go through risk and the order manager like every order.
 */
import type { CommandRecord } from '../domain/commands.js';
import { flattenRound } from '../domain/flatten.js';
import { withHeldInstruments, withHeldQuotes } from '../domain/held-closes.js';
import type { Instrument, MarketView } from '../domain/market.js';
import type { Clock } from '../ports/clock.js';
import { StoreUnavailableError } from '../ports/store-errors.js';
import type { ControlStore } from '../ports/control-store.js';
import type { EnqueueOptions } from '../ports/command-queue.js';
import type { Store } from '../ports/store.js';
import type { Venue } from '../ports/venue.js';
import type { PreparedFlatten } from '../../machines/flatten.machine.js';
import { enqueueAudited } from './audited-enqueue.js';

export interface FlattenRequest {
  id: string;
  /** null: every position. */
  symbols: readonly string[] | null;
  reason: string;
  actor: string;
  /** ISO 8601 UTC. */
  at: string;
  /** What asked for it, for the audit entry: `flatten`, `kill_switch` or `circuit_breaker`. */
  via: 'flatten' | 'kill_switch' | 'circuit_breaker';
}

/** Audits the request, then queues the command (idempotent by id: a kill's flatten is queued once). */
export async function requestFlatten(
  store: Pick<Store, 'events' | 'commands'>,
  request: FlattenRequest,
  /** The queue's bound for an operator's flatten; none for a kill's (never refused). */
  queue: EnqueueOptions = {},
): Promise<void> {
  const { id, symbols, reason, actor, at, via } = request;
  await store.events.append({
    kind: 'control_call',
    at,
    symbol: symbols?.length === 1 ? (symbols[0] ?? null) : null,
    body: { call: 'flatten', via, actor, symbols: symbols === null ? null : [...symbols], reason, command_id: id },
  });
  await enqueueAudited(
    store,
    {
      id,
      type: 'flatten',
      payload: { symbols: symbols === null ? null : [...symbols], reason, actor },
      enqueued_at: at,
    },
    queue,
  );
}

/**
 * The kill is in the store but the flatten asked for with it is not: the caller must not be told "not
 * recorded". Pressing again queues the same flatten (its id is the kill's epoch), so it is safe.
 */
export class KillFlattenNotQueuedError extends StoreUnavailableError {
  constructor(epoch: number, cause: StoreUnavailableError) {
    super(`killed at epoch ${epoch}; queueing its flatten failed: ${cause.message}`);
  }
}

export interface FlattenPreparationDeps {
  venue: Venue;
  control: ControlStore;
  clock: Clock;
  instruments: ReadonlyMap<string, Instrument>;
  /** The latest market (the current cycle's, or a fresh read when there is none). */
  market(): Promise<MarketView>;
}

export function createFlattenPreparation(deps: FlattenPreparationDeps) {
  return async (command: CommandRecord, round: number): Promise<PreparedFlatten> => {
    // The root routes only flatten commands here; anything else is a wiring error, not an order.
    if (command.type !== 'flatten') throw new TypeError(`${command.type} is not a flatten`);
    const fed = await deps.market();
    // Read for a close: a live venue never holds it back for its own request budget.
    const account = await deps.venue.account(fed, { forClose: true });
    // A held symbol SYMBOLS no longer lists, or the feed no longer carries, is closed all the same.
    const market = withHeldQuotes(fed, account.positions, deps.clock.now());
    const { orders, left } = flattenRound({
      commandId: command.id,
      claim: command.attempts,
      round,
      symbols: command.payload.symbols,
      instruments: withHeldInstruments(deps.instruments, account.positions),
      positions: account.positions,
    });
    // A close with no market data cannot be priced or judged: reported as left, not sent.
    const priced = orders.filter((o) => market.has(o.symbol));
    for (const o of orders) {
      if (!market.has(o.symbol)) {
        left.push({
          symbol: o.symbol,
          position_qty: o.side === 'SELL' ? o.qty : -o.qty,
          why: `no market data for ${o.symbol}`,
        });
      }
    }
    const control = await deps.control.read();
    return { orders: priced, left, account, market, epoch: control.epoch, now: deps.clock.now() };
  };
}
