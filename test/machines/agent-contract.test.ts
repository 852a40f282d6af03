// Issue 19, the agent actor's side of the strategy interface, each failing before: a signal naming
// another agent ('badagent') or another symbol (an ETHUSDT signal from a BTCUSDT analysis) traded;
// now they are discarded and reported in `invalid`. An agent is never called with less history than
// it declared, is given its declared timeframe's candles, and is told its own position (only where
// its signal set it) and the NAV.
import { describe, expect, it } from 'vitest';
import { analyseAll } from '../../machines/agent.machine.js';
import type { AnalyseRequest, SignalsReply } from '../../machines/messages.js';
import { barsFromCloses } from '../../src/domain/bars.js';
import type { Instrument } from '../../src/domain/market.js';
import type { Signal } from '../../src/domain/signal.js';
import type { StrategyAgent, StrategySnapshot } from '../../src/domain/strategy-agent.js';
import { historyPlan, ResampleCache } from '../../src/domain/strategy-input.js';
import { BTC, ETH, account, collector, marketView, snapshot } from './support.js';
import { position } from '../domain/risk/builders.js';

const MIN = 60_000;
const request = (over: Partial<AnalyseRequest> = {}): AnalyseRequest => ({
  type: 'agent.analyse',
  cycle: 3,
  market: marketView(snapshot('BTCUSDT', 100), snapshot('ETHUSDT', 2_000)),
  replyTo: collector<SignalsReply>().ref,
  ...over,
});

function says(name: string, signal: (s: StrategySnapshot, i: Instrument) => Signal | null): StrategyAgent {
  return { name, analyse: signal };
}

describe('agent actor: the signal contract (issue 19)', () => {
  it('discards a signal that names another agent, and one for another symbol', () => {
    const impostor = says('mine', (s) => ({ agent: 'badagent', symbol: s.symbol, direction: 1, confidence: 1 }));
    const wrong = says('mine', () => ({ agent: 'mine', symbol: 'ETHUSDT', direction: 1, confidence: 1 }));
    const a = analyseAll(impostor, [BTC], request());
    expect(a.signals).toEqual([]);
    expect(a.invalid).toEqual([{ symbol: 'BTCUSDT', reason: 'signal names agent "badagent", not "mine"' }]);
    const b = analyseAll(wrong, [BTC, ETH], request());
    // Analysing ETHUSDT the same signal is right; analysing BTCUSDT it is not.
    expect(b.signals).toEqual([{ agent: 'mine', symbol: 'ETHUSDT', direction: 1, confidence: 1 }]);
    expect(b.invalid).toEqual([{ symbol: 'BTCUSDT', reason: 'signal for "ETHUSDT" returned when analysing BTCUSDT' }]);
  });
});

describe('agent actor: what a strategy returns is copied to the Signal fields', () => {
  it('keeps agent, symbol, direction, confidence and a text rationale, and nothing else', () => {
    // Extra fields used to ride along into the decision entry: a BigInt there made every cycle's
    // recording fail ("Do not know how to serialize a BigInt") while the order still traded.
    const extra = says(
      'mine',
      (s) =>
        ({
          agent: 'mine',
          symbol: s.symbol,
          direction: 1,
          confidence: 0.5,
          rationale: 'why',
          meta: 10n,
          weight: 99,
        }) as Signal,
    );
    const reply = analyseAll(extra, [BTC], request());
    expect(reply.signals).toEqual([
      { agent: 'mine', symbol: 'BTCUSDT', direction: 1, confidence: 0.5, rationale: 'why' },
    ]);
    expect(() => JSON.stringify(reply.signals)).not.toThrow();
    // A rationale that is not text is left out rather than carried.
    const odd = says(
      'mine',
      (s) => ({ agent: 'mine', symbol: s.symbol, direction: -1, confidence: 1, rationale: 5n }) as never,
    );
    expect(analyseAll(odd, [BTC], request()).signals).toEqual([
      { agent: 'mine', symbol: 'BTCUSDT', direction: -1, confidence: 1 },
    ]);
  });

  it('counts a returned object that throws when read as the strategy throwing, and keeps serving', () => {
    // Reading it happened outside the try around analyse: the error escaped the agent actor and
    // stopped the trading system, where a strategy that throws costs only that symbol's signal.
    const trap = says(
      'mine',
      (s) =>
        (s.symbol === 'BTCUSDT'
          ? {
              get agent(): string {
                throw new Error('boom');
              },
              symbol: s.symbol,
              direction: 1,
              confidence: 1,
            }
          : { agent: 'mine', symbol: s.symbol, direction: 1, confidence: 1 }) as Signal,
    );
    const reply = analyseAll(trap, [BTC, ETH], request());
    expect(reply.errors).toEqual([{ symbol: 'BTCUSDT', message: 'boom' }]);
    expect(reply.signals).toEqual([{ agent: 'mine', symbol: 'ETHUSDT', direction: 1, confidence: 1 }]);
  });

  it('is not changed by the strategy after it returned', () => {
    const kept: Signal[] = [];
    const fickle = says('mine', (s) => {
      const signal = { agent: 'mine', symbol: s.symbol, direction: 1, confidence: 0.5 };
      kept.push(signal);
      return signal;
    });
    const reply = analyseAll(fickle, [BTC], request());
    kept[0]!.direction = 7;
    expect(reply.signals[0]!.direction).toBe(1);
  });
});

