/**
 * The arbiter as an actor: weighted arbitration (src/domain/arbitration.ts) on request. It never
 * throws: an error selects nothing this cycle (so nothing trades) instead of stopping the actor
 * system, whose order manager must stay alive to cancel.
 */
import { sendTo, setup } from 'xstate';
import { arbitrate } from '../src/domain/arbitration.js';
import type { ArbitrationOptions } from '../src/domain/arbitration.js';
import type { SelectRequest } from './messages.js';
import { safely } from './safely.js';

export const arbiterMachine = setup({
  types: {} as { context: { options: ArbitrationOptions }; input: ArbitrationOptions; events: SelectRequest },
}).createMachine({
  id: 'arbiter',
  context: ({ input }) => ({ options: input }),
  on: {
    'arbiter.select': {
      actions: sendTo(
        ({ event }) => event.replyTo,
        ({ context, event }) => ({
          type: 'arbiter.selected' as const,
          cycle: event.cycle,
          result: safely(() => arbitrate(event.signals, context.options, event.holdings), {
            ranked: [],
            selected: [],
            maxOrders: 0,
          }),
        }),
      ),
    },
  },
});
