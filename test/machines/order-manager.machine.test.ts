// Order manager (the safety gate, the one way out to the venue), alone, with a controllable fake
// `executeJob`: starts halted and refuses submits at once (TRADING_PAUSED); runs submits only while
// accepting; a halt or kill refuses every queued submit and lets the one in flight report what really
// happened; a kill latches `stopped` (TRADING_KILLED, no resume) and cancels at once, keyed as its
// command (kill_cancels, which goes ahead of all else too); a safety halt's and a requested cancel go first;
// cancel-all commands run in every mode in FIFO order; one job at a time; a failing job yields
// SUBMIT_FAILED and the OMS keeps working.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Actor } from 'xstate';
import { orderManagerMachine } from '../../machines/order-manager.machine.js';
import type { JobResult, OmsJob } from '../../machines/order-manager.machine.js';
import type { SubmissionOutcome, SubmittedReply } from '../../machines/messages.js';
import type { ApprovedOrder } from '../../src/domain/orders.js';
import type { CancelCommandRecord } from '../../src/domain/commands.js';
import { approval, collector, deferred, flush } from './support.js';
import type { Collector, Deferred } from './support.js';
import { cancelPayload, killCancelsPayload } from '../support/commands.js';

interface Execution {
  job: OmsJob;
  signal: AbortSignal;
  settled: boolean;
  control: Deferred<JobResult>;
}

/** A fake executeJob: every call waits until the test settles it; records concurrency. */
function fakeExecutor() {
  const calls: Execution[] = [];
  let maxConcurrent = 0;
  const running = () => calls.filter((c) => !c.settled && !c.signal.aborted).length;
  const logic = fromPromise<JobResult, { job: OmsJob }>(({ input, signal }) => {
    const control = deferred<JobResult>();
    const call: Execution = { job: input.job, signal, settled: false, control };
    calls.push(call);
    maxConcurrent = Math.max(maxConcurrent, running());
    return control.promise.finally(() => {
      call.settled = true;
    });
  });
  return {
    logic,
    calls,
    maxConcurrent: () => maxConcurrent,
    kinds: () => calls.map((c) => describeJob(c.job)),
  };
}

function describeJob(job: OmsJob): string {
  if (job.kind === 'submit') return `submit:${job.cycle}`;
  if (job.command) return `command:${job.command.id}`;
  return job.key ? `cancel:${job.key}` : `cancel:${job.reason}`;
}

function command(id: string): CancelCommandRecord {
  return {
    id,
    type: 'cancel_all',
    payload: cancelPayload(),
    enqueued_at: '2024-01-01T00:00:00.000Z',
    status: 'claimed',
    attempts: 1,
    result: null,
    completed_at: null,
  };
}

/** The kill's cancel command at epoch 1, and the key of the kill's own first-in-line cancel. */
const KILL_1 = 'kill-cancels-epoch-1';

/** The kill's cancels as the queue hands them over. */
function killCommand(id: string): CancelCommandRecord {
  return { ...command(id), type: 'kill_cancels', payload: killCancelsPayload() };
}

/** The job that carries out a cancel command. */
function commandJob(c: CancelCommandRecord): OmsJob {
  return { kind: 'cancel', reason: c.type, symbols: ['BTCUSDT'], command: c, receipt: null, key: c.id };
}

function submitted(clientOrderId: string): SubmissionOutcome {
  return {
    clientOrderId,
    status: 'submitted',
    venueStatus: 'filled',
    filledQty: 1,
    avgFillPrice: 100,
    duplicate: false,
  };
}

function startOms() {
  const exec = fakeExecutor();
  const oms = createActor(orderManagerMachine.provide({ actors: { executeJob: exec.logic } })).start();
  const replies = collector<SubmittedReply>();
  return { oms, exec, replies };
}

function submit(
  oms: Actor<typeof orderManagerMachine>,
  replies: Collector<SubmittedReply>,
  cycle: number,
  approvals: ApprovedOrder[],
  purpose: 'cycle' | 'command' = 'cycle',
) {
  oms.send({ type: 'oms.submit', purpose, cycle, approvals, replyTo: replies.ref });
}

const mode = (oms: Actor<typeof orderManagerMachine>) => (oms.getSnapshot().value as { mode: string }).mode;
const replyFor = (replies: Collector<SubmittedReply>, cycle: number) => replies.events.filter((e) => e.cycle === cycle);

function refusedAll(approvals: ApprovedOrder[], code: string) {
  return approvals.map((a) =>
    expect.objectContaining({
      clientOrderId: a.order.clientOrderId,
      status: 'refused',
      code,
      message: expect.any(String),
    }),
  );
}

