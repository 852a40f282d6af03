/**
 * Model-based tests: paths generated from the control statechart (xstate/graph) drive the real
 * HTTP API on both stores, checking GET /control/status after every step. Then every (state × event)
 * pair, including the "not shown" ones, is checked against decideControl: the HTTP code, the state
 * and the epoch must all agree with the machine.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { decideControl } from '../../machines/control.machine.js';
import { SYSTEM_STATES } from '../../src/domain/control.js';
import type { ControlEvent, SystemState } from '../../src/domain/control.js';
import { openTestApi } from '../support/api.js';
import { CONTROL_EVENTS, CONTROL_PATHS } from '../support/control-model.js';
import type { TestApi } from '../support/api.js';
import { STORE_KINDS } from '../support/stores.js';

const URL_FOR: Record<ControlEvent['type'], string> = {
  'control.pause': '/control/pause',
  'control.resume': '/control/resume',
  'control.kill': '/control/kill-switch',
};
/** Shortest event sequence from the initial state to each state. */
const ROUTE_TO: Record<SystemState, ControlEvent['type'][]> = {
  running: [],
  paused: ['control.pause'],
  killed: ['control.kill'],
};

describe.each(STORE_KINDS)('control statechart ⇄ HTTP API on %s', (kind) => {
  let api: TestApi | undefined;
  /**
   * A (state × event) pair the machine leaves in its state (unchanged or refused) is checked on an
   * API already in that state, one per state shared by those pairs (killed's three among them): the
   * test compares the record before and after its own call, so a shared one proves as much. Pairs
   * that change the state, and the paths, get an API of their own. Each instance compiles every
   * route's schemas (about 0.15 s of CPU); this spares 2 of 16 per store.
   */
  const steady = new Map<SystemState, TestApi>();
  afterEach(async () => {
    if (api && ![...steady.values()].includes(api)) await api.close();
    api = undefined;
  });
  afterAll(async () => {
    for (const shared of steady.values()) await shared.close();
    steady.clear();
  });

  async function send(type: ControlEvent['type']) {
    return api!.app.inject({
      method: 'POST',
      url: URL_FOR[type],
      headers: api!.auth,
      payload: { reason: `http ${type}` },
    });
  }
  async function expectState(state: SystemState) {
    const res = await api!.app.inject({ method: 'GET', url: '/control/status', headers: api!.auth });
    expect(res.json().state).toBe(state);
  }

  it('generates paths reaching every state', () => {
    const ends = new Set(CONTROL_PATHS.map((p) => p.state.value));
    expect([...ends].sort()).toEqual([...SYSTEM_STATES].sort());
  });

  for (const path of CONTROL_PATHS) {
    it(`path: ${path.description}`, async () => {
      api = await openTestApi(kind);
      await path.test({
        states: {
          running: () => expectState('running'),
          paused: () => expectState('paused'),
          killed: () => expectState('killed'),
        },
        events: {
          'control.pause': async () => void expect((await send('control.pause')).statusCode).toBe(200),
          'control.resume': async () => void expect((await send('control.resume')).statusCode).toBe(200),
          'control.kill': async () => void expect((await send('control.kill')).statusCode).toBe(200),
        },
      });
    });
  }

  /** An API in `state`: the shared one when the test keeps the state (opened by the first to ask). */
  async function apiIn(state: SystemState, keepsState: boolean): Promise<TestApi> {
    const shared = keepsState ? steady.get(state) : undefined;
    if (shared) return (api = shared);
    api = await openTestApi(kind);
    for (const step of ROUTE_TO[state]) expect((await send(step)).statusCode).toBe(200);
    if (keepsState) steady.set(state, api);
    return api;
  }

  for (const state of SYSTEM_STATES) {
    for (const event of CONTROL_EVENTS) {
      const decision = decideControl(state, event);
      const code = decision.outcome === 'refused' ? 409 : 200;
      it(`${state} + ${event.type} → ${code}, ${decision.to} (${decision.outcome})`, async () => {
        api = await apiIn(state, decision.to === state);
        const before = await api.store.control.read();
        expect(before.state).toBe(state);
        const res = await send(event.type);
        expect(res.statusCode).toBe(code);
        const after = await api.store.control.read();
        expect(after.state).toBe(decision.to);
        expect(after.epoch).toBe(before.epoch + (decision.outcome === 'changed' ? 1 : 0));
        await expectState(decision.to);
      });
    }
  }
});
