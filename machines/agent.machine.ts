/**
 * A strategy agent as an actor: on `agent.analyse` it runs its strategy over every instrument's
 * snapshot and replies `agent.signals`. A strategy that throws costs only that symbol's signal and
 * is reported in `errors`; the agent keeps serving.
 */
import { sendTo, setup } from 'xstate';
import type { Instrument } from '../src/domain/market.js';
import type { Signal } from '../src/domain/signal.js';
import type { StrategyAgent } from '../src/domain/strategy-agent.js';
import type { AgentError, AnalyseRequest, SignalsReply } from './messages.js';

export interface AgentInput {
  strategy: StrategyAgent;
  instruments: readonly Instrument[];
}

export function analyseAll(
  strategy: StrategyAgent,
  instruments: readonly Instrument[],
  request: AnalyseRequest,
): SignalsReply {
  const signals: Signal[] = [];
  const errors: AgentError[] = [];
  for (const instrument of instruments) {
    const snapshot = request.market.get(instrument.symbol);
    if (!snapshot) continue;
    try {
      const signal = strategy.analyse(snapshot, instrument);
      if (signal) signals.push(signal);
    } catch (err) {
      errors.push({ symbol: instrument.symbol, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { type: 'agent.signals', cycle: request.cycle, agent: strategy.name, signals, errors };
}

export const agentMachine = setup({
  types: {} as { context: AgentInput; input: AgentInput; events: AnalyseRequest },
}).createMachine({
  id: 'agent',
  context: ({ input }) => input,
  on: {
    'agent.analyse': {
      actions: sendTo(
        ({ event }) => event.replyTo,
        ({ context, event }) => analyseAll(context.strategy, context.instruments, event),
      ),
    },
  },
});
