/**
 * The allocator as an actor: turns each selected signal into a target position and the order that
 * trades the difference (src/domain/allocation.ts). It remembers which agent set each symbol's
 * target, so an exit signal closes only the position its own agent asked for (one agent's "flat" must
 * not close another's trade). An owner is forgotten only once the account holds nothing in the symbol
 * (no position, nothing resting), never when a close is merely sized: a close the exchange refused
 * leaves the position its owner's, so the owner's next "flat" sizes the close again from the position
 * then held (reduce-only, never past flat). The memory starts from `owners` (what the last process
 * stored, OWNERS_KEY) and goes back in the reply whenever it changed, for the recorder to store, so
 * after a restart the adopted position's strategy still closes it. A strategy's close sized again while
 * the position is still held waits out a backoff on the cycle's monotonic clock
 * (src/domain/close-backoff.ts; skipped CLOSE_BACKOFF meanwhile). It never throws: on an error every signal is
 * skipped with ALLOCATOR_ERROR, so nothing trades.
 *
 * It also keeps the protective exits' state (src/domain/protection.ts): each request first judges
 * the held positions against the last bar, and the exits triggered are sized before any signal.
 * A stop the exchange triggered (SizeRequest.stopped) starts the same cooldown as one fired here.
 * That state (trailing best prices, cooldowns) starts from `protectionState` (what the last process
 * stored) and goes back in the reply whenever it changed, for the cycle's recorder to store.
 */
import { assign, sendTo, setup } from 'xstate';
import { allocate } from '../src/domain/allocation.js';
import type { AllocationSettings, Proposal } from '../src/domain/allocation.js';
import { closeBackoffLeft, nextCloseAttempts } from '../src/domain/close-backoff.js';
import type { CloseAttempts } from '../src/domain/close-backoff.js';
import type { Instrument } from '../src/domain/market.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import {
  EMPTY_PROTECTION_STATE,
  NO_PROTECTION,
  coolingDown,
  exchangeStopExits,
  protect,
  startCooldowns,
} from '../src/domain/protection.js';
import type { ProtectionSettings, ProtectionState } from '../src/domain/protection.js';
import type { Signal } from '../src/domain/signal.js';
import type { SizeRequest } from './messages.js';
import { safely } from './safely.js';

export interface AllocatorInput extends AllocationSettings {
  instruments: readonly Instrument[];
  /** STOP_LOSS, TAKE_PROFIT, TRAILING_STOP, COOLDOWN_AFTER_STOP, PROTECTION_PARAMS; default none. */
  protection?: ProtectionSettings;
  /** The protective exits' state the last process stored (PROTECTION_KEY); default empty. */
  protectionState?: ProtectionState;
  /** symbol → owning agent, as the last process stored it (OWNERS_KEY); default none. */
  owners?: Readonly<Record<string, string>>;
}

interface AllocatorContext {
  settings: AllocationSettings;
  instruments: ReadonlyMap<string, Instrument>;
  /** symbol → the agent whose signal set its target. */
  owners: ReadonlyMap<string, string>;
  last: Proposal[];
  protection: ProtectionSettings;
  protectionState: ProtectionState;
  /** Whether the last request changed `protectionState` (then the reply carries it). */
  protectionChanged: boolean;
  /** Whether the last request changed `owners` (then the reply carries it). */
  ownersChanged: boolean;
  /** The strategies' last close of each symbol still held, for the backoff between closes. */
  closes: CloseAttempts;
}

interface Sized {
  proposals: Proposal[];
  state: ProtectionState;
}