describe('order manager: halted at start', () => {
  it('starts halted and idle', () => {
    const { oms } = startOms();
    expect(oms.getSnapshot().value).toEqual({ mode: 'halted', work: 'idle' });
  });

  it('refuses a submit at once with TRADING_PAUSED, one outcome per approval, and executes nothing', async () => {
    const { oms, exec, replies } = startOms();
    const approvals = [approval('s1-1-BTCUSDT-0'), approval('s1-1-ETHUSDT-1', { symbol: 'ETHUSDT' })];
    submit(oms, replies, 1, approvals);
    // Synchronous: no awaiting needed for a refusal.
    expect(replies.events).toEqual([
      { type: 'oms.submitted', cycle: 1, outcomes: refusedAll(approvals, 'TRADING_PAUSED') },
    ]);
    await flush();
    expect(exec.calls).toHaveLength(0);
    expect(replies.events).toHaveLength(1);
  });

  it('a halt while already halted refuses nothing new and keeps the mode', () => {
    const { oms, replies } = startOms();
    oms.send({ type: 'oms.halt' });
    expect(mode(oms)).toBe('halted');
    expect(replies.events).toHaveLength(0);
  });
});

describe('order manager: accepting', () => {
  it('after oms.resume runs a submit through executeJob and replies with its outcomes', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    expect(mode(oms)).toBe('accepting');
    const approvals = [approval('s1-3-BTCUSDT-0')];
    submit(oms, replies, 3, approvals);
    expect(exec.calls).toHaveLength(1);
    expect(exec.calls[0]!.job).toEqual({ kind: 'submit', purpose: 'cycle', cycle: 3, approvals, replyTo: replies.ref });
    expect(replies.events).toHaveLength(0);

    const outcomes = [submitted('s1-3-BTCUSDT-0')];
    exec.calls[0]!.control.resolve({ outcomes });
    await flush();
    expect(replies.events).toEqual([{ type: 'oms.submitted', cycle: 3, outcomes }]);
    expect(oms.getSnapshot().value).toEqual({ mode: 'accepting', work: 'idle' });
  });

  it('queues submits and runs them one at a time in arrival order', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    submit(oms, replies, 1, [approval('a')]);
    submit(oms, replies, 2, [approval('b')]);
    submit(oms, replies, 3, [approval('c')]);
    expect(exec.kinds()).toEqual(['submit:1']);
    exec.calls[0]!.control.resolve({ outcomes: [submitted('a')] });
    await flush();
    expect(exec.kinds()).toEqual(['submit:1', 'submit:2']);
    exec.calls[1]!.control.resolve({ outcomes: [submitted('b')] });
    await flush();
    exec.calls[2]!.control.resolve({ outcomes: [submitted('c')] });
    await flush();
    expect(replies.events.map((e) => [e.cycle, e.outcomes[0]!.clientOrderId])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(exec.maxConcurrent()).toBe(1);
  });

  it('a submit job whose executor rejects yields SUBMIT_FAILED with the error text, and the OMS keeps working', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    const approvals = [approval('x-0'), approval('x-1')];
    submit(oms, replies, 1, approvals);
    submit(oms, replies, 2, [approval('y-0')]);
    exec.calls[0]!.control.reject(new Error('venue unreachable'));
    await flush();
    expect(replyFor(replies, 1)).toEqual([
      {
        type: 'oms.submitted',
        cycle: 1,
        outcomes: approvals.map((a) => ({
          clientOrderId: a.order.clientOrderId,
          status: 'refused',
          code: 'SUBMIT_FAILED',
          message: 'venue unreachable',
        })),
      },
    ]);
    // The queued submit runs next and succeeds.
    expect(exec.kinds()).toEqual(['submit:1', 'submit:2']);
    exec.calls[1]!.control.resolve({ outcomes: [submitted('y-0')] });
    await flush();
    expect(replyFor(replies, 2)).toEqual([{ type: 'oms.submitted', cycle: 2, outcomes: [submitted('y-0')] }]);
    expect(oms.getSnapshot().status).toBe('active');
    expect(oms.getSnapshot().value).toEqual({ mode: 'accepting', work: 'idle' });
  });

  it('a failing command job sends nothing to anyone and the next job still runs', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.command', command: command('c1') });
    oms.send({ type: 'oms.command', command: command('c2') });
    exec.calls[0]!.control.reject(new Error('boom'));
    await flush();
    expect(exec.kinds()).toEqual(['command:c1', 'command:c2']);
    expect(replies.events).toHaveLength(0);
    expect(oms.getSnapshot().status).toBe('active');
  });
});

