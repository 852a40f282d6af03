/**
 * The console's ControlStatus, Heartbeat and Health are the API's schemas' Static types
 * (console/lib/types.ts), so the type checker holds the page to what the routes send; here the
 * real stream and /health are checked against those same schemas at run time, and the bundle is
 * checked to carry none of them (the imports are type-only).
 */
import { readFileSync } from 'node:fs';
import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { ControlStatus, Health, Heartbeat } from '../../console/lib/types.js';
import { HeartbeatEventSchema } from '../../src/api/events/schemas.js';
import { HealthSchema } from '../../src/api/health.js';
import { StatusSchema } from '../../src/api/schemas.js';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { openSse } from '../support/sse-reader.js';
import type { SseStream } from '../support/sse-reader.js';

const FAST = { tailMs: 20, heartbeatMs: 50, machinesMs: 50, healthMs: 100, keepAliveMs: 15_000 };

describe("the console's types", () => {
  let api: TestApi | null = null;
  let stream: SseStream | null = null;
  afterEach(async () => {
    await stream?.cancel();
    await api?.close();
    api = stream = null;
  });

  it('are the Static types of the schemas the API sends by', () => {
    expectTypeOf<ControlStatus>().toEqualTypeOf<Static<typeof StatusSchema>>();
    expectTypeOf<Heartbeat>().toEqualTypeOf<Static<typeof HeartbeatEventSchema>>();
    expectTypeOf<Health>().toEqualTypeOf<Static<typeof HealthSchema>>();
  });

  it('what the stream and /health send fits those schemas, a refused heartbeat included', async () => {
    api = await openTestApi('sqlite', { eventStream: { timings: FAST } });
    const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
    stream = await openSse(`${base}/control/events`, api.auth);
    const snapshot = (await stream.waitFor((m) => m.event === 'snapshot')).data as { control: unknown };
    expect(Compile(StatusSchema).Errors(snapshot.control)).toEqual([]);
    // A beat that moves after the snapshot is sent as a `heartbeat` event.
    await writeDocument(api.store.kv, HEARTBEAT_KEY, { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], ts: Date.now() + 1 });
    const beat = await stream.waitFor((m) => m.event === 'heartbeat');
    expect(Compile(HeartbeatEventSchema).Errors(beat.data)).toEqual([]);
    expect(beat.data).toMatchObject({ cycle: 17, state: 'running', mode: 'paper', halt: null, stopped: false });

    const health = Compile(HealthSchema);
    const ok = await api.app.inject({ method: 'GET', url: '/health' });
    expect(health.Errors(ok.json())).toEqual([]);
    await api.store.kv.set(HEARTBEAT_KEY, { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], v: 2 });
    const refused = (await api.app.inject({ method: 'GET', url: '/health' })).json();
    expect(health.Errors(refused)).toEqual([]);
    expect(refused.components.trading_process.reason).toMatch(/trading:heartbeat: version 2/);
  });

  it('reach the bundle as types only: none of the schemas is in it', () => {
    const bundle = readFileSync(new URL('../../dist/console/app.js', import.meta.url), 'utf8');
    for (const text of ['Why the status is unknown when a heartbeat', 'Increases by one on every state change']) {
      expect(bundle).not.toContain(text);
    }
    expect(bundle).not.toMatch(/typebox/i);
  });
});
