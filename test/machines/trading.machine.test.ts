// Root trading statechart, alone, on a SimulatedClock with a controllable fake `cycle` and a
// recording fake `oms`: boot from a stored paused/killed record never starts a cycle; boot running
// starts cycle 1 at once and the next one cycleMs after the previous ended; pause stops the cycle in
// flight and runs none while paused; resume starts one at once; kill reaches control.killed, sends
// oms.kill, ignores later control events and keeps the root alive until session.stop; the epoch in
// context follows the events' epochs. The safety halt is the root's: a fault halts (cancels, holds
// running in `halted`), the same fault again changes nothing, another replaces it and is remembered;
// the checks passing start a recovery, and only its success ends the halt.
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromCallback, fromPromise } from 'xstate';
import type { AnyEventObject } from 'xstate';
import type { CycleFinished, CycleInput, CycleRecord, cycleMachine } from '../../machines/cycle.machine.js';
import type { CycleBegin } from '../../machines/messages.js';
import type { orderManagerMachine } from '../../machines/order-manager.machine.js';
import type { HaltReason } from '../../src/domain/halt-reasons.js';
import { controlEventFor, tradingMachine } from '../../machines/trading.machine.js';
import type { HaltRecoveryInput, TradingInput } from '../../machines/trading.machine.js';
import type { SafetyHalt } from '../../src/domain/halts.js';
import type { ControlRecord, SystemState } from '../../src/domain/control.js';
import { DEFAULT_RISK_LIMITS } from '../../src/domain/risk/risk-engine.js';
import type { StrategyAgent } from '../../src/domain/strategy-agent.js';
import { BTC, deferred, flush } from './support.js';
import type { Deferred } from './support.js';

const CYCLE_MS = 60_000;

/** What one cycle was begun with: the actor's input and the `cycle.begin` event's number and epoch. */
type CycleStart = CycleInput & { cycle: number; epoch: number };

interface CycleRun {
  input: CycleStart;
  /** Aborted when the cycle's actor is stopped (pause, kill, halt) with this cycle in flight. */
  signal: AbortSignal;
  control: Deferred<CycleRecord>;
}

function record(input: CycleStart, outcome: CycleRecord['outcome'] = 'completed'): CycleRecord {
  return {
    cycle: input.cycle,
    epoch: input.epoch,
    now: null,
    account: null,
    replies: [],
    arbitration: null,
    proposals: [],
    verdicts: [],
    outcomes: [],
    outcome,
    error: null,
  };
}

const strategy = (name: string): StrategyAgent => ({ name, analyse: () => null });