describe("order manager: a command's reduce-only submission", () => {
  it.each(['halted', 'stopped'] as const)('is executed while %s, not refused', async (target) => {
    const { oms, exec, replies } = startOms();
    if (target === 'stopped') {
      oms.send({ type: 'oms.kill', reason: 'test', epoch: 1 });
      exec.calls[0]!.control.resolve({ outcomes: [] }); // the kill's cancel
    }
    const approvals = [approval('dlv-1', { reduceOnly: true, side: 'SELL' })];
    await flush();
    submit(oms, replies, 0, approvals, 'command');
    await flush();
    const job = exec.calls.map((c) => c.job).find((j) => j.kind === 'submit');
    expect(job).toMatchObject({ kind: 'submit', purpose: 'command', approvals });
    expect(replies.events).toEqual([]);
    expect(mode(oms)).toBe(target);
  });

  it('stays queued through a halt and a kill that refuse the cycle submissions around it', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    submit(oms, replies, 1, [approval('busy-0')]);
    submit(oms, replies, 0, [approval('dlv-2', { reduceOnly: true, side: 'SELL' })], 'command');
    submit(oms, replies, 2, [approval('cyc-0')]);
    oms.send({ type: 'oms.halt' });
    oms.send({ type: 'oms.kill', reason: 'test', epoch: 1 });
    oms.send({ type: 'oms.command', command: killCommand(KILL_1) });
    expect(replyFor(replies, 2)).toEqual([
      { type: 'oms.submitted', cycle: 2, outcomes: refusedAll([approval('cyc-0')], 'TRADING_PAUSED') },
    ]);
    exec.calls[0]!.control.resolve({ outcomes: [submitted('busy-0')] });
    await flush();
    // The kill's cancels go first (its command, then its own cancel with the same key: one venue
    // call, see order-execution), then the command's submission still runs.
    expect(exec.kinds()).toEqual(['submit:1', `command:${KILL_1}`]);
    for (const i of [1, 2]) {
      exec.calls[i]!.control.resolve({ outcomes: [] });
      await flush();
    }
    expect(exec.kinds()).toEqual(['submit:1', `command:${KILL_1}`, `cancel:${KILL_1}`, 'submit:0']);
    expect(exec.calls[3]!.job).toMatchObject({ purpose: 'command' });
  });
});

describe('order manager: halt', () => {
  it('lets the submit in flight finish (its reply is the truth) and refuses every queued submit with TRADING_PAUSED', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    const first = [approval('f-0'), approval('f-1')];
    const queued = [approval('q-0')];
    submit(oms, replies, 1, first);
    submit(oms, replies, 2, queued);
    const inFlight = exec.calls[0]!;
    expect(inFlight.signal.aborted).toBe(false);

    oms.send({ type: 'oms.halt' });
    expect(inFlight.signal.aborted).toBe(false);
    expect(mode(oms)).toBe('halted');
    expect(replyFor(replies, 1)).toEqual([]);
    expect(replyFor(replies, 2)).toEqual([
      { type: 'oms.submitted', cycle: 2, outcomes: refusedAll(queued, 'TRADING_PAUSED') },
    ]);

    // The executor (which sees the mode before each venue call) reports what really happened.
    const truth = [
      submitted('f-0'),
      { clientOrderId: 'f-1', status: 'refused' as const, code: 'TRADING_PAUSED', message: 'halted' },
    ];
    inFlight.control.resolve({ outcomes: truth });
    await flush();
    expect(replyFor(replies, 1)).toEqual([{ type: 'oms.submitted', cycle: 1, outcomes: truth }]);
    expect(replies.events).toHaveLength(2);
    expect(exec.calls).toHaveLength(1);
    expect(oms.getSnapshot().value).toEqual({ mode: 'halted', work: 'idle' });
  });

  it('after a halt, a new submit is refused and a resume accepts again', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    oms.send({ type: 'oms.halt' });
    submit(oms, replies, 5, [approval('h-0')]);
    expect(replyFor(replies, 5)[0]!.outcomes[0]).toMatchObject({ status: 'refused', code: 'TRADING_PAUSED' });
    oms.send({ type: 'oms.resume' });
    submit(oms, replies, 6, [approval('r-0')]);
    expect(exec.kinds()).toEqual(['submit:6']);
    exec.calls[0]!.control.resolve({ outcomes: [submitted('r-0')] });
    await flush();
    expect(replyFor(replies, 6)).toEqual([{ type: 'oms.submitted', cycle: 6, outcomes: [submitted('r-0')] }]);
  });

  it('does not abort a command in flight (commands only reduce risk), but drops queued submits', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    oms.send({ type: 'oms.command', command: command('c1') });
    submit(oms, replies, 1, [approval('q-0')]);
    oms.send({ type: 'oms.halt' });
    expect(exec.calls[0]!.signal.aborted).toBe(false);
    expect(replyFor(replies, 1)[0]!.outcomes[0]).toMatchObject({ status: 'refused', code: 'TRADING_PAUSED' });
    exec.calls[0]!.control.resolve({ outcomes: [] });
    await flush();
    expect(exec.kinds()).toEqual(['command:c1']);
  });
});

