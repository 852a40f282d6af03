/**
 * One replay of a strategy check: a fresh agent asked every cycle from `from` to `to` of a tape,
 * through the trading system's own call path (analyseAll: the history check, the agent's private
 * copies of its candles, the frozen book, the signal contract), with a window of `window` bars. The
 * check is about what the strategy sees, not what the account does: its position is always 0 and
 * the NAV the starting cash.
 */
import { analyseAll } from '../../../machines/agent.machine.js';
import type { AnalyseRequest } from '../../../machines/messages.js';
import { PrivateBars } from '../../domain/private-bars.js';
import type { AccountSnapshot } from '../../domain/portfolio.js';
import type { StrategyAgent } from '../../domain/strategy-agent.js';
import { historyPlan, ResampleCache } from '../../domain/strategy-input.js';
import type { Answer } from './compare.js';
import { signalOutcome } from './compare.js';
import { cycleView } from './tape.js';
import type { Tape } from './tape.js';

export interface ReplaySpan {
  /** First cycle asked. */
  from: number;
  /** Last cycle asked (inclusive). */
  to: number;
  /** Bars of history each snapshot holds at most. */
  window: number;
  nav: number;
}

/** `afterCycle`: told each cycle's symbols once the agent has answered (the check reads its indicators then). */
export function replay(
  agent: StrategyAgent,
  tape: Tape,
  span: ReplaySpan,
  afterCycle?: (cycle: number, symbols: Iterable<string>) => void,
): Answer[] {
  const plan = historyPlan(agent, tape.stepMs);
  const own = new PrivateBars();
  // Only the NAV is read of the account when no symbol is this agent's (owners is empty).
  const account = { nav: span.nav, positions: [] } as unknown as AccountSnapshot;
  const answers: Answer[] = [];
  for (let cycle = span.from; cycle <= span.to; cycle++) {
    const market = cycleView(tape, cycle, span.window);
    const request = {
      type: 'agent.analyse',
      cycle,
      market,
      account,
      owners: new Map(),
      resampled: new ResampleCache(tape.stepMs),
    } as unknown as AnalyseRequest;
    const reply = analyseAll(agent, tape.instruments, request, plan, own);
    const asked = new Set<string>();
    for (const s of reply.signals) {
      answers.push({ cycle, symbol: s.symbol, outcome: signalOutcome(s) });
      asked.add(s.symbol);
    }
    for (const e of reply.errors) {
      answers.push({ cycle, symbol: e.symbol, outcome: { kind: 'error', message: e.message } });
      asked.add(e.symbol);
    }
    for (const e of reply.invalid) {
      answers.push({ cycle, symbol: e.symbol, outcome: { kind: 'error', message: `invalid signal: ${e.reason}` } });
      asked.add(e.symbol);
    }
    // A symbol without an answer: no signal. (The tape holds the agent's whole history before the
    // first cycle, so it is never left unasked for want of bars.)
    for (const symbol of market.keys())
      if (!asked.has(symbol)) answers.push({ cycle, symbol, outcome: { kind: 'none' } });
    afterCycle?.(cycle, market.keys());
  }
  return answers;
}
