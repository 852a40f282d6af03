// Arbiter actor, alone: on `arbiter.select` it replies `arbiter.selected` to replyTo with exactly what
// the domain's `arbitrate(signals, options)` returns for the options it was started with.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { arbiterMachine } from '../../machines/arbiter.machine.js';
import type { SelectedReply } from '../../machines/messages.js';
import { arbitrate } from '../../src/domain/arbitration.js';
import type { ArbitrationOptions } from '../../src/domain/arbitration.js';
import type { Signal } from '../../src/domain/signal.js';
import { collector } from './support.js';

const signals: Signal[] = [
  { agent: 'a', symbol: 'BTCUSDT', direction: 1, confidence: 0.6 },
  { agent: 'b', symbol: 'BTCUSDT', direction: -1, confidence: 0.7 },
  { agent: 'a', symbol: 'ETHUSDT', direction: 1, confidence: 0.9 },
  { agent: 'b', symbol: 'SOLUSDT', direction: 1, confidence: 0.05 },
];

describe('arbiter machine', () => {
  it.each<{ name: string; options: ArbitrationOptions }>([
    { name: 'defaults', options: {} },
    { name: 'weights favour agent b, two orders', options: { weights: { a: 0.5, b: 2 }, maxOrders: 2 } },
    { name: 'everything allowed', options: { minConfidence: 0, maxOrders: 10 } },
  ])('replies with arbitrate(signals, options): $name', ({ options }) => {
    const arbiter = createActor(arbiterMachine, { input: options }).start();
    const replies = collector<SelectedReply>();
    arbiter.send({ type: 'arbiter.select', cycle: 4, signals, replyTo: replies.ref });
    expect(replies.events).toEqual([{ type: 'arbiter.selected', cycle: 4, result: arbitrate(signals, options) }]);
  });

  it('uses its options: weights change the winner', () => {
    const plain = collector<SelectedReply>();
    const weighted = collector<SelectedReply>();
    createActor(arbiterMachine, { input: {} })
      .start()
      .send({ type: 'arbiter.select', cycle: 1, signals, replyTo: plain.ref });
    createActor(arbiterMachine, { input: { weights: { b: 2 } } })
      .start()
      .send({ type: 'arbiter.select', cycle: 1, signals, replyTo: weighted.ref });
    // Each symbol's best: the weight decides BTC's (a's long at 0.6 vs b's short at 0.7 × 2).
    expect(plain.events[0]!.result.selected).toEqual([signals[2], signals[1]]);
    expect(weighted.events[0]!.result.selected).toEqual([signals[1], signals[2]]);
  });

  it('replies with an empty selection when there are no signals', () => {
    const arbiter = createActor(arbiterMachine, { input: {} }).start();
    const replies = collector<SelectedReply>();
    arbiter.send({ type: 'arbiter.select', cycle: 2, signals: [], replyTo: replies.ref });
    expect(replies.events).toEqual([
      { type: 'arbiter.selected', cycle: 2, result: { ranked: [], selected: [], maxOrders: 1 } },
    ]);
  });
});