describe('order manager: kill', () => {
  it("stops, refuses queued submits with TRADING_KILLED, lets the one in flight report, and runs the kill's cancels before anything else queued", async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    const first = [approval('f-0')];
    const queued = [approval('q-0'), approval('q-1')];
    submit(oms, replies, 1, first);
    oms.send({ type: 'oms.command', command: command('c1') });
    submit(oms, replies, 2, queued);
    oms.send({ type: 'oms.command', command: command('c2') });
    const inFlight = exec.calls[0]!;

    oms.send({ type: 'oms.kill', reason: 'operator kill', epoch: 1 });
    oms.send({ type: 'oms.command', command: killCommand(KILL_1) });
    expect(mode(oms)).toBe('stopped');
    expect(inFlight.signal.aborted).toBe(false);
    expect(replyFor(replies, 2)).toEqual([
      { type: 'oms.submitted', cycle: 2, outcomes: refusedAll(queued, 'TRADING_KILLED') },
    ]);
    inFlight.control.resolve({ outcomes: refusedAll(first, 'TRADING_KILLED') });
    await flush();
    expect(replyFor(replies, 1)).toEqual([
      { type: 'oms.submitted', cycle: 1, outcomes: refusedAll(first, 'TRADING_KILLED') },
    ]);

    expect(exec.calls[1]!.job).toEqual(commandJob(killCommand(KILL_1)));
    for (const i of [1, 2, 3, 4]) {
      exec.calls[i]!.control.resolve({ outcomes: [] });
      await flush();
    }
    expect(exec.kinds()).toEqual(['submit:1', `command:${KILL_1}`, `cancel:${KILL_1}`, 'command:c1', 'command:c2']);
    expect(exec.maxConcurrent()).toBe(1);
  });

  it('a kill cancels at once, keyed as its command; a start on a killed store has no kill to key, and a requested cancel runs first in any mode', async () => {
    const { oms, exec } = startOms();
    oms.send({ type: 'oms.kill', reason: 'operator', epoch: 3 });
    expect(mode(oms)).toBe('stopped');
    expect(exec.calls.map((c) => c.job)).toEqual([
      {
        kind: 'cancel',
        reason: 'kill: operator',
        symbols: null,
        command: null,
        receipt: null,
        key: 'kill-cancels-epoch-3',
      },
    ]);
    exec.calls[0]!.control.resolve({ outcomes: [] });
    await flush();
    const booted = startOms();
    booted.oms.send({ type: 'oms.kill', reason: 'killed', epoch: null });
    expect(booted.exec.calls).toEqual([]);
    booted.oms.send({ type: 'oms.cancel', reason: 'started killed', symbols: null, receipt: 'r-1' });
    expect(booted.exec.calls.map((c) => c.job)).toEqual([
      { kind: 'cancel', reason: 'started killed', symbols: null, command: null, receipt: 'r-1', key: null },
    ]);
  });

  it('a safety halt stops accepting like a pause, refuses queued submits and cancels every open order first', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    submit(oms, replies, 1, [approval('in-flight')]);
    const queued = [approval('queued-0')];
    submit(oms, replies, 2, queued);
    oms.send({ type: 'oms.safety', reason: 'store_unreachable' });
    expect(mode(oms)).toBe('halted');
    expect(replies.events).toEqual([
      { type: 'oms.submitted', cycle: 2, outcomes: refusedAll(queued, 'TRADING_PAUSED') },
    ]);
    exec.calls[0]!.control.resolve({ outcomes: [] });
    await flush();
    expect(exec.calls[1]!.job).toEqual({
      kind: 'cancel',
      reason: 'halt: store_unreachable',
      symbols: null,
      command: null,
      receipt: null,
      key: null,
    });
    // Halted (or killed), another halt cancels again: the last try may have failed with the store.
    oms.send({ type: 'oms.safety', reason: 'store_unreachable' });
    exec.calls[1]!.control.resolve({ outcomes: [] });
    await flush();
    expect(exec.kinds()).toEqual(['submit:1', 'cancel:halt: store_unreachable', 'cancel:halt: store_unreachable']);
    oms.send({ type: 'oms.resume' });
    expect(mode(oms)).toBe('accepting');
  });

  it('refuses later submits with TRADING_KILLED and cannot be resumed', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    oms.send({ type: 'oms.kill', reason: 'k', epoch: 1 });
    exec.calls[0]!.control.resolve({ outcomes: [] });
    await flush();

    oms.send({ type: 'oms.resume' });
    expect(mode(oms)).toBe('stopped');
    oms.send({ type: 'oms.halt' });
    oms.send({ type: 'oms.resume' });
    expect(mode(oms)).toBe('stopped');

    const approvals = [approval('late-0')];
    submit(oms, replies, 9, approvals);
    expect(replies.events).toEqual([
      { type: 'oms.submitted', cycle: 9, outcomes: refusedAll(approvals, 'TRADING_KILLED') },
    ]);
    await flush();
    expect(exec.kinds()).toEqual([`cancel:${KILL_1}`]);
  });

  it("a kill while a command runs lets it finish, then the kill's cancels run before the other queued commands", async () => {
    const { oms, exec } = startOms();
    oms.send({ type: 'oms.command', command: command('c1') });
    oms.send({ type: 'oms.command', command: command('c2') });
    oms.send({ type: 'oms.kill', reason: 'k', epoch: 1 });
    oms.send({ type: 'oms.command', command: killCommand(KILL_1) });
    expect(exec.calls[0]!.signal.aborted).toBe(false);
    for (let i = 0; i < 4; i++) {
      exec.calls[i]!.control.resolve({ outcomes: [] });
      await flush();
    }
    expect(exec.kinds()).toEqual(['command:c1', `command:${KILL_1}`, `cancel:${KILL_1}`, 'command:c2']);
  });
});

