/**
 * The allocator as an actor: sizes each selected signal into an order (src/domain/allocation.ts).
 * It never throws: on an error every signal is skipped with ALLOCATOR_ERROR, so nothing trades.
 */
import { sendTo, setup } from 'xstate';
import { allocate } from '../src/domain/allocation.js';
import type { AllocationSettings } from '../src/domain/allocation.js';
import type { Instrument } from '../src/domain/market.js';
import type { SizeRequest } from './messages.js';
import { safely } from './safely.js';

export interface AllocatorInput extends AllocationSettings {
  instruments: readonly Instrument[];
}

export const allocatorMachine = setup({
  types: {} as {
    context: { settings: AllocationSettings; instruments: ReadonlyMap<string, Instrument> };
    input: AllocatorInput;
    events: SizeRequest;
  },
}).createMachine({
  id: 'allocator',
  context: ({ input }) => ({
    settings: { riskFraction: input.riskFraction, orderStyle: input.orderStyle, sessionId: input.sessionId },
    instruments: new Map(input.instruments.map((i) => [i.symbol, i])),
  }),
  on: {
    'allocator.size': {
      actions: sendTo(
        ({ event }) => event.replyTo,
        ({ context, event }) => ({
          type: 'allocator.sized' as const,
          cycle: event.cycle,
          proposals: safely(
            () =>
              allocate(
                event.selected,
                { account: event.account, market: event.market, instruments: context.instruments, cycle: event.cycle },
                context.settings,
              ),
            (err) =>
              event.selected.map((signal) => ({
                signal,
                order: null,
                skipped: { code: 'ALLOCATOR_ERROR', message: err },
              })),
          ),
        }),
      ),
    },
  },
});
