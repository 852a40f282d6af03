// Model-based test of the risk actor's trading states (xstate/graph): every loop-free path and the
// shortest path to each state through the events that move it — an account beyond the drawdown limit,
// one within it, one after the window dropped the breach's peak, an operator's reset, the kill — is
// replayed on a real risk actor; at the end of each path the actor must be in the model's state and
// judge orders as that state says (active: the guards; reducing: RISK_REDUCING plus its own closes;
// halted: RISK_HALTED), and every transition on the way must have been announced exactly once.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyEventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { EvaluatedReply } from '../../machines/messages.js';
import { riskMachine } from '../../machines/risk.machine.js';
import type { RiskInput } from '../../machines/risk.machine.js';
import { signApproval } from '../../src/domain/order-token.js';
import type { AccountSnapshot } from '../../src/domain/portfolio.js';
import { DEFAULT_RISK_LIMITS } from '../../src/domain/risk/risk-engine.js';
import type { RiskStateChange } from '../../src/domain/risk/trading-state.js';
import { position } from '../domain/risk/builders.js';
import { account, collector, marketView, order, snapshot } from './support.js';

const NOW = 1_700_000_000_000;
const sink = collector();
const holding = (nav: number, peakNav: number): AccountSnapshot =>
  account({ nav, peakNav, positions: [position('BTCUSDT', 2, 100)] });
const observe = (name: string, acct: AccountSnapshot) => ({
  type: 'risk.observe' as const,
  cycle: 1,
  account: acct,
  now: NOW,
  replyTo: sink.ref,
  name,
});

const EVENTS = [
  observe('breach', holding(8_900, 10_000)),
  observe('within', holding(9_500, 10_000)),
  observe('window', holding(9_000, 9_500)),
  { type: 'risk.reset' as const, reason: 'model', at: NOW, nav: 9_000, peakNav: 9_000 },
  { type: 'risk.halt' as const, reason: 'killed: model', at: NOW },
];

const INPUT: RiskInput = {
  limits: { ...DEFAULT_RISK_LIMITS, maxDrawdown: 0.1 },
  tokenTtlMs: 30_000,
  sign: (o, epoch, expiresAt) => signApproval(o, { secret: 'm'.repeat(32), epoch, expiresAt }),
  instruments: [{ symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 }],
};

// A vertex is the state and the state it was entered from (so `active` again after `reducing` is a
// vertex of its own and the paths through it are walked); the rest of the context (the signer, the
// figures) is not part of it. Events are told apart by their name.
const model = createTestModel(riskMachine, {
  input: INPUT,
  events: () => EVENTS as never,
  serializeState: (snapshot) => `${String(snapshot.value)}<${snapshot.context.change?.from ?? 'start'}`,
  // The graph offers every event type the state handles; `risk.evaluate` judges orders and never
  // moves the state (it is probed at the end of each path instead).
  filterEvents: (_, event) => event.type !== 'risk.evaluate',
  serializeEvent: (event) => String((event as AnyEventObject & { name?: string }).name ?? event.type),
});
const nameOf = (event: AnyEventObject) => String((event as { name?: string }).name ?? event.type);
const PATHS = [
  ...new Map(
    [...model.getSimplePaths(), ...model.getShortestPaths()].map((p) => [
      p.steps.map((step) => nameOf(step.event)).join(' → '),
      p,
    ]),
  ),
];

describe('risk actor, model-based: every path through active, reducing and halted', () => {
  it('the paths visit every state, entered every way it can be', () => {
    const vertex = (snapshot: (typeof PATHS)[number][1]['state']) =>
      `${String(snapshot.value)}<${snapshot.context.change?.from ?? 'start'}`;
    const reached = new Set(PATHS.flatMap(([, p]) => p.steps.map((step) => vertex(step.state))));
    expect(reached).toEqual(
      new Set(['active<start', 'reducing<active', 'active<reducing', 'halted<active', 'halted<reducing']),
    );
    // Both ways out of reducing are walked.
    const names = PATHS.map(([name]) => name);
    expect(names.some((n) => n.includes('breach → window'))).toBe(true);
    expect(names.some((n) => n.includes('breach → risk.reset'))).toBe(true);
  });

  it.each(PATHS)('%s', (_, path) => {
    const changes: RiskStateChange[] = [];
    const risk = createActor(
      riskMachine.provide({ actions: { announceRiskState: (__, change) => void changes.push(change) } }),
      { input: INPUT },
    ).start();
    let moves = 0;
    for (const step of path.steps) {
      const before = String(risk.getSnapshot().value);
      risk.send(step.event as never);
      if (String(risk.getSnapshot().value) !== before) moves += 1;
    }
    const state = String(path.state.value);
    expect(String(risk.getSnapshot().value)).toBe(state);
    expect(changes).toHaveLength(moves);
    if (changes.length > 0) expect(changes.at(-1)!.to).toBe(state);

    // What the state lets through: a BUY that adds exposure, in a cycle.
    const replies = collector<EvaluatedReply>();
    risk.send({
      type: 'risk.evaluate',
      purpose: 'cycle',
      cycle: 2,
      orders: [order({ clientOrderId: 's-2-BTCUSDT-0', qty: 1 })],
      account: holding(9_950, 10_000),
      market: marketView(snapshot('BTCUSDT', 100)),
      epoch: 1,
      now: NOW,
      replyTo: replies.ref,
    });
    const [reply] = replies.events;
    const buy = reply!.verdicts[0]!;
    const own = reply!.verdicts.filter((v) => v.by === 'risk');
    if (state === 'active') {
      expect(buy.approval).not.toBeNull();
      expect(own).toEqual([]);
    } else if (state === 'reducing') {
      expect(buy.decision.checks[0].code).toBe('RISK_REDUCING');
      expect(own.map((v) => [v.order.side, v.order.qty, v.approval !== null])).toEqual([['SELL', 2, true]]);
    } else {
      expect(buy.decision.checks[0].code).toBe('RISK_HALTED');
      expect(own).toEqual([]);
    }
  });
});
