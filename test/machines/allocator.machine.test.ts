// Allocator actor, alone: on `allocator.size` it replies `allocator.sized` to replyTo with exactly
// what the domain's `allocate(...)` returns for its settings and instruments, including skips.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { allocatorMachine } from '../../machines/allocator.machine.js';
import type { AllocatorInput } from '../../machines/allocator.machine.js';
import type { SizedReply } from '../../machines/messages.js';
import { allocate } from '../../src/domain/allocation.js';
import type { Signal } from '../../src/domain/signal.js';
import { BTC, ETH, SOL, account, collector, marketView, snapshot } from './support.js';
import { position } from '../domain/risk/builders.js';

const market = marketView(snapshot('BTCUSDT', 50_000), snapshot('ETHUSDT', 3_000), snapshot('SOLUSDT', 100));
const selected: Signal[] = [
  { agent: 'a', symbol: 'BTCUSDT', direction: 1, confidence: 0.8 },
  { agent: 'b', symbol: 'ETHUSDT', direction: -1, confidence: 0.5 },
  { agent: 'a', symbol: 'SOLUSDT', direction: -1, confidence: 0.9 }, // spot sell, nothing held → skipped
  { agent: 'a', symbol: 'DOGEUSDT', direction: 1, confidence: 0.9 }, // no instrument → skipped
];

describe('allocator machine', () => {
  it.each<AllocatorInput>([
    { riskFraction: 0.1, orderStyle: 'market', sessionId: 's1', instruments: [BTC, ETH, SOL] },
    { riskFraction: 0.25, orderStyle: 'passive', sessionId: 'abc', instruments: [BTC, ETH, SOL] },
  ])('replies with allocate(...) for $orderStyle orders at riskFraction $riskFraction', (input) => {
    const allocator = createActor(allocatorMachine, { input }).start();
    const replies = collector<SizedReply>();
    const acct = account();
    allocator.send({ type: 'allocator.size', cycle: 12, selected, account: acct, market, replyTo: replies.ref });
    const instruments = new Map(input.instruments.map((i) => [i.symbol, i]));
    const expected = allocate(
      selected,
      { account: acct, market, instruments, cycle: 12, owners: new Map() },
      { riskFraction: input.riskFraction, orderStyle: input.orderStyle, sessionId: input.sessionId },
    );
    expect(replies.events).toEqual([{ type: 'allocator.sized', cycle: 12, proposals: expected }]);
    // Sanity: the comparison is not vacuous.
    expect(expected.filter((p) => p.order !== null).map((p) => p.order!.clientOrderId)).toEqual([
      `${input.sessionId}-12-BTCUSDT-0`,
      `${input.sessionId}-12-ETHUSDT-1`,
    ]);
    expect(expected.filter((p) => p.order === null).map((p) => p.skipped!.code)).toEqual([
      'ALREADY_FLAT', // spot sell with nothing held: the target is flat and so is the account
      'NO_MARKET',
    ]);
  });

  it('skips a symbol whose instrument it was not given, even with market data', () => {
    const allocator = createActor(allocatorMachine, {
      input: { riskFraction: 0.1, orderStyle: 'market', sessionId: 's1', instruments: [ETH] },
    }).start();
    const replies = collector<SizedReply>();
    allocator.send({
      type: 'allocator.size',
      cycle: 1,
      selected: [selected[0]!],
      account: account(),
      market,
      replyTo: replies.ref,
    });
    expect(replies.events[0]!.proposals).toEqual([
      { signal: selected[0], order: null, skipped: expect.objectContaining({ code: 'NO_MARKET' }) },
    ]);
  });

  it("remembers which agent set a position: its exit closes it, another agent's does not", () => {
    const allocator = createActor(allocatorMachine, {
      input: { riskFraction: 0.1, orderStyle: 'market', sessionId: 's1', instruments: [BTC] },
    }).start();
    const replies = collector<SizedReply>();
    const size = (signal: Signal, acct = account()) =>
      allocator.send({
        type: 'allocator.size',
        cycle: 1,
        selected: [signal],
        account: acct,
        market,
        replyTo: replies.ref,
      });
    size({ agent: 'funding', symbol: 'BTCUSDT', direction: -1, confidence: 1 });
    expect(replies.events[0]!.proposals[0]!.order).toMatchObject({ side: 'SELL' });
    const short = account({ positions: [position('BTCUSDT', -0.02, 50_000)] });
    size({ agent: 'momentum', symbol: 'BTCUSDT', direction: 0, confidence: 1 }, short);
    expect(replies.events[1]!.proposals[0]!.skipped).toMatchObject({ code: 'EXIT_NOT_OWNER' });
    size({ agent: 'funding', symbol: 'BTCUSDT', direction: 0, confidence: 1 }, short);
    expect(replies.events[2]!.proposals[0]!.order).toMatchObject({ side: 'BUY', qty: 0.02, reduceOnly: true });
  });
});
