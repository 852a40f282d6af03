// Strategy agent actor, alone, with fake strategies: replies `agent.signals` to replyTo with a signal
// for every instrument that has a snapshot (and only those), reports a throwing symbol in `errors`
// while the other symbols' signals still arrive, and keeps serving later requests.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import type { SignalsReply } from '../../machines/messages.js';
import type { Instrument } from '../../src/domain/market.js';
import type { Signal } from '../../src/domain/signal.js';
import type { StrategyAgent, StrategySnapshot } from '../../src/domain/strategy-agent.js';
import { BTC, ETH, SOL, collector, marketView, snapshot } from './support.js';

/** Goes long every symbol it sees, confidence from the price; throws for symbols in `failFor`. */
function fakeStrategy(name: string, failFor: string[] = []) {
  const seen: string[] = [];
  const strategy: StrategyAgent = {
    name,
    analyse(s: StrategySnapshot, instrument: Instrument): Signal | null {
      seen.push(`${s.symbol}/${instrument.symbol}`);
      if (failFor.includes(s.symbol)) throw new Error(`cannot read ${s.symbol}`);
      return { agent: name, symbol: s.symbol, direction: 1, confidence: s.last / 100_000 };
    },
  };
  return { strategy, seen };
}

describe('agent machine', () => {
  it('replies with a signal for every instrument that has a snapshot, skipping the others', () => {
    const { strategy, seen } = fakeStrategy('trend');
    const agent = createActor(agentMachine, { input: { strategy, instruments: [BTC, ETH, SOL] } }).start();
    const replies = collector<SignalsReply>();
    const market = marketView(snapshot('BTCUSDT', 50_000), snapshot('SOLUSDT', 100));
    agent.send({ type: 'agent.analyse', cycle: 7, market, replyTo: replies.ref });
    expect(replies.events).toEqual([
      {
        type: 'agent.signals',
        cycle: 7,
        agent: 'trend',
        signals: [
          { agent: 'trend', symbol: 'BTCUSDT', direction: 1, confidence: 0.5 },
          { agent: 'trend', symbol: 'SOLUSDT', direction: 1, confidence: 0.001 },
        ],
        errors: [],
        invalid: [],
      },
    ]);
    // Each snapshot is paired with its own instrument; ETH (no snapshot) is never analysed.
    expect(seen).toEqual(['BTCUSDT/BTCUSDT', 'SOLUSDT/SOLUSDT']);
  });

  it('leaves out symbols for which the strategy has nothing to say (null)', () => {
    const strategy: StrategyAgent = {
      name: 'picky',
      analyse: (s) =>
        s.symbol === 'ETHUSDT' ? { agent: 'picky', symbol: s.symbol, direction: -1, confidence: 0.9 } : null,
    };
    const agent = createActor(agentMachine, { input: { strategy, instruments: [BTC, ETH] } }).start();
    const replies = collector<SignalsReply>();
    agent.send({
      type: 'agent.analyse',
      cycle: 1,
      market: marketView(snapshot('BTCUSDT', 100), snapshot('ETHUSDT', 100)),
      replyTo: replies.ref,
    });
    expect(replies.events[0]!.signals).toEqual([{ agent: 'picky', symbol: 'ETHUSDT', direction: -1, confidence: 0.9 }]);
    expect(replies.events[0]!.errors).toEqual([]);
  });

  it('a strategy that throws for one symbol yields that symbol in errors; the other signals still arrive', () => {
    const { strategy } = fakeStrategy('fragile', ['ETHUSDT']);
    const agent = createActor(agentMachine, { input: { strategy, instruments: [BTC, ETH, SOL] } }).start();
    const replies = collector<SignalsReply>();
    const market = marketView(snapshot('BTCUSDT', 50_000), snapshot('ETHUSDT', 3_000), snapshot('SOLUSDT', 100));
    agent.send({ type: 'agent.analyse', cycle: 2, market, replyTo: replies.ref });
    expect(replies.events).toHaveLength(1);
    const reply = replies.events[0]!;
    expect(reply.signals.map((s) => s.symbol)).toEqual(['BTCUSDT', 'SOLUSDT']);
    expect(reply.errors).toEqual([{ symbol: 'ETHUSDT', message: 'cannot read ETHUSDT' }]);
    expect(agent.getSnapshot().status).toBe('active');
  });

  it('keeps serving after a strategy error, answering each request with its own cycle', () => {
    const { strategy } = fakeStrategy('fragile', ['BTCUSDT']);
    const agent = createActor(agentMachine, { input: { strategy, instruments: [BTC, ETH] } }).start();
    const replies = collector<SignalsReply>();
    agent.send({ type: 'agent.analyse', cycle: 1, market: marketView(snapshot('BTCUSDT', 100)), replyTo: replies.ref });
    agent.send({
      type: 'agent.analyse',
      cycle: 2,
      market: marketView(snapshot('BTCUSDT', 100), snapshot('ETHUSDT', 2_000)),
      replyTo: replies.ref,
    });
    expect(
      replies.events.map((r) => ({ cycle: r.cycle, symbols: r.signals.map((s) => s.symbol), errors: r.errors.length })),
    ).toEqual([
      { cycle: 1, symbols: [], errors: 1 },
      { cycle: 2, symbols: ['ETHUSDT'], errors: 1 },
    ]);
  });

  it('replies to the replyTo named in each request', () => {
    const { strategy } = fakeStrategy('trend');
    const agent = createActor(agentMachine, { input: { strategy, instruments: [BTC] } }).start();
    const a = collector<SignalsReply>();
    const b = collector<SignalsReply>();
    agent.send({ type: 'agent.analyse', cycle: 1, market: marketView(snapshot('BTCUSDT', 100)), replyTo: a.ref });
    agent.send({ type: 'agent.analyse', cycle: 2, market: marketView(snapshot('BTCUSDT', 100)), replyTo: b.ref });
    expect(a.events.map((e) => e.cycle)).toEqual([1]);
    expect(b.events.map((e) => e.cycle)).toEqual([2]);
  });
});