function boot(state: SystemState, epoch = 4, halt: SafetyHalt | null = null) {
  const clock = new SimulatedClock();
  const cycles: CycleRun[] = [];
  const omsEvents: AnyEventObject[] = [];
  const announced: { state: SystemState; epoch: number }[] = [];
  const recoveries: { input: HaltRecoveryInput; control: Deferred<SafetyHalt> }[] = [];
  const haltsAnnounced: string[] = [];

  // The long-lived cycle actor: each `cycle.begin` is a run the test ends (finishCycle) or crashes
  // (control.reject: the actor fails, as a throwing action makes the real one fail).
  const fakeCycle = fromCallback<AnyEventObject, CycleInput>(({ input, receive, sendBack, self }) => {
    const stopped = new AbortController();
    receive((event) => {
      if (event.type === 'crash') throw event.error;
      if (event.type !== 'cycle.begin') return;
      const begin = event as CycleBegin;
      const control = deferred<CycleRecord>();
      cycles.push({ input: { ...input, cycle: begin.cycle, epoch: begin.epoch }, signal: stopped.signal, control });
      control.promise.then(
        (r) => {
          if (!stopped.signal.aborted)
            sendBack({ type: 'cycle.finished', cycle: begin.cycle, record: r, recorded: true } satisfies CycleFinished);
        },
        (error: unknown) => {
          if (!stopped.signal.aborted) self.send({ type: 'crash', error });
        },
      );
    });
    return () => stopped.abort();
  });
  const fakeOms = fromCallback<AnyEventObject>(({ receive }) => {
    receive((event) => {
      omsEvents.push(event);
    });
  });

  const machine = tradingMachine.provide({
    actors: {
      // The root only uses the cycle's input and output and the OMS's inbox, so simpler fakes stand in.
      cycle: fakeCycle as unknown as typeof cycleMachine,
      oms: fakeOms as unknown as typeof orderManagerMachine,
      recoverHalt: fromPromise<SafetyHalt, HaltRecoveryInput>(({ input }) => {
        const control = deferred<SafetyHalt>();
        recoveries.push({ input, control });
        return control.promise;
      }),
    },
    actions: {
      announceState: (_, params) => {
        announced.push(params);
      },
      announceHalt: (_, { reason }) => void haltsAnnounced.push(reason),
      announceHaltEnded: () => void haltsAnnounced.push('ended'),
    },
  });
  const control: ControlRecord = {
    state,
    epoch,
    reason: 'stored',
    changed_at: '2024-01-01T00:00:00.000Z',
    store_id: 'store-1',
    adopted_from: null,
  };
  const input: TradingInput = {
    control,
    halt,
    cycleMs: CYCLE_MS,
    strategies: [strategy('a'), strategy('b')],
    instruments: [BTC],
    arbitration: {},
    allocation: { riskFraction: 0.1, orderStyle: 'market', sessionId: 's1' },
    risk: {
      limits: DEFAULT_RISK_LIMITS,
      tokenTtlMs: 30_000,
      sign: () => {
        throw new Error('not used');
      },
    },
  };
  const actor = createActor(machine, { clock, input }).start();

  const finishCycle = async (i: number, outcome: CycleRecord['outcome'] = 'completed') => {
    const run = cycles[i]!;
    run.control.resolve(record(run.input, outcome));
    await flush();
  };
  const omsTypes = () => omsEvents.map((e) => e.type);
  return { actor, clock, cycles, omsEvents, omsTypes, announced, finishCycle, recoveries, haltsAnnounced };
}

type Booted = ReturnType<typeof boot>;
const value = (h: Booted) => h.actor.getSnapshot().value;
const send = (h: Booted, type: 'control.pause' | 'control.resume' | 'control.kill', epoch: number, reason = 'test') =>
  h.actor.send({ type, reason, epoch });

describe('trading machine: boot', () => {
  it('spawns the children under the systemIds the cycle expects', () => {
    const h = boot('running');
    for (const id of ['agent:a', 'agent:b', 'arbiter', 'allocator', 'risk', 'oms'])
      expect(h.actor.system.get(id), id).toBeDefined();
  });

  it('from a stored paused record never starts a cycle and halts the OMS', async () => {
    const h = boot('paused', 7);
    expect(value(h)).toEqual({ control: 'paused' });
    expect(h.actor.getSnapshot().context.epoch).toBe(7);
    h.clock.increment(CYCLE_MS * 10);
    await flush();
    expect(h.cycles).toHaveLength(0);
    expect(h.omsTypes()).toEqual(['oms.halt']);
    expect(h.announced).toEqual([{ state: 'paused', epoch: 7 }]);
  });

  it('from a stored killed record never starts a cycle, kills the OMS and stays alive', async () => {
    const h = boot('killed', 9);
    expect(value(h)).toEqual({ control: 'killed' });
    h.clock.increment(CYCLE_MS * 10);
    await flush();
    expect(h.cycles).toHaveLength(0);
    // A start on a killed store cancels what may still rest; the boot kill has no control event to
    // take a reason from, so the OMS is told the generic 'killed'.
    expect(h.omsEvents).toEqual([
      { type: 'oms.cancel', reason: 'started killed', symbols: null, receipt: null },
      { type: 'oms.kill', reason: 'killed', epoch: null },
    ]);
    expect(h.announced).toEqual([{ state: 'killed', epoch: 9 }]);
    expect(h.actor.getSnapshot().status).toBe('active');
  });

  it('from a stored running record starts cycle 1 at once with the stored epoch, and resumes the OMS', () => {
    const h = boot('running', 4);
    expect(h.cycles).toHaveLength(1);
    expect(h.cycles[0]!.input).toEqual({ cycle: 1, epoch: 4, agentIds: ['agent:a', 'agent:b'], baseBarMs: 60_000 });
    expect(value(h)).toEqual({ control: { running: 'cycling' } });
    expect(h.omsTypes()).toEqual(['oms.resume']);
  });
});