describe('agent actor: what a strategy is given (issue 19)', () => {
  it('is never called with less history than it declared', () => {
    const seen: number[] = [];
    const needy: StrategyAgent = {
      name: 'needy',
      lookback: 5,
      analyse: (s) => (seen.push(s.candles.length), null),
    };
    const plan = historyPlan(needy, MIN);
    const short = snapshot('BTCUSDT', 100, { bars: barsFromCloses([1, 2, 3, 4]) });
    const enough = snapshot('ETHUSDT', 100, { bars: barsFromCloses([1, 2, 3, 4, 5]) });
    analyseAll(needy, [BTC, ETH], request({ market: marketView(short, enough) }), plan);
    expect(seen).toEqual([5]);
  });

  it("gives the declared timeframe's completed candles", () => {
    let higher: StrategySnapshot['higher'] = null;
    const hourly: StrategyAgent = {
      name: 'hourly',
      lookback: 2,
      timeframe: '5m',
      analyse: (s) => ((higher = s.higher), null),
    };
    const bars = barsFromCloses(
      Array.from({ length: 12 }, (_, i) => 100 + i),
      MIN,
      0,
    );
    const market = marketView(snapshot('BTCUSDT', 111, { bars }));
    analyseAll(hourly, [BTC], request({ market, resampled: new ResampleCache(MIN) }), historyPlan(hourly, MIN));
    expect(Array.from(higher!.close)).toEqual([104, 109]);
  });

  it("tells the agent its own position (not another agent's) and the NAV", () => {
    const told: [string, number, number][] = [];
    const mine = says('mine', (s) => (told.push([s.symbol, s.position, s.nav]), null));
    const acct = account({ nav: 12_000, positions: [position('BTCUSDT', 2, 100), position('ETHUSDT', -1, 2_000)] });
    const owners = new Map([
      ['BTCUSDT', 'mine'],
      ['ETHUSDT', 'theirs'],
    ]);
    analyseAll(mine, [BTC, ETH], request({ account: acct, owners }));
    expect(told).toEqual([
      ['BTCUSDT', 2, 12_000],
      ['ETHUSDT', 0, 12_000],
    ]);
  });
});

describe('agent actor: a signal that sizes itself (issue 34, item 4)', () => {
  it('keeps a valid target as it was when returned, and reports a malformed one as invalid', () => {
    const held = { notional: 500 };
    const sizer = says('mine', (s) => ({ agent: 'mine', symbol: s.symbol, direction: 1, confidence: 1, target: held }));
    const reply = analyseAll(sizer, [BTC], request());
    held.notional = 5_000_000; // the strategy changes its object afterwards: what was decided stays
    expect(reply.signals).toEqual([
      { agent: 'mine', symbol: 'BTCUSDT', direction: 1, confidence: 1, target: { notional: 500 } },
    ]);
    const typo = says(
      'mine',
      (s) => ({ agent: 'mine', symbol: s.symbol, direction: 1, confidence: 1, target: { navFraction: 50 } }) as Signal,
    );
    const bad = analyseAll(typo, [BTC], request());
    expect(bad.signals).toEqual([]);
    expect(bad.invalid[0]!.reason).toMatch(/target\.navFraction 50 is not a fraction/);
  });
});
