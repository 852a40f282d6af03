// One trading cycle, alone: a small parent machine spawns fake responder actors under the systemIds
// the cycle expects (agent:a, agent:b, arbiter, allocator, risk, oms) and the cycle itself with fake
// `loadMarket`/`recordDecision`. Covers the full path to `done` with one recorded decision, waiting
// for every agent, the short cuts to recording (nothing selected, nothing sized, nothing approved,
// no agents), `superseded` when the stored control moved (nothing sent anywhere, still recorded),
// `failed` (recorded with the error), `unrecorded` when recording itself fails, and the deadline.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, enqueueActions, fromCallback, setup } from 'xstate';
import type { ActorRefFrom, AnyActorRef, AnyEventObject, EventObject } from 'xstate';
import { cycleMachine } from '../../machines/cycle.machine.js';
import type { CycleFinished, CycleInput, CycleRecord, LoadedMarket } from '../../machines/cycle.machine.js';
import type {
  AgentError,
  AnalyseRequest,
  EvaluateRequest,
  ObserveRequest,
  ObservedReply,
  EvaluatedReply,
  SelectRequest,
  SelectedReply,
  SignalsReply,
  SizeRequest,
  SizedReply,
  SubmitRequest,
  SubmittedReply,
} from '../../machines/messages.js';
import { arbitrate } from '../../src/domain/arbitration.js';
import type { ControlRecord } from '../../src/domain/control.js';
import type { Proposal } from '../../src/domain/allocation.js';
import type { Signal } from '../../src/domain/signal.js';
import { position } from '../domain/risk/builders.js';
import { account, approval, deferred, flush, marketView, order, snapshot } from './support.js';

const NOW = 1_700_000_000_000;
const EPOCH = 3;
const market = marketView(snapshot('BTCUSDT', 100), snapshot('ETHUSDT', 2_000));
const acct = account();
const running = (epoch = EPOCH): ControlRecord => ({
  state: 'running',
  epoch,
  store_id: 'store-1',
  adopted_from: null,
  reason: null,
  changed_at: '2024-01-01T00:00:00.000Z',
});
const loaded = (control: ControlRecord = running()): LoadedMarket => ({ now: NOW, market, account: acct, control });

const sigA: Signal = { agent: 'a', symbol: 'BTCUSDT', direction: 1, confidence: 0.8 };
const sigB: Signal = { agent: 'b', symbol: 'ETHUSDT', direction: -1, confidence: 0.4 };

type Respond = (event: AnyEventObject) => EventObject | null;

interface ResponderInput {
  id: string;
  log: { id: string; event: AnyEventObject }[];
  respond: Respond;
}

/** A fake child: records every request and, when `respond` returns a reply, sends it to replyTo. */
const responder = fromCallback<AnyEventObject, ResponderInput>(({ input, receive }) => {
  receive((event) => {
    input.log.push({ id: input.id, event });
    const reply = input.respond(event);
    if (reply) (event as AnyEventObject & { replyTo: AnyActorRef }).replyTo.send(reply);
  });
});

const agentReply =
  (agent: string, signals: Signal[], errors: AgentError[] = []): Respond =>
  (e) =>
    ({
      type: 'agent.signals',
      cycle: (e as AnalyseRequest).cycle,
      agent,
      signals,
      errors,
      invalid: [],
    }) satisfies SignalsReply;
const arbiterReply: Respond = (e) => {
  const req = e as SelectRequest;
  return {
    type: 'arbiter.selected',
    cycle: req.cycle,
    result: arbitrate(req.signals, { maxOrders: 2 }),
  } satisfies SelectedReply;
};
/** Sizes every selected signal into a 1-unit order. */
const allocatorReply: Respond = (e) => {
  const req = e as SizeRequest;
  const proposals: Proposal[] = req.selected.map((signal, i) => ({
    signal,
    order: order({
      clientOrderId: `s1-${req.cycle}-${signal.symbol}-${i}`,
      symbol: signal.symbol,
      side: signal.direction > 0 ? 'BUY' : 'SELL',
    }),
    skipped: null,
  }));
  return { type: 'allocator.sized', cycle: req.cycle, proposals } satisfies SizedReply;
};
/** Approves BTC orders, denies the rest; tells the cycle it is `active` when shown the account. */
const riskReply: Respond = (e) => {
  if (e.type === 'risk.observe') {
    return { type: 'risk.observed', cycle: (e as ObserveRequest).cycle, state: 'active' } satisfies ObservedReply;
  }
  const req = e as EvaluateRequest;
  const verdicts = req.orders.map((o) => {
    const approved = o.symbol === 'BTCUSDT';
    return {
      order: o,
      decision: { approved, checks: [] as never, impact: null },
      approval: approved ? { ...approval(o.clientOrderId, o), epoch: req.epoch, expiresAt: req.now + 1_000 } : null,
    };
  });
  return { type: 'risk.evaluated', cycle: req.cycle, verdicts } satisfies EvaluatedReply;
};
const omsReply: Respond = (e) => {
  const req = e as SubmitRequest;
  const outcomes = req.approvals.map((a) => ({
    clientOrderId: a.order.clientOrderId,
    status: 'submitted' as const,
    venueStatus: 'filled',
    filledQty: a.order.qty,
    avgFillPrice: 100,
    duplicate: false,
  }));
  return { type: 'oms.submitted', cycle: req.cycle, outcomes } satisfies SubmittedReply;
};