describe('trading machine: cycling', () => {
  it('starts the next cycle only cycleMs after the previous one ended', async () => {
    const h = boot('running');
    // A slow cycle: no second cycle while the first is in flight, however long it takes.
    h.clock.increment(CYCLE_MS * 3);
    await flush();
    expect(h.cycles).toHaveLength(1);

    await h.finishCycle(0);
    expect(value(h)).toEqual({ control: { running: 'waiting' } });
    expect(h.actor.getSnapshot().context.lastCycle).toEqual(record(h.cycles[0]!.input));

    h.clock.increment(CYCLE_MS - 1);
    await flush();
    expect(h.cycles).toHaveLength(1);
    h.clock.increment(1);
    await flush();
    expect(h.cycles).toHaveLength(2);
    expect(h.cycles[1]!.input.cycle).toBe(2);

    await h.finishCycle(1);
    h.clock.increment(CYCLE_MS);
    await flush();
    expect(h.cycles.map((c) => c.input.cycle)).toEqual([1, 2, 3]);
  });

  it('a cycle that crashes (rejects) does not stop the schedule', async () => {
    const h = boot('running');
    h.cycles[0]!.control.reject(new Error('boom'));
    await flush();
    expect(value(h)).toEqual({ control: { running: 'waiting' } });
    h.clock.increment(CYCLE_MS);
    await flush();
    expect(h.cycles).toHaveLength(2);
  });

  it('a cycle actor that fails between cycles is replaced: the next cycle still runs', async () => {
    const h = boot('running');
    await h.finishCycle(0);
    expect(value(h)).toEqual({ control: { running: 'waiting' } });
    // Failing while no cycle is in flight: a stopped actor would swallow the next cycle.begin, and
    // the root would wait in `cycling` for ever (the deadline lives in the cycle actor).
    h.actor.getSnapshot().children.cycle!.send({ type: 'crash', error: new Error('boom between cycles') });
    await flush();
    h.clock.increment(CYCLE_MS);
    await flush();
    expect(h.cycles.map((c) => c.input.cycle)).toEqual([1, 2]);
    await h.finishCycle(1);
    expect(value(h)).toEqual({ control: { running: 'waiting' } });
  });
});

describe('trading machine: pause and resume', () => {
  it('pause stops the cycle in flight, halts the OMS, and no cycle runs while paused', async () => {
    const h = boot('running', 4);
    const first = h.cycles[0]!;
    send(h, 'control.pause', 5);
    expect(value(h)).toEqual({ control: 'paused' });
    expect(first.signal.aborted).toBe(true);
    expect(h.omsTypes()).toEqual(['oms.resume', 'oms.halt']);

    // The stopped cycle finishing late is ignored.
    first.control.resolve(record(first.input));
    h.clock.increment(CYCLE_MS * 5);
    await flush();
    expect(h.cycles).toHaveLength(1);
    expect(h.actor.getSnapshot().context.lastCycle).toBeNull();
    expect(value(h)).toEqual({ control: 'paused' });
  });

  it('pause while waiting cancels the next cycle', async () => {
    const h = boot('running');
    await h.finishCycle(0);
    h.clock.increment(CYCLE_MS / 2);
    send(h, 'control.pause', 5);
    h.clock.increment(CYCLE_MS * 3);
    await flush();
    expect(h.cycles).toHaveLength(1);
  });

  it('resume starts a cycle at once with the new epoch and resumes the OMS', async () => {
    const h = boot('paused', 5);
    send(h, 'control.resume', 6);
    expect(value(h)).toEqual({ control: { running: 'cycling' } });
    expect(h.cycles.map((c) => c.input)).toEqual([
      { cycle: 1, epoch: 6, agentIds: ['agent:a', 'agent:b'], baseBarMs: 60_000 },
    ]);
    expect(h.omsTypes()).toEqual(['oms.halt', 'oms.resume']);
    expect(h.announced.at(-1)).toEqual({ state: 'running', epoch: 6 });
  });

  it('pause → resume → pause → resume numbers cycles on and carries each epoch', async () => {
    const h = boot('running', 1);
    send(h, 'control.pause', 2);
    send(h, 'control.resume', 3);
    send(h, 'control.pause', 4);
    send(h, 'control.resume', 5);
    expect(h.cycles.map((c) => [c.input.cycle, c.input.epoch])).toEqual([
      [1, 1],
      [2, 3],
      [3, 5],
    ]);
    expect(h.cycles.slice(0, 2).every((c) => c.signal.aborted)).toBe(true);
    expect(h.cycles[2]!.signal.aborted).toBe(false);
  });
});