function size(context: AllocatorContext, event: SizeRequest): Sized {
  return safely(
    (): Sized => {
      const judged = protect(
        context.protectionState,
        event.account.positions,
        event.market,
        context.owners,
        context.protection,
      );
      // A stop the exchange triggered closed the position before this judgement could see it held.
      const onExchange = exchangeStopExits(context.protectionState, event.stopped ?? [], context.owners);
      const state = startCooldowns(judged.state, [...judged.exits, ...onExchange], context.protection, event.cycle);
      const waiting = (signal: Signal) =>
        event.steady !== undefined &&
        Math.sign(signal.direction) === 0 &&
        closeBackoffLeft(context.closes, signal.symbol, event.steady) !== null;
      const proposals = allocate(
        event.selected.filter((signal) => !waiting(signal)),
        {
          account: event.account,
          market: event.market,
          instruments: context.instruments,
          cycle: event.cycle,
          owners: context.owners,
          ...(event.maxOrders !== undefined ? { maxOrders: event.maxOrders } : {}),
          exits: judged.exits,
          coolingDown: (agent, symbol) => coolingDown(state, agent, symbol, event.cycle),
        },
        context.settings,
      );
      const backingOff = event.selected.filter(waiting).map((signal): Proposal => ({
        signal,
        order: null,
        skipped: {
          code: 'CLOSE_BACKOFF',
          message: `the last close of ${signal.symbol} did not finish; the next in ${closeBackoffLeft(context.closes, signal.symbol, event.steady!)} ms`,
        },
      }));
      return { proposals: [...proposals, ...backingOff], state };
    },
    (err) => ({
      proposals: event.selected.map((signal) => ({
        signal,
        order: null,
        skipped: { code: 'ALLOCATOR_ERROR', message: err },
      })),
      state: context.protectionState,
    }),
  );
}

/**
 * A directional order makes its agent the symbol's owner. A symbol the account (as the cycle read it)
 * holds nothing in, neither position nor resting order, has no owner any more; a close only sized
 * keeps its owner until the account shows it flat (it may be refused or not fill).
 */
function nextOwners(
  owners: ReadonlyMap<string, string>,
  proposals: readonly Proposal[],
  account: AccountSnapshot,
): Map<string, string> {
  const held = heldSymbols(account);
  const next = new Map([...owners].filter(([symbol]) => held.has(symbol)));
  for (const p of proposals) {
    if (p.order && Math.sign(p.signal.direction) !== 0 && p.sizing?.kind !== 'close')
      next.set(p.order.symbol, p.signal.agent);
  }
  return next;
}

/** The symbols the account holds a position or a resting order in. */
function heldSymbols(account: AccountSnapshot): Set<string> {
  const held = new Set<string>();
  for (const p of account.positions) if (p.qty !== 0) held.add(p.symbol);
  for (const o of account.openOrders) if (o.status === 'open') held.add(o.symbol);
  return held;
}

/** The strategies' closes sized now (protective exits are judged afresh each cycle, not spaced here). */
function closesSized(proposals: readonly Proposal[]): string[] {
  return proposals
    .filter((p) => p.order && !p.exit && Math.sign(p.signal.direction) === 0 && p.sizing?.kind === 'close')
    .map((p) => p.order!.symbol);
}

function sameOwners(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([symbol, agent]) => b.get(symbol) === agent);
}

export const allocatorMachine = setup({
  types: {} as { context: AllocatorContext; input: AllocatorInput; events: SizeRequest },
}).createMachine({
  id: 'allocator',
  context: ({ input }) => {
    const { instruments, protection, protectionState, owners, ...settings } = input;
    return {
      settings,
      instruments: new Map(instruments.map((i) => [i.symbol, i])),
      owners: new Map(Object.entries(owners ?? {})),
      last: [],
      protection: protection ?? NO_PROTECTION,
      protectionState: protectionState ?? EMPTY_PROTECTION_STATE,
      protectionChanged: false,
      ownersChanged: false,
      closes: new Map(),
    };
  },
  on: {
    'allocator.size': {
      actions: [
        assign(({ context, event }) => {
          const { proposals: last, state } = size(context, event);
          const changed = JSON.stringify(state) !== JSON.stringify(context.protectionState);
          const owners = nextOwners(context.owners, last, event.account);
          return {
            last,
            owners,
            protectionState: state,
            protectionChanged: changed,
            ownersChanged: !sameOwners(owners, context.owners),
            closes:
              event.steady === undefined
                ? context.closes
                : nextCloseAttempts(context.closes, heldSymbols(event.account), closesSized(last), event.steady),
          };
        }),
        sendTo(
          ({ event }) => event.replyTo,
          ({ context, event }) => ({
            type: 'allocator.sized' as const,
            cycle: event.cycle,
            proposals: context.last,
            ...(context.protectionChanged ? { protection: context.protectionState } : {}),
            ...(context.ownersChanged ? { owners: Object.fromEntries(context.owners) } : {}),
          }),
        ),
      ],
    },
  },
});
