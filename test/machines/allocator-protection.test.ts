// The allocator actor with protective exits (issue 20, item 4): a stop crossed by the bar's low
// becomes a reduce-only market close of the whole position, marked with its reason; the agent's
// signals for that symbol are skipped that cycle (PROTECTIVE_EXIT) and through the cooldown
// (COOLDOWN); the state it must keep across a restart comes back in the reply when it changed.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { allocatorMachine } from '../../machines/allocator.machine.js';
import type { SizedReply } from '../../machines/messages.js';
import { barsFromRows } from '../../src/domain/bars.js';
import type { Signal } from '../../src/domain/signal.js';
import { BTC, ETH, account, collector, marketView, snapshot } from './support.js';
import { position } from '../domain/risk/builders.js';

const bar = (high: number, low: number, close: number) =>
  barsFromRows([{ time: 0, open: close, high, low, close, volume: 10 }]);

describe('allocator machine: protective exits', () => {
  const protection = {
    global: { stopLoss: 0.03, takeProfit: null, trailingStop: null, cooldownAfterStop: 2 },
    byStrategy: {},
  };
  const start = () =>
    createActor(allocatorMachine, {
      input: { riskFraction: 0.5, orderStyle: 'market', sessionId: 's1', instruments: [BTC, ETH], protection },
    }).start();

  it('closes a long whose bar low crossed the stop, skips its agent there, then keeps it out for the cooldown', () => {
    const allocator = start();
    const replies = collector<SizedReply>();
    const long: Signal = { agent: 'momentum', symbol: 'BTCUSDT', direction: 1, confidence: 1 };
    // Cycle 1: the agent opens (the allocator learns it owns BTCUSDT).
    allocator.send({
      type: 'allocator.size',
      cycle: 1,
      selected: [long],
      account: account(),
      market: marketView(snapshot('BTCUSDT', 100)),
      replyTo: replies.ref,
    });
    expect(replies.events[0]!.proposals[0]!.order).not.toBeNull();
    // Cycle 2: held 10 at 100; the bar fell to 96.5, below the stop at 97.
    const held = account({ positions: [position('BTCUSDT', 10, 100)] });
    allocator.send({
      type: 'allocator.size',
      cycle: 2,
      selected: [long],
      account: held,
      market: marketView(snapshot('BTCUSDT', 96.8, { bars: bar(99, 96.5, 96.8) })),
      replyTo: replies.ref,
    });
    const sized = replies.events[1]!;
    expect(sized.proposals).toEqual([
      expect.objectContaining({
        order: expect.objectContaining({ symbol: 'BTCUSDT', side: 'SELL', qty: 10, type: 'market', reduceOnly: true }),
        exit: { reason: 'stop_loss', entryPrice: 100, bestPrice: 100, triggerPrice: 97 },
        sizing: expect.objectContaining({ kind: 'close' }),
      }),
      expect.objectContaining({
        signal: long,
        order: null,
        skipped: expect.objectContaining({ code: 'PROTECTIVE_EXIT' }),
      }),
    ]);
    expect(sized.proposals[0]!.signal).toMatchObject({ agent: 'momentum', symbol: 'BTCUSDT', direction: 0 });
    expect(sized.protection).toEqual({
      positions: { BTCUSDT: { side: 1, best: 100, agent: 'momentum' } },
      cooldowns: { momentum: { BTCUSDT: 4 } },
    });
    // Cycles 3 and 4: flat, the agent wants in again; skipped COOLDOWN. Another symbol is not affected.
    for (const cycle of [3, 4]) {
      allocator.send({
        type: 'allocator.size',
        cycle,
        selected: [long, { ...long, symbol: 'ETHUSDT' }],
        account: account(),
        market: marketView(snapshot('BTCUSDT', 96), snapshot('ETHUSDT', 10)),
        replyTo: replies.ref,
      });
      const [btc, eth] = replies.events.at(-1)!.proposals;
      expect(btc).toMatchObject({ order: null, skipped: { code: 'COOLDOWN' } });
      expect(btc!.skipped!.message).toBe('momentum was stopped out of BTCUSDT: no re-entry through cycle 4');
      expect(eth!.order).not.toBeNull();
    }
    // Cycle 5: the cooldown is over.
    allocator.send({
      type: 'allocator.size',
      cycle: 5,
      selected: [long],
      account: account(),
      market: marketView(snapshot('BTCUSDT', 96)),
      replyTo: replies.ref,
    });
    expect(replies.events.at(-1)!.proposals[0]!.order).toMatchObject({ side: 'BUY', reduceOnly: false });
  });

  it('an exchange stop that triggered between cycles starts the cooldown as an in-process stop does', () => {
    const allocator = start();
    const replies = collector<SizedReply>();
    const long: Signal = { agent: 'momentum', symbol: 'BTCUSDT', direction: 1, confidence: 1 };
    const size = (cycle: number, held: number, stopped?: string[]) =>
      allocator.send({
        type: 'allocator.size',
        cycle,
        selected: held === 0 && stopped ? [] : [long],
        account: held === 0 ? account() : account({ positions: [position('BTCUSDT', held, 100)] }),
        market: marketView(snapshot('BTCUSDT', 99, { bars: bar(100, 98, 99) })),
        ...(stopped ? { stopped } : {}),
        replyTo: replies.ref,
      });
    size(1, 0); // the agent opens: it owns BTCUSDT
    size(2, 10); // held; the bar stays above the stop at 97, nothing to close in-process
    expect(replies.events[1]!.proposals.every((p) => !p.exit)).toBe(true);
    // Cycle 3: the exchange's stop closed the position between the cycles (its fill came in this cycle).
    size(3, 0, ['BTCUSDT']);
    expect(replies.events[2]!.protection?.cooldowns).toEqual({ momentum: { BTCUSDT: 5 } });
    // Cycles 4 and 5: the agent wants in again; skipped COOLDOWN, as after an in-process stop.
    for (const cycle of [4, 5]) {
      size(cycle, 0);
      expect(replies.events.at(-1)!.proposals[0]).toMatchObject({ order: null, skipped: { code: 'COOLDOWN' } });
    }
    size(6, 0);
    expect(replies.events.at(-1)!.proposals[0]!.order).toMatchObject({ side: 'BUY' });
  });

  it('starts from a stored state: the trailing best price of the last process', () => {
    const allocator = createActor(allocatorMachine, {
      input: {
        riskFraction: 0.5,
        orderStyle: 'market',
        sessionId: 's1',
        instruments: [BTC],
        protection: { global: { ...protection.global, stopLoss: null, trailingStop: 0.02 }, byStrategy: {} },
        protectionState: { positions: { BTCUSDT: { side: -1, best: 90, agent: 'funding' } }, cooldowns: {} },
      },
    }).start();
    const replies = collector<SizedReply>();
    allocator.send({
      type: 'allocator.size',
      cycle: 9,
      selected: [],
      account: account({ positions: [position('BTCUSDT', -5, 100)] }),
      market: marketView(snapshot('BTCUSDT', 91, { bars: bar(92.5, 90.5, 91) })),
      replyTo: replies.ref,
    });
    expect(replies.events[0]!.proposals).toEqual([
      expect.objectContaining({
        signal: expect.objectContaining({ agent: 'funding', direction: 0 }),
        order: expect.objectContaining({ side: 'BUY', qty: 5, reduceOnly: true }),
        exit: { reason: 'trailing_stop', entryPrice: 100, bestPrice: 90, triggerPrice: 92 },
      }),
    ]);
  });

  it('without protection configured the reply carries no state', () => {
    const allocator = createActor(allocatorMachine, {
      input: { riskFraction: 0.5, orderStyle: 'market', sessionId: 's1', instruments: [BTC] },
    }).start();
    const replies = collector<SizedReply>();
    allocator.send({
      type: 'allocator.size',
      cycle: 2,
      selected: [],
      account: account({ positions: [position('BTCUSDT', 10, 100)] }),
      market: marketView(snapshot('BTCUSDT', 50, { bars: bar(60, 40, 50) })),
      replyTo: replies.ref,
    });
    expect(replies.events).toEqual([{ type: 'allocator.sized', cycle: 2, proposals: [] }]);
  });
});