describe('trading machine: kill', () => {
  it.each<SystemState>(['running', 'paused'])(
    'from %s: reaches control.killed, stops the cycle, sends oms.kill with the reason',
    (from) => {
      const h = boot(from, 4);
      const inFlight = h.cycles[0];
      send(h, 'control.kill', 5, 'operator: runaway losses');
      expect(value(h)).toEqual({ control: 'killed' });
      if (inFlight) expect(inFlight.signal.aborted).toBe(true);
      expect(h.omsEvents.at(-1)).toEqual({ type: 'oms.kill', reason: 'operator: runaway losses', epoch: 5 });
      expect(h.actor.getSnapshot().context.epoch).toBe(5);
      expect(h.announced.at(-1)).toEqual({ state: 'killed', epoch: 5 });
    },
  );

  it('ignores later control events, starts no cycle, and the root stays alive until session.stop', async () => {
    const h = boot('running', 4);
    send(h, 'control.kill', 5);
    const omsBefore = h.omsEvents.length;
    send(h, 'control.resume', 6);
    send(h, 'control.pause', 7);
    send(h, 'control.kill', 8);
    h.clock.increment(CYCLE_MS * 5);
    await flush();
    expect(value(h)).toEqual({ control: 'killed' });
    expect(h.cycles).toHaveLength(1);
    expect(h.omsEvents).toHaveLength(omsBefore);
    expect(h.actor.getSnapshot().context.epoch).toBe(5);
    // Not done: the OMS child must stay alive so the kill's cancels and commands still run.
    expect(h.actor.getSnapshot().status).toBe('active');
    expect(h.actor.system.get('oms')).toBeDefined();

    h.actor.send({ type: 'session.stop' });
    expect(h.actor.getSnapshot().status).toBe('done');
    expect(value(h)).toBe('stopped');
  });

  it('session.stop while running ends the root and stops the cycle in flight', () => {
    const h = boot('running');
    h.actor.send({ type: 'session.stop' });
    expect(h.actor.getSnapshot().status).toBe('done');
    expect(h.cycles[0]!.signal.aborted).toBe(true);
  });
});

describe('trading machine: epoch', () => {
  it('follows the epoch of every accepted control event, including ones that change nothing', async () => {
    const h = boot('running', 4);
    const epoch = () => h.actor.getSnapshot().context.epoch;
    send(h, 'control.resume', 5); // acknowledged while running
    expect(epoch()).toBe(5);
    expect(value(h)).toEqual({ control: { running: 'cycling' } });
    await h.finishCycle(0);
    h.clock.increment(CYCLE_MS);
    expect(h.cycles[1]!.input.epoch).toBe(5);

    send(h, 'control.pause', 6);
    expect(epoch()).toBe(6);
    send(h, 'control.pause', 7); // acknowledged while paused
    expect(epoch()).toBe(7);
    send(h, 'control.resume', 8);
    expect(epoch()).toBe(8);
    expect(h.cycles.at(-1)!.input.epoch).toBe(8);
  });

  it('never moves backwards on a stale event', () => {
    const h = boot('paused', 10);
    send(h, 'control.pause', 3);
    expect(h.actor.getSnapshot().context.epoch).toBe(10);
  });

  it('controlEventFor maps a stored record to the root event that reaches its state', () => {
    const base = { epoch: 12, reason: 'r', changed_at: '2024-01-01T00:00:00.000Z', store_id: 's', adopted_from: null };
    // `at`: when the record changed (the kill halts the risk engine at that time).
    const at = Date.parse(base.changed_at);
    expect(controlEventFor({ ...base, state: 'running' })).toEqual({
      type: 'control.resume',
      reason: 'r',
      epoch: 12,
      at,
    });
    expect(controlEventFor({ ...base, state: 'paused' })).toEqual({
      type: 'control.pause',
      reason: 'r',
      epoch: 12,
      at,
    });
    expect(controlEventFor({ ...base, state: 'killed', reason: null })).toEqual({
      type: 'control.kill',
      reason: '',
      epoch: 12,
      at,
    });
  });
});

