/**
 * A strategy agent as an actor: on `agent.analyse` it runs its strategy over every instrument's
 * snapshot and replies `agent.signals`. It gives the strategy what it declared (src/domain/
 * strategy-input.ts): never less history than its `lookback` (a symbol without it is skipped), its
 * `timeframe`'s candles, its own position and the account's NAV. What comes back is held to the
 * signal contract: a signal for another symbol or agent, or with a non-integer direction or a
 * confidence outside [0, 1], is discarded and reported in `invalid`. The strategy reads copies (its
 * own candle buffers, a frozen book): nothing it does to them reaches the venue or another agent. A strategy that throws costs
 * only that symbol's signal and is reported in `errors`; the agent keeps serving.
 */
import { sendTo, setup } from 'xstate';
import type { Instrument } from '../src/domain/market.js';
import type { Signal } from '../src/domain/signal.js';
import type { StrategyAgent } from '../src/domain/strategy-agent.js';
import { contractBreach, hasHistory, strategySnapshot } from '../src/domain/strategy-input.js';
import type { HistoryPlan } from '../src/domain/strategy-input.js';
import { PrivateBars } from '../src/domain/private-bars.js';
import type { AgentError, AnalyseRequest, SignalsReply } from './messages.js';

export interface AgentInput {
  strategy: StrategyAgent;
  instruments: readonly Instrument[];
  /** What the strategy declared, resolved against the feed (historyPlan); none: no declaration. */
  plan?: HistoryPlan;
}

const NO_PLAN: HistoryPlan = { lookback: 0, timeframeMs: null, baseBars: 0 };

export function analyseAll(
  strategy: StrategyAgent,
  instruments: readonly Instrument[],
  request: AnalyseRequest,
  plan: HistoryPlan = NO_PLAN,
  own: PrivateBars = new PrivateBars(),
): SignalsReply {
  const signals: Signal[] = [];
  const errors: AgentError[] = [];
  const invalid: SignalsReply['invalid'] = [];
  const nav = request.account?.nav ?? Number.NaN;
  for (const instrument of instruments) {
    const snapshot = request.market.get(instrument.symbol);
    if (!snapshot) continue;
    const higher = plan.timeframeMs === null ? null : (request.resampled?.get(snapshot, plan.timeframeMs) ?? null);
    if (!hasHistory(plan, snapshot.bars, higher)) continue;
    const position =
      request.owners?.get(instrument.symbol) === strategy.name
        ? (request.account?.positions.find((p) => p.symbol === instrument.symbol)?.qty ?? 0)
        : 0;
    let signal: unknown;
    try {
      signal = strategy.analyse(strategySnapshot(snapshot, higher, position, nav, own), instrument);
      // Read once, here: a returned object whose getter throws is the strategy throwing.
      if (typeof signal === 'object' && signal !== null) signal = signalFields(signal as Signal);
    } catch (err) {
      errors.push({ symbol: instrument.symbol, message: err instanceof Error ? err.message : String(err) });
      continue;
    }
    if (signal === null || signal === undefined) continue;
    const breach = contractBreach(signal, strategy.name, instrument.symbol);
    if (breach === null) signals.push(signal as Signal);
    else invalid.push({ symbol: instrument.symbol, reason: breach });
  }
  return { type: 'agent.signals', cycle: request.cycle, agent: strategy.name, signals, errors, invalid };
}

/**
 * The Signal's own fields, copied: whatever else a strategy put on the object (a BigInt, a window of
 * bars) would otherwise reach the decision entry, whose recording then failed while the order traded,
 * and a strategy that changed its object later would change what was decided.
 */
function signalFields(s: Signal): Signal {
  const { agent, symbol, direction, confidence, rationale, target } = s;
  return {
    agent,
    symbol,
    direction,
    confidence,
    ...(typeof rationale === 'string' ? { rationale } : {}),
    // A shallow copy: the contract then judges (and the decision records) what it held when read.
    ...(target !== undefined ? { target: typeof target === 'object' && target !== null ? { ...target } : target } : {}),
  };
}

/** The agent's candle buffers live with it: copies of its own, reused every cycle (private-bars.ts). */
interface AgentContext extends AgentInput {
  own: PrivateBars;
}

export const agentMachine = setup({
  types: {} as { context: AgentContext; input: AgentInput; events: AnalyseRequest },
}).createMachine({
  id: 'agent',
  context: ({ input }) => ({ ...input, own: new PrivateBars() }),
  on: {
    'agent.analyse': {
      actions: sendTo(
        ({ event }) => event.replyTo,
        ({ context, event }) => analyseAll(context.strategy, context.instruments, event, context.plan, context.own),
      ),
    },
  },
});