function defaultResponders(): Record<string, Respond> {
  return {
    'agent:a': agentReply('a', [sigA]),
    'agent:b': agentReply('b', [sigB], [{ symbol: 'SOLUSDT', message: 'boom' }]),
    arbiter: arbiterReply,
    allocator: allocatorReply,
    risk: riskReply,
    oms: omsReply,
  };
}

interface Harness {
  input?: Partial<CycleInput>;
  responders?: Partial<Record<string, Respond>>;
  loadMarket?: (cycle: number) => Promise<LoadedMarket>;
  recordDecision?: (record: CycleRecord) => Promise<void>;
  /** false: the test sends `cycle.begin` itself. */
  begin?: boolean;
}

function runCycle(options: Harness = {}) {
  const log: { id: string; event: AnyEventObject }[] = [];
  const recorded: CycleRecord[] = [];
  const loads: number[] = [];
  const responders = { ...defaultResponders(), ...options.responders } as Record<string, Respond>;
  // The I/O actions answer the cycle as the composition root's do: an event when the work ends.
  const answer = (self: AnyActorRef, work: Promise<unknown>, done: AnyEventObject, failed: string, n: number) =>
    void work.then(
      (output) => self.getSnapshot().status === 'active' && self.send({ ...done, cycle: n, output }),
      (error: unknown) => self.getSnapshot().status === 'active' && self.send({ type: failed, cycle: n, error }),
    );
  const cycle = cycleMachine.provide({
    actions: {
      loadMarket: ({ self }, { cycle: n }) => {
        loads.push(n);
        const work = options.loadMarket ? options.loadMarket(n) : Promise.resolve(loaded());
        answer(self, work, { type: 'cycle.market.loaded' }, 'cycle.market.failed', n);
      },
      recordDecision: ({ self }, record) => {
        recorded.push(record);
        const work = options.recordDecision ? options.recordDecision(record) : Promise.resolve();
        answer(self, work, { type: 'cycle.recorded' }, 'cycle.record.failed', record.cycle);
      },
    },
  });
  const input: CycleInput = { agentIds: ['agent:a', 'agent:b'], ...options.input };
  // The cycle actor is long-lived: its parent tells it to begin and hears `cycle.finished` at the end.
  const finishedEvents: CycleFinished[] = [];
  const parent = setup({ actors: { cycle, responder } }).createMachine({
    entry: enqueueActions(({ enqueue }) => {
      for (const [id, respond] of Object.entries(responders))
        enqueue.spawnChild('responder', { id, systemId: id, input: { id, log, respond } });
      enqueue.spawnChild('cycle', { id: 'cycle', input });
    }),
    on: { 'cycle.finished': { actions: ({ event }) => void finishedEvents.push(event as CycleFinished) } },
  });
  const root = createActor(parent).start();
  const ref = root.getSnapshot().children['cycle'] as unknown as ActorRefFrom<typeof cycle>;
  const begin = (n = 9, epoch = EPOCH) => ref.send({ type: 'cycle.begin', cycle: n, epoch });
  if (options.begin !== false) begin();
  /** The first (or n-th) cycle's end: `done` when its decision was recorded, else `unrecorded`. */
  const finished = async (n = 1) => {
    await vi.waitUntil(() => finishedEvents.length >= n, { timeout: 2_000, interval: 1 });
    const event = finishedEvents[n - 1]!;
    return { value: event.recorded ? 'done' : 'unrecorded', output: event.record, event };
  };
  const sentTo = (id: string) => log.filter((l) => l.id === id).map((l) => l.event);
  /** The cycle's state. */
  const state = () => ref.getSnapshot().value;
  return { ref, log, recorded, loads, finished, finishedEvents, begin, sentTo, state };
}