describe('order manager: commands and serialisation', () => {
  it.each(['halted', 'accepting', 'stopped'] as const)(
    'runs commands in %s mode, FIFO, one at a time',
    async (target) => {
      const { oms, exec } = startOms();
      if (target === 'accepting') oms.send({ type: 'oms.resume' });
      if (target === 'stopped') {
        oms.send({ type: 'oms.kill', reason: 'k', epoch: 1 });
        exec.calls[0]!.control.resolve({ outcomes: [] }); // the kill's cancel
        await flush();
      }
      expect(mode(oms)).toBe(target);
      const before = exec.calls.length;
      for (const id of ['c1', 'c2', 'c3']) oms.send({ type: 'oms.command', command: command(id) });
      expect(exec.calls.length - before).toBe(1);
      for (let i = before; i < before + 3; i++) {
        expect(exec.calls[i]!.settled).toBe(false);
        exec.calls[i]!.control.resolve({ outcomes: [] });
        await flush();
      }
      expect(exec.kinds().slice(before)).toEqual(['command:c1', 'command:c2', 'command:c3']);
      expect(exec.calls[before]!.job).toEqual(commandJob(command('c1')));
      expect(exec.maxConcurrent()).toBe(1);
      expect(oms.getSnapshot().value).toEqual({ mode: target, work: 'idle' });
    },
  );

  it('never runs two jobs at once over a mixed sequence of submits, commands, halts and resumes', async () => {
    const { oms, exec, replies } = startOms();
    oms.send({ type: 'oms.resume' });
    submit(oms, replies, 1, [approval('a')]);
    oms.send({ type: 'oms.command', command: command('c1') });
    submit(oms, replies, 2, [approval('b')]);
    oms.send({ type: 'oms.halt' }); // submit 1 finishes, submit 2 is refused; c1 runs next
    oms.send({ type: 'oms.resume' });
    submit(oms, replies, 3, [approval('c')]);
    oms.send({ type: 'oms.command', command: command('c2') });
    for (let guard = 0; guard < 10; guard++) {
      const open = exec.calls.find((c) => !c.settled && !c.signal.aborted);
      if (!open) break;
      open.control.resolve({
        outcomes: open.job.kind === 'submit' ? open.job.approvals.map((a) => submitted(a.order.clientOrderId)) : [],
      });
      await flush();
    }
    expect(exec.kinds()).toEqual(['submit:1', 'command:c1', 'submit:3', 'command:c2']);
    expect(exec.maxConcurrent()).toBe(1);
    const byCycle = [...replies.events].sort((a, b) => a.cycle - b.cycle);
    expect(byCycle.map((e) => [e.cycle, e.outcomes[0]!.status])).toEqual([
      [1, 'submitted'],
      [2, 'refused'],
      [3, 'submitted'],
    ]);
  });
});