describe('trading machine: the safety halt', () => {
  const fault = (h: Booted, reason: HaltReason, at: number) =>
    h.actor.send({ type: 'safety.halt', reason, message: `${reason} happened`, at });
  const clear = (h: Booted, at: number) => h.actor.send({ type: 'safety.clear', at });
  const halt = (h: Booted) => h.actor.getSnapshot().context.halt;

  it('a start already halted (the preflight found a fault) announces the halt once and runs no cycle', async () => {
    const h = boot('running', 4, { reason: 'clock_skew', message: 'an hour ahead', since: 0, earlier: [] });
    expect(value(h)).toEqual({ control: { running: 'halted' } });
    expect(h.haltsAnnounced).toEqual(['clock_skew']);
    h.clock.increment(CYCLE_MS * 5);
    await flush();
    expect(h.cycles).toHaveLength(0);
  });

  it('a fault halts a running root: no cycle, the order manager halted and cancelling; the same fault again changes nothing', async () => {
    const h = boot('running');
    await h.finishCycle(0);
    fault(h, 'store_unreachable', 1_000);
    expect(value(h)).toEqual({ control: { running: 'halted' } });
    expect(halt(h)).toEqual({
      reason: 'store_unreachable',
      message: 'store_unreachable happened',
      since: 1_000,
      earlier: [],
    });
    expect(h.omsTypes().slice(-2)).toEqual(['oms.safety', 'oms.halt']);
    fault(h, 'store_unreachable', 1_250);
    expect(h.omsTypes().filter((t) => t === 'oms.safety')).toHaveLength(1);
    expect(h.haltsAnnounced).toEqual(['store_unreachable']);
    h.clock.increment(CYCLE_MS * 5);
    await flush();
    expect(h.cycles).toHaveLength(1);
  });

  it('a fault mid-cycle stops the cycle in flight: it reports nothing, and the cycle after the halt runs on a fresh actor', async () => {
    const h = boot('running');
    const inFlight = h.cycles[0]!;
    fault(h, 'store_unreachable', 1_000);
    expect(value(h)).toEqual({ control: { running: 'halted' } });
    expect(inFlight.signal.aborted).toBe(true);
    await h.finishCycle(0); // its answer reaches nobody
    expect(h.actor.getSnapshot().context.lastCycle).toBeNull();
    clear(h, 3_000);
    h.recoveries[0]!.control.resolve(halt(h)!);
    await flush();
    expect(value(h)).toEqual({ control: { running: 'cycling' } });
    expect(h.cycles.map((c) => c.input.cycle)).toEqual([1, 2]);
    expect(h.cycles[1]!.signal.aborted).toBe(false);
    await h.finishCycle(1);
    expect(value(h)).toEqual({ control: { running: 'waiting' } });
    expect(h.actor.getSnapshot().context.lastCycle).toMatchObject({ cycle: 2 });
  });

  it('another fault replaces the halt, remembers the first and cancels again', () => {
    const h = boot('running');
    fault(h, 'store_unreachable', 1_000);
    fault(h, 'control_plane_lost', 2_000);
    expect(halt(h)).toMatchObject({
      reason: 'control_plane_lost',
      since: 2_000,
      earlier: [{ reason: 'store_unreachable', since: 1_000, earlier: [] }],
    });
    expect(h.omsTypes().filter((t) => t === 'oms.safety')).toHaveLength(2);
  });

  it('the checks passing start one recovery; only its success ends the halt and trading resumes', async () => {
    const h = boot('running');
    await h.finishCycle(0);
    fault(h, 'store_unreachable', 1_000);
    clear(h, 3_000);
    clear(h, 3_250);
    expect(h.recoveries).toHaveLength(1);
    expect(h.recoveries[0]!.input).toEqual({ halt: halt(h), until: 3_000 });
    expect(value(h)).toEqual({ control: { running: 'halted' } });
    h.recoveries[0]!.control.resolve(halt(h)!);
    await flush();
    expect(halt(h)).toBeNull();
    expect(value(h)).toEqual({ control: { running: 'cycling' } });
    expect(h.haltsAnnounced).toEqual(['store_unreachable', 'ended']);
    expect(h.omsTypes().at(-1)).toBe('oms.resume');
  });

  it('a recovery that fails leaves the halt; the next passing check tries again', async () => {
    const h = boot('running');
    fault(h, 'store_unreachable', 1_000);
    clear(h, 2_000);
    h.recoveries[0]!.control.reject(new Error('the store failed again'));
    await flush();
    expect(halt(h)).toMatchObject({ reason: 'store_unreachable' });
    expect(value(h)).toEqual({ control: { running: 'halted' } });
    clear(h, 3_000);
    expect(h.recoveries).toHaveLength(2);
  });

  it('a fault during a recovery wins: the halt stays, without the halts the recovery recorded', async () => {
    const h = boot('running');
    fault(h, 'store_unreachable', 1_000);
    clear(h, 2_000);
    const recorded = halt(h)!;
    fault(h, 'store_rolled_back', 2_500);
    h.recoveries[0]!.control.resolve(recorded);
    await flush();
    expect(halt(h)).toEqual({
      reason: 'store_rolled_back',
      message: 'store_rolled_back happened',
      since: 2_500,
      earlier: [],
    });
    expect(value(h)).toEqual({ control: { running: 'halted' } });
    expect(h.haltsAnnounced).toEqual(['store_unreachable', 'store_rolled_back']);
  });

  it('the same fault back while a recovery runs keeps the halt: the recorded period closes, a new one begins, nothing cycles', async () => {
    const h = boot('running');
    await h.finishCycle(0);
    fault(h, 'lease_unconfirmed', 1_000);
    clear(h, 2_000);
    fault(h, 'lease_unconfirmed', 2_250); // the next tick: the fault is back before the recovery ended
    const sentBefore = h.omsTypes().length;
    h.recoveries[0]!.control.resolve(halt(h)!);
    await flush();
    expect(halt(h)).toEqual({
      reason: 'lease_unconfirmed',
      message: 'lease_unconfirmed happened',
      since: 2_250,
      earlier: [],
    });
    expect(value(h)).toEqual({ control: { running: 'halted' } });
    // The order manager was never resumed, and is told to cancel once more.
    expect(h.omsTypes().slice(sentBefore)).toEqual(['oms.safety']);
    expect(h.cycles).toHaveLength(1);
    expect(h.haltsAnnounced).toEqual(['lease_unconfirmed', 'ended', 'lease_unconfirmed']);
    // And it still ends the normal way once the checks pass and stay passing.
    clear(h, 3_000);
    h.recoveries[1]!.control.resolve(halt(h)!);
    await flush();
    expect(halt(h)).toBeNull();
    expect(value(h)).toEqual({ control: { running: 'cycling' } });
  });

  it('paused or killed, a fault cancels and is remembered, and a recovery ends it without a cycle', async () => {
    const h = boot('paused', 7);
    fault(h, 'control_plane_lost', 1_000);
    expect(value(h)).toEqual({ control: 'paused' });
    expect(h.omsTypes()).toEqual(['oms.halt', 'oms.safety']);
    clear(h, 2_000);
    h.recoveries[0]!.control.resolve(halt(h)!);
    await flush();
    expect(halt(h)).toBeNull();
    expect(value(h)).toEqual({ control: 'paused' });
    expect(h.cycles).toHaveLength(0);
  });

  it('a resume while halted lands in halted, not in a cycle', () => {
    const h = boot('paused', 7);
    fault(h, 'store_unreachable', 1_000);
    send(h, 'control.resume', 8);
    expect(value(h)).toEqual({ control: { running: 'halted' } });
    expect(h.cycles).toHaveLength(0);
  });
});
