/**
 * The one definition of the control states (spec section 3): running (initial) ⇄ paused → killed (final).
 *
 * The API validates every control call with this machine's pure transition (`decideControl`), and the
 * trading process's root statechart is built from the same `controlStates` config, so the two can
 * never disagree about which moves are legal. Machines stay pure: no I/O, no clock, no env.
 */
import { setup, transition } from 'xstate';
import type { ControlDecision, ControlEvent, SystemState } from '../src/domain/control.js';

/**
 * The state nodes, shared with the root statechart. Targetless `acknowledge` transitions mark calls
 * that are accepted but change nothing (pause when paused, resume when running); `killed` is final,
 * so a pause or resume there finds no transition and is refused. Any machine using these nodes must
 * provide an `acknowledge` action (a no-op is fine).
 */
export const controlStates = {
  running: {
    on: {
      'control.pause': { target: 'paused' },
      'control.resume': { actions: 'acknowledge' },
      'control.kill': { target: 'killed' },
    },
  },
  paused: {
    on: {
      'control.pause': { actions: 'acknowledge' },
      'control.resume': { target: 'running' },
      'control.kill': { target: 'killed' },
    },
  },
  killed: { type: 'final' },
} as const;

export const controlMachine = setup({
  types: {} as { events: ControlEvent },
  actions: {
    acknowledge: () => {},
  },
}).createMachine({
  id: 'control',
  initial: 'running',
  states: controlStates,
});

/**
 * Offers `event` to the statechart in state `from` and reports what would happen, without side
 * effects. The one rule not expressible as a transition of a final state: the kill switch is the
 * emergency button and never errors, so `control.kill` in `killed` is `unchanged`, not `refused`.
 */
export function decideControl(from: SystemState, event: ControlEvent): ControlDecision {
  const snapshot = controlMachine.resolveState({ value: from, context: {} });
  if (from === 'killed') {
    return { outcome: event.type === 'control.kill' ? 'unchanged' : 'refused', from, to: from };
  }
  if (!snapshot.can(event)) return { outcome: 'refused', from, to: from };
  const [next] = transition(controlMachine, snapshot, event);
  const to = next.value as SystemState;
  return { outcome: to === from ? 'unchanged' : 'changed', from, to };
}