describe('cycle machine: the full path', () => {
  it("reaches done and records one decision with both agents' signals, arbitration, proposals, verdicts and outcomes", async () => {
    const h = runCycle();
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(h.loads).toEqual([9]);
    expect(h.recorded).toHaveLength(1);
    const record = h.recorded[0]!;

    const arbitration = arbitrate([sigA, sigB], { maxOrders: 2 });
    expect(arbitration.selected).toHaveLength(2); // the test data really takes the long path
    expect(record).toMatchObject({
      cycle: 9,
      epoch: EPOCH,
      now: NOW,
      account: acct,
      outcome: 'completed',
      error: null,
      arbitration,
    });
    expect(record.replies).toEqual(
      expect.arrayContaining([
        { type: 'agent.signals', cycle: 9, agent: 'a', signals: [sigA], errors: [], invalid: [] },
        {
          type: 'agent.signals',
          cycle: 9,
          agent: 'b',
          signals: [sigB],
          errors: [{ symbol: 'SOLUSDT', message: 'boom' }],
          invalid: [],
        },
      ]),
    );
    expect(record.replies).toHaveLength(2);
    expect(record.proposals.map((p) => p.order?.clientOrderId)).toEqual(
      arbitration.selected.map((s, i) => `s1-9-${s.symbol}-${i}`),
    );
    expect(record.verdicts.map((v) => [v.order.symbol, v.approval !== null])).toEqual(
      arbitration.selected.map((s) => [s.symbol, s.symbol === 'BTCUSDT']),
    );
    expect(record.outcomes).toEqual([
      expect.objectContaining({ clientOrderId: expect.stringContaining('BTCUSDT'), status: 'submitted' }),
    ]);
    // The record carries no cycle-internal fields, and the output is the same record.
    expect(Object.keys(record).sort()).toEqual([
      'account',
      'arbitration',
      'candles',
      'cycle',
      'epoch',
      'error',
      'now',
      'outcome',
      'outcomes',
      'proposals',
      'replies',
      'riskState',
      'verdicts',
    ]);
    expect(record.riskState).toBe('active');
    // The bar each feed just closed, for the console's candle chart (src/domain/cycle-candles.ts).
    expect(record.candles).toEqual({ BTCUSDT: [0, 100, 100, 100, 100], ETHUSDT: [0, 2_000, 2_000, 2_000, 2_000] });
    expect(final.output).toEqual(record);
  });

  it('sends each child the right request', async () => {
    const h = runCycle();
    await h.finished();
    for (const id of ['agent:a', 'agent:b']) {
      expect(h.sentTo(id)).toEqual([expect.objectContaining({ type: 'agent.analyse', cycle: 9, market })]);
    }
    const select = h.sentTo('arbiter') as unknown as SelectRequest[];
    expect(select).toHaveLength(1);
    expect([...select[0]!.signals].sort((x, y) => x.agent.localeCompare(y.agent))).toEqual([sigA, sigB]);

    const size = h.sentTo('allocator') as unknown as SizeRequest[];
    expect(size).toEqual([
      expect.objectContaining({
        type: 'allocator.size',
        cycle: 9,
        selected: arbitrate([sigA, sigB], { maxOrders: 2 }).selected,
        account: acct,
        market,
      }),
    ]);

    const evaluate = h.sentTo('risk').filter((e) => e.type === 'risk.evaluate') as unknown as EvaluateRequest[];
    expect(evaluate).toEqual([
      expect.objectContaining({ type: 'risk.evaluate', cycle: 9, account: acct, market, epoch: EPOCH, now: NOW }),
    ]);
    expect(evaluate[0]!.orders.map((o) => o.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);

    const submit = h.sentTo('oms') as unknown as SubmitRequest[];
    expect(submit).toHaveLength(1);
    expect(submit[0]!.type).toBe('oms.submit');
    // Only the approved verdict's signed order goes to the order manager.
    expect(submit[0]!.approvals.map((a) => [a.order.symbol, a.epoch, a.expiresAt])).toEqual([
      ['BTCUSDT', EPOCH, NOW + 1_000],
    ]);
  });

  it('waits for every agent before arbitrating', async () => {
    const held: (() => void)[] = [];
    const h = runCycle({
      responders: {
        'agent:b': (e) => {
          held.push(() =>
            (e as AnalyseRequest).replyTo.send({
              type: 'agent.signals',
              cycle: 9,
              agent: 'b',
              signals: [sigB],
              errors: [],
            }),
          );
          return null;
        },
      },
    });
    await flush();
    expect(h.state()).toEqual({ deciding: 'analysing' });
    expect(h.sentTo('arbiter')).toHaveLength(0);
    expect(held).toHaveLength(1);
    held[0]!();
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(final.output!.replies.map((r) => r.agent).sort()).toEqual(['a', 'b']);
  });

  it('with no agents goes straight to arbitration with no signals', async () => {
    const h = runCycle({ input: { agentIds: [] } });
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(h.sentTo('agent:a')).toHaveLength(0);
    expect((h.sentTo('arbiter')[0] as unknown as SelectRequest).signals).toEqual([]);
    expect(h.sentTo('allocator')).toHaveLength(0);
    expect(h.recorded).toHaveLength(1);
  });
});

describe('cycle machine: short cuts to recording', () => {
  it('when no signal is selected it skips straight to recording (no allocator, risk or oms)', async () => {
    const h = runCycle({
      responders: { 'agent:a': agentReply('a', []), 'agent:b': agentReply('b', [{ ...sigB, confidence: 0.01 }]) },
    });
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(h.sentTo('arbiter')).toHaveLength(1);
    expect(h.sentTo('allocator')).toHaveLength(0);
    expect(h.sentTo('risk').filter((e) => e.type === 'risk.evaluate')).toHaveLength(0);
    expect(h.sentTo('oms')).toHaveLength(0);
    expect(h.recorded).toHaveLength(1);
    expect(h.recorded[0]).toMatchObject({ outcome: 'completed', proposals: [], verdicts: [], outcomes: [] });
    expect(h.recorded[0]!.arbitration!.selected).toEqual([]);
    expect(h.recorded[0]!.arbitration!.ranked).toHaveLength(1);
  });

  it('reducing with a position held: nothing selected still asks risk (with no orders) for its own closes', async () => {
    const holding = account({ positions: [{ ...position('BTCUSDT', 2, 100) }] });
    const h = runCycle({
      loadMarket: async () => ({ ...loaded(), account: holding }),
      responders: {
        'agent:a': agentReply('a', []),
        'agent:b': agentReply('b', []),
        allocator: (e) => ({ type: 'allocator.sized', cycle: (e as SizeRequest).cycle, proposals: [] }),
        risk: (e) =>
          e.type === 'risk.observe'
            ? ({ type: 'risk.observed', cycle: (e as ObserveRequest).cycle, state: 'reducing' } satisfies ObservedReply)
            : riskReply(e),
      },
    });
    const final = await h.finished();
    expect(final.value).toBe('done');
    const observe = h.sentTo('risk')[0] as unknown as ObserveRequest;
    expect(observe).toMatchObject({ type: 'risk.observe', cycle: 9, account: holding, now: NOW });
    const evaluate = h.sentTo('risk').filter((e) => e.type === 'risk.evaluate') as unknown as EvaluateRequest[];
    expect(evaluate).toEqual([expect.objectContaining({ purpose: 'cycle', orders: [], account: holding })]);
    expect(h.recorded[0]!.riskState).toBe('reducing');
  });

  it("a protective exit cancels its symbol's resting opening orders first, so they cannot reopen it", async () => {
    const resting = (symbol: string, reduceOnly = false) => ({
      ...order({ clientOrderId: `s0-1-${symbol}-0`, symbol, type: 'limit', limitPrice: 90, reduceOnly }),
      status: 'open' as const,
      filledQty: 0,
      avgFillPrice: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    const holding = account({
      positions: [position('BTCUSDT', 2, 100)],
      openOrders: [resting('BTCUSDT'), resting('ETHUSDT')],
    });
    const exitOrder = order({ clientOrderId: 's1-9-BTCUSDT-0', side: 'SELL', qty: 2, reduceOnly: true });
    const h = runCycle({
      loadMarket: async () => ({ ...loaded(), account: holding }),
      responders: {
        // A cancel is a job with no reply; the submission is answered as usual.
        oms: (e) => (e.type === 'oms.cancel' ? null : omsReply(e)),
        allocator: (e) => ({
          type: 'allocator.sized',
          cycle: (e as SizeRequest).cycle,
          proposals: [
            {
              signal: { agent: 'a', symbol: 'BTCUSDT', direction: 0, confidence: 1 },
              order: exitOrder,
              skipped: null,
              exit: { reason: 'stop_loss', entryPrice: 100, bestPrice: 100, triggerPrice: 97 },
            },
          ],
        }),
      },
    });
    await h.finished();
    expect(h.sentTo('oms').map((e) => e.type)).toEqual(['oms.cancel', 'oms.submit']);
    expect(h.sentTo('oms')[0]).toMatchObject({ reason: 'protective_exit', symbols: ['BTCUSDT'], receipt: null });
  });

  it('no protective exit, no cancel: an ordinary order is submitted alone', async () => {
    const h = runCycle();
    await h.finished();
    expect(h.sentTo('oms').map((e) => e.type)).toEqual(['oms.submit']);
  });

  it('reducing and flat: nothing selected records at once, as when active', async () => {
    const h = runCycle({
      responders: {
        'agent:a': agentReply('a', []),
        'agent:b': agentReply('b', []),
        risk: (e) =>
          e.type === 'risk.observe'
            ? ({ type: 'risk.observed', cycle: (e as ObserveRequest).cycle, state: 'reducing' } satisfies ObservedReply)
            : riskReply(e),
      },
    });
    await h.finished();
    expect(h.sentTo('allocator')).toHaveLength(0);
    expect(h.sentTo('risk').filter((e) => e.type === 'risk.evaluate')).toHaveLength(0);
  });

  it('when nothing could be sized it records without asking risk or the oms', async () => {
    const h = runCycle({
      responders: {
        allocator: (e) => {
          const req = e as SizeRequest;
          return {
            type: 'allocator.sized',
            cycle: req.cycle,
            proposals: req.selected.map((signal) => ({
              signal,
              order: null,
              skipped: { code: 'ZERO_QTY', message: 'too small' },
            })),
          };
        },
      },
    });
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(h.sentTo('risk').filter((e) => e.type === 'risk.evaluate')).toHaveLength(0);
    expect(h.sentTo('oms')).toHaveLength(0);
    expect(h.recorded[0]!.proposals.map((p) => p.skipped?.code)).toEqual(['ZERO_QTY', 'ZERO_QTY']);
  });

  it('when risk approves nothing it records without asking the oms', async () => {
    const h = runCycle({
      responders: {
        risk: (e) => {
          if (e.type === 'risk.observe') return riskReply(e);
          const req = e as EvaluateRequest;
          return {
            type: 'risk.evaluated',
            cycle: req.cycle,
            verdicts: req.orders.map((o) => ({
              order: o,
              decision: { approved: false, checks: [] as never, impact: null },
              approval: null,
            })),
          };
        },
      },
    });
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(h.sentTo('oms')).toHaveLength(0);
    expect(h.recorded[0]!.verdicts).toHaveLength(2);
    expect(h.recorded[0]!.outcomes).toEqual([]);
  });
});

describe('cycle machine: superseded and failed', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  it.each<{ name: string; control: ControlRecord }>([
    { name: 'the epoch moved on', control: running(EPOCH + 1) },
    { name: 'the store says paused', control: { ...running(), state: 'paused' } },
    { name: 'the store says killed', control: { ...running(), state: 'killed' } },
  ])('ends superseded, sends nothing to anyone, and still records the cycle when $name', async ({ control }) => {
    const h = runCycle({ loadMarket: async () => loaded(control) });
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(final.output).toMatchObject({ cycle: 9, epoch: EPOCH, outcome: 'superseded', error: null, outcomes: [] });
    expect(h.sentTo('oms')).toHaveLength(0);
    expect(h.log).toHaveLength(0);
    expect(h.recorded).toEqual([expect.objectContaining({ outcome: 'superseded', replies: [], verdicts: [] })]);
  });

  it('stays loading until the market arrives', async () => {
    const market = deferred<LoadedMarket>();
    const h = runCycle({ loadMarket: () => market.promise });
    await flush();
    expect(h.state()).toBe('loading');
    expect(h.log).toHaveLength(0);
    market.resolve(loaded());
    expect((await h.finished()).value).toBe('done');
  });

  it('fails with the error text when loadMarket rejects, sending nothing but recording the failure', async () => {
    const h = runCycle({ loadMarket: async () => Promise.reject(new Error('feed down')) });
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(final.output).toMatchObject({
      outcome: 'failed',
      error: 'feed down',
      now: null,
      account: null,
      replies: [],
    });
    expect(h.log).toHaveLength(0);
    expect(h.recorded).toEqual([expect.objectContaining({ outcome: 'failed', error: 'feed down' })]);
  });

  it('ends unrecorded with the error text when recordDecision rejects', async () => {
    const h = runCycle({ recordDecision: async () => Promise.reject(new Error('disk full')) });
    const final = await h.finished();
    expect(final.value).toBe('unrecorded');
    expect(final.output).toMatchObject({ outcome: 'failed', error: 'recording failed: disk full' });
    expect(h.sentTo('oms')).toHaveLength(1);
  });

  it('records a failure when a step does not answer before the cycle deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = runCycle({ responders: { arbiter: () => null } }); // the arbiter never answers
    await flush();
    expect(h.state()).toEqual({ deciding: 'arbitrating' });
    await vi.advanceTimersByTimeAsync(30_000);
    const final = await h.finished();
    expect(final.value).toBe('done');
    expect(final.output).toMatchObject({ outcome: 'failed', error: expect.stringContaining('deadline') });
    // What the decision gathered before the deadline is kept for the record.
    expect(final.output!.replies.map((r) => r.agent).sort()).toEqual(['a', 'b']);
    expect(h.sentTo('oms')).toHaveLength(0);
    expect(h.recorded).toEqual([expect.objectContaining({ outcome: 'failed' })]);
  });
});

describe('cycle machine: one actor, many cycles', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the next cycle from a fresh start: nothing of the previous one is carried over', async () => {
    const h = runCycle();
    const first = await h.finished(1);
    expect(first.output.replies).toHaveLength(2);
    expect(h.state()).toBe('idle');
    h.begin(10, EPOCH);
    const second = await h.finished(2);
    expect(second.value).toBe('done');
    expect(second.output).toMatchObject({ cycle: 10, epoch: EPOCH, outcome: 'completed' });
    expect(second.output.replies.map((r) => r.cycle)).toEqual([10, 10]);
    expect(h.loads).toEqual([9, 10]);
    expect(h.recorded.map((r) => r.cycle)).toEqual([9, 10]);
  });

  it("drops a step's reply that outlived its cycle: cycle 10 does not take cycle 9's late arbitration", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const held: (() => void)[] = [];
    const h = runCycle({
      responders: {
        arbiter: (e) => {
          held.push(() => (e as SelectRequest).replyTo.send(arbiterReply(e)!));
          return null;
        },
      },
    });
    await flush();
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await h.finished(1)).output).toMatchObject({ cycle: 9, outcome: 'failed' });
    h.begin(10, EPOCH);
    await flush();
    expect(h.state()).toEqual({ deciding: 'arbitrating' });
    held[0]!(); // cycle 9's answer, late
    await flush();
    expect(h.state()).toEqual({ deciding: 'arbitrating' });
    expect(h.sentTo('allocator')).toHaveLength(0);
    held[1]!(); // cycle 10's own
    const second = await h.finished(2);
    expect(second.output).toMatchObject({ cycle: 10, outcome: 'completed' });
    expect(h.sentTo('oms').map((e) => (e as SubmitRequest).cycle)).toEqual([10]);
  });

  it("drops a market that loaded after its cycle's deadline: cycle 10 decides on its own market only", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const markets = new Map<number, ReturnType<typeof deferred<LoadedMarket>>>();
    const h = runCycle({
      loadMarket: (n) => {
        const d = deferred<LoadedMarket>();
        markets.set(n, d);
        return d.promise;
      },
    });
    await flush();
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await h.finished(1)).output).toMatchObject({ cycle: 9, outcome: 'failed', now: null });
    h.begin(10, EPOCH);
    await flush();
    // Cycle 9's market (a control record that has moved on, too) arrives while cycle 10 loads its own.
    markets.get(9)!.resolve({ ...loaded(running(EPOCH - 1)), now: NOW - 60_000 });
    await flush();
    expect(h.state()).toBe('loading');
    expect(h.log).toHaveLength(0);
    markets.get(10)!.resolve(loaded());
    const second = await h.finished(2);
    expect(second.output).toMatchObject({ cycle: 10, outcome: 'completed', now: NOW });
  });
});
