// Control statechart: decideControl for all 9 (state × event) pairs, the machine's initial state,
// its legal moves when run as an actor, and that `killed` is final (the actor is done, nothing moves it).
import { describe, expect, it } from 'vitest';
import { createActor, getNextSnapshot } from 'xstate';
import { controlMachine, decideControl } from '../../machines/control.machine.js';
import type { ControlEvent, ControlOutcome, SystemState } from '../../src/domain/control.js';

const ev = (type: ControlEvent['type']): ControlEvent => ({ type, reason: 'test' });

describe('decideControl', () => {
  it.each<{ from: SystemState; event: ControlEvent['type']; outcome: ControlOutcome; to: SystemState }>([
    { from: 'running', event: 'control.pause', outcome: 'changed', to: 'paused' },
    { from: 'running', event: 'control.resume', outcome: 'unchanged', to: 'running' },
    { from: 'running', event: 'control.kill', outcome: 'changed', to: 'killed' },
    { from: 'paused', event: 'control.pause', outcome: 'unchanged', to: 'paused' },
    { from: 'paused', event: 'control.resume', outcome: 'changed', to: 'running' },
    { from: 'paused', event: 'control.kill', outcome: 'changed', to: 'killed' },
    { from: 'killed', event: 'control.pause', outcome: 'refused', to: 'killed' },
    { from: 'killed', event: 'control.resume', outcome: 'refused', to: 'killed' },
    { from: 'killed', event: 'control.kill', outcome: 'unchanged', to: 'killed' },
  ])('$from + $event → $outcome ($to)', ({ from, event, outcome, to }) => {
    expect(decideControl(from, ev(event))).toEqual({ outcome, from, to });
  });

  it('is pure: the same question twice gets the same answer', () => {
    expect(decideControl('running', ev('control.pause'))).toEqual(decideControl('running', ev('control.pause')));
    expect(decideControl('paused', ev('control.resume'))).toEqual({
      outcome: 'changed',
      from: 'paused',
      to: 'running',
    });
  });
});

describe('controlMachine', () => {
  it('starts in running', () => {
    const actor = createActor(controlMachine).start();
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('moves running → paused → running', () => {
    const actor = createActor(controlMachine).start();
    actor.send(ev('control.pause'));
    expect(actor.getSnapshot().value).toBe('paused');
    actor.send(ev('control.pause'));
    expect(actor.getSnapshot().value).toBe('paused');
    actor.send(ev('control.resume'));
    expect(actor.getSnapshot().value).toBe('running');
  });

  it.each<SystemState>(['running', 'paused'])('kill from %s reaches killed, which is final', (from) => {
    const actor = createActor(controlMachine).start();
    if (from === 'paused') actor.send(ev('control.pause'));
    actor.send(ev('control.kill'));
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('killed');
    expect(snapshot.status).toBe('done');
    for (const type of ['control.pause', 'control.resume', 'control.kill'] as const) {
      expect(getNextSnapshot(controlMachine, snapshot, ev(type)).value).toBe('killed');
    }
  });

  it('the killed state refuses every event (nothing can leave it)', () => {
    const killed = controlMachine.resolveState({ value: 'killed', context: {} });
    for (const type of ['control.pause', 'control.resume', 'control.kill'] as const)
      expect(killed.can(ev(type))).toBe(false);
  });
});
