/**
 * The control statechart as a test model (xstate/graph): the events to explore and the paths that
 * both model-based suites (HTTP API and trading actor system) walk.
 */
import { createTestModel } from 'xstate/graph';
import { controlMachine } from '../../machines/control.machine.js';
import type { ControlEvent } from '../../src/domain/control.js';

export const CONTROL_EVENTS: ControlEvent[] = [
  { type: 'control.pause', reason: 'model' },
  { type: 'control.resume', reason: 'model' },
  { type: 'control.kill', reason: 'model' },
];

const model = createTestModel(controlMachine, { events: CONTROL_EVENTS });

/** Every loop-free path plus the shortest path to each state, deduplicated. */
export const CONTROL_PATHS = [
  ...new Map([...model.getSimplePaths(), ...model.getShortestPaths()].map((p) => [p.description, p])).values(),
];
