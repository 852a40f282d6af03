/**
 * The allocator as an actor: turns each selected signal into a target position and the order that
 * trades the difference (src/domain/allocation.ts). It remembers which agent set each symbol's
 * target, so an exit signal closes only the position its own agent asked for (one agent's "flat" must
 * not close another's trade); the memory starts empty on restart, when exits apply to no one until a
 * directional signal sets the symbol's owner again. It never throws: on an error every signal is
 * skipped with ALLOCATOR_ERROR, so nothing trades.
 */
import { assign, sendTo, setup } from 'xstate';
import { allocate } from '../src/domain/allocation.js';
import type { AllocationSettings, Proposal } from '../src/domain/allocation.js';
import type { Instrument } from '../src/domain/market.js';
import type { SizeRequest } from './messages.js';
import { safely } from './safely.js';

export interface AllocatorInput extends AllocationSettings {
  instruments: readonly Instrument[];
}

interface AllocatorContext {
  settings: AllocationSettings;
  instruments: ReadonlyMap<string, Instrument>;
  /** symbol → the agent whose signal set its target. */
  owners: ReadonlyMap<string, string>;
  last: Proposal[];
}

function size(context: AllocatorContext, event: SizeRequest): Proposal[] {
  return safely(
    () =>
      allocate(
        event.selected,
        {
          account: event.account,
          market: event.market,
          instruments: context.instruments,
          cycle: event.cycle,
          owners: context.owners,
          ...(event.maxOrders !== undefined ? { maxOrders: event.maxOrders } : {}),
        },
        context.settings,
      ),
    (err) =>
      event.selected.map((signal) => ({ signal, order: null, skipped: { code: 'ALLOCATOR_ERROR', message: err } })),
  );
}

/** A directional order makes its agent the symbol's owner; a close of the whole position clears it. */
function nextOwners(owners: ReadonlyMap<string, string>, proposals: readonly Proposal[]): Map<string, string> {
  const next = new Map(owners);
  for (const p of proposals) {
    if (!p.order) continue;
    if (p.sizing?.kind === 'close') next.delete(p.order.symbol);
    else if (Math.sign(p.signal.direction) !== 0) next.set(p.order.symbol, p.signal.agent);
  }
  return next;
}

export const allocatorMachine = setup({
  types: {} as { context: AllocatorContext; input: AllocatorInput; events: SizeRequest },
}).createMachine({
  id: 'allocator',
  context: ({ input }) => {
    const { instruments, ...settings } = input;
    return { settings, instruments: new Map(instruments.map((i) => [i.symbol, i])), owners: new Map(), last: [] };
  },
  on: {
    'allocator.size': {
      actions: [
        assign(({ context, event }) => {
          const last = size(context, event);
          return { last, owners: nextOwners(context.owners, last) };
        }),
        sendTo(
          ({ event }) => event.replyTo,
          ({ context, event }) => ({ type: 'allocator.sized' as const, cycle: event.cycle, proposals: context.last }),
        ),
      ],
    },
  },
});
