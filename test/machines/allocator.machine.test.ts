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
    // The agents of the orders sized now own their symbols: the reply carries them to be stored.
    const owners = { BTCUSDT: 'a', ETHUSDT: 'b' };
    expect(replies.events).toEqual([{ type: 'allocator.sized', cycle: 12, proposals: expected, owners }]);
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
  it('keeps the owner while a close has not flattened the position: a refused exit is sized again next cycle', () => {
    const allocator = createActor(allocatorMachine, {
      input: { riskFraction: 0.1, orderStyle: 'market', sessionId: 's1', instruments: [BTC] },
    }).start();
    const replies = collector<SizedReply>();
    const size = (signal: Signal, acct: ReturnType<typeof account>, cycle: number) =>
      allocator.send({
        type: 'allocator.size',
        cycle,
        selected: [signal],
        account: acct,
        market,
        replyTo: replies.ref,
      });
    size({ agent: 'funding', symbol: 'BTCUSDT', direction: -1, confidence: 1 }, account(), 1);
    const short = account({ positions: [position('BTCUSDT', -0.02, 50_000)] });
    const exit = { agent: 'funding', symbol: 'BTCUSDT', direction: 0, confidence: 1 };
    size(exit, short, 2);
    expect(replies.events[1]!.proposals[0]!.order).toMatchObject({ side: 'BUY', qty: 0.02, reduceOnly: true });
    // The exchange refused that close (the position is still there, part of it closed by hand): the
    // same exit is sized again, from the position now held.
    size(exit, account({ positions: [position('BTCUSDT', -0.015, 50_000)] }), 3);
    expect(replies.events[2]!.proposals[0]!.order).toMatchObject({ side: 'BUY', qty: 0.015, reduceOnly: true });
    expect(allocator.getSnapshot().context.owners.get('BTCUSDT')).toBe('funding');
    // Once the account is flat in the symbol, the owner is forgotten (a new entry starts afresh).
    size({ agent: 'other', symbol: 'ETHUSDT', direction: 0, confidence: 1 }, account(), 4);
    expect(allocator.getSnapshot().context.owners.has('BTCUSDT')).toBe(false);
  });

  it('starts from the owners the last process stored, so an exit closes an adopted position', () => {
    const allocator = createActor(allocatorMachine, {
      input: {
        riskFraction: 0.1,
        orderStyle: 'market',
        sessionId: 's1',
        instruments: [BTC],
        owners: { BTCUSDT: 'funding' },
      },
    }).start();
    const replies = collector<SizedReply>();
    const short = account({ positions: [position('BTCUSDT', -0.02, 50_000)] });
    allocator.send({
      type: 'allocator.size',
      cycle: 1,
      selected: [{ agent: 'funding', symbol: 'BTCUSDT', direction: 0, confidence: 1 }],
      account: short,
      market,
      replyTo: replies.ref,
    });
    expect(replies.events[0]!.proposals[0]!.order).toMatchObject({ side: 'BUY', qty: 0.02, reduceOnly: true });
  });
  it('spaces out the closes of a position that stays held: 1 s, then 2 s … on the monotonic clock', () => {
    const allocator = createActor(allocatorMachine, {
      input: { riskFraction: 0.1, orderStyle: 'market', sessionId: 's1', instruments: [BTC], owners: { BTCUSDT: 'a' } },
    }).start();
    const replies = collector<SizedReply>();
    const short = account({ positions: [position('BTCUSDT', -0.02, 50_000)] });
    const exitAt = (cycle: number, steady: number) => {
      allocator.send({
        type: 'allocator.size',
        cycle,
        steady,
        selected: [{ agent: 'a', symbol: 'BTCUSDT', direction: 0, confidence: 1 }],
        account: short,
        market,
        replyTo: replies.ref,
      });
      return replies.events.at(-1)!.proposals[0]!;
    };
    expect(exitAt(1, 10_000).order).toMatchObject({ side: 'BUY', qty: 0.02, reduceOnly: true });
    // Still held a cycle later: that close did not finish; the next waits 1 s from it.
    expect(exitAt(2, 10_300).skipped).toMatchObject({ code: 'CLOSE_BACKOFF' });
    expect(exitAt(3, 11_000).order).toMatchObject({ side: 'BUY', qty: 0.02, reduceOnly: true });
    expect(exitAt(4, 12_900).skipped).toMatchObject({ code: 'CLOSE_BACKOFF' });
    expect(exitAt(5, 13_000).order).toMatchObject({ side: 'BUY', qty: 0.02, reduceOnly: true });
  });
});
