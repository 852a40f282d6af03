/**
 * Contract for the documents the processes share through a store (src/domain/documents/registry.ts),
 * run on every store adapter: what each writer writes comes back equal through another connection;
 * a document written straight into the store that is malformed or of an unknown version is a fault,
 * never data — /health says why instead of judging garbage, and the safety monitor does not count a
 * broken API heartbeat as an API that could stop trading.
 */
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createSafetyMonitor } from '../../src/application/safety-monitor.js';
import { healthChecker } from '../../src/api/health.js';
import { DocumentError } from '../../src/domain/documents/document-error.js';
import { DOCUMENTS } from '../../src/domain/documents/registry.js';
import type { DocumentKey } from '../../src/domain/documents/registry.js';
import { API_HEARTBEAT_KEY, HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import { readDocument, writeDocument } from '../../src/ports/documents.js';
import type { Store } from '../../src/ports/store.js';
import { SAMPLE_DOCUMENTS, T0 } from '../support/documents.js';
import { storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

const KEYS = Object.keys(DOCUMENTS) as DocumentKey[];

/** Each sample broken in one field, as a hand edit, a torn write or another program would. */
const BROKEN: Record<string, unknown>[] = [
  { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], ts: 'yesterday' },
  { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], state: 'trading' },
  { ts: T0 },
];

export function sharedDocumentsContract(name: string, open: StoreFactory, openSecond: StoreFactory): void {
  describe(`shared documents contract: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    it('every registered document round-trips what its writer writes, with its version', async () => {
      expect(KEYS.sort()).toEqual(Object.keys(SAMPLE_DOCUMENTS).sort());
      const [writer, reader] = await stores.two();
      for (const key of KEYS) {
        await writeDocument(writer.kv, key, SAMPLE_DOCUMENTS[key]);
        expect(await readDocument(reader.kv, key), key).toEqual(SAMPLE_DOCUMENTS[key]);
        expect(await reader.kv.get(key), key).toMatchObject({ v: DOCUMENTS[key].version });
      }
    });

    it('an absent document reads as null; one written by the release before versions reads as version 1', async () => {
      const store = await stores.one();
      for (const key of KEYS) {
        expect(await readDocument(store.kv, key)).toBeNull();
        await store.kv.set(key, SAMPLE_DOCUMENTS[key]);
        expect(await readDocument(store.kv, key), key).toEqual(SAMPLE_DOCUMENTS[key]);
      }
    });

    it('a malformed or unknown-version document is a DocumentError naming the key and the fault', async () => {
      const store = await stores.one();
      for (const key of KEYS) {
        for (const [raw, kind] of [
          [{}, 'malformed'],
          ['not an object', 'malformed'],
          [[SAMPLE_DOCUMENTS[key]], 'malformed'],
          [{ ...SAMPLE_DOCUMENTS[key], v: 2 }, 'unknown_version'],
          [{ ...SAMPLE_DOCUMENTS[key], v: '1' }, 'unknown_version'],
        ] as const) {
          await store.kv.set(key, raw);
          const err = await readDocument(store.kv, key).catch((e: unknown) => e);
          expect(err, `${key} ${JSON.stringify(raw)}`).toBeInstanceOf(DocumentError);
          expect(err).toMatchObject({ key, kind });
          expect((err as Error).message).toContain(key);
        }
      }
      for (const raw of BROKEN) {
        await store.kv.set(HEARTBEAT_KEY, raw);
        await expect(readDocument(store.kv, HEARTBEAT_KEY)).rejects.toMatchObject({ kind: 'malformed' });
      }
    });

    it('a writer cannot store a shape its reader refuses: nothing is written', async () => {
      const store = await stores.one();
      const bad = { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], lastCycle: -1 };
      await expect(writeDocument(store.kv, HEARTBEAT_KEY, bad)).rejects.toBeInstanceOf(DocumentError);
      expect(await store.kv.get(HEARTBEAT_KEY)).toBeNull();
    });

    it('/health reports a malformed or unknown-version trading heartbeat as unknown, with the reason', async () => {
      const store = await stores.one();
      const health = healthChecker(store, { now: () => T0 + 1_000 });
      await writeDocument(store.kv, HEARTBEAT_KEY, SAMPLE_DOCUMENTS[HEARTBEAT_KEY]);
      expect((await health.check()).body.components.trading_process).toMatchObject({ status: 'ok', last_cycle: 17 });
      for (const raw of [...BROKEN, { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], v: 99 }]) {
        await store.kv.set(HEARTBEAT_KEY, raw);
        const { statusCode, body } = await health.check();
        expect(statusCode).toBe(200);
        expect(body.status).toBe('degraded');
        expect(body.components.store.status).toBe('ok');
        expect(body.components.trading_process).toMatchObject({
          status: 'unknown',
          heartbeat_age_ms: null,
          last_cycle: null,
          mode: null,
        });
        expect(body.components.trading_process.reason).toMatch(/trading:heartbeat/);
      }
    });

    it('the safety monitor does not count a malformed or unknown-version API heartbeat as an API seen', async () => {
      for (const raw of [
        { ts: T0 },
        { pid: 1, host: 'h', ts: T0, seq: 'one' },
        { ...SAMPLE_DOCUMENTS[API_HEARTBEAT_KEY], v: 99 },
      ]) {
        const store = await stores.one();
        const { monitor, halts, warnings } = safetyMonitorOn(store);
        await store.kv.set(API_HEARTBEAT_KEY, raw);
        await monitor.tick();
        expect(halts, JSON.stringify(raw)).toEqual(['control_plane_lost']);
        await monitor.tick();
        expect(warnings.filter((w) => /api:heartbeat/.test(w))).toHaveLength(1); // once per outage, not per tick
      }
      // The same store with a good beat is a control plane.
      const store = await stores.one();
      const { monitor, halts } = safetyMonitorOn(store);
      await writeDocument(store.kv, API_HEARTBEAT_KEY, SAMPLE_DOCUMENTS[API_HEARTBEAT_KEY]);
      await monitor.tick();
      expect(halts).toEqual([]);
    });
  });
}

function safetyMonitorOn(store: Store) {
  const clock = new SimulatedClock();
  clock.set(T0 + 100);
  const halts: string[] = [];
  const warnings: string[] = [];
  const monitor = createSafetyMonitor({
    clock,
    control: store.control,
    kv: store.kv,
    controlPlaneTimeoutMs: 10_000,
    storeLossHaltMs: 3_000,
    report: (o) => void (o.type === 'safety.halt' && halts.push(o.reason)),
    log: (level, message, details) => {
      if (level !== 'info') warnings.push(`${message} ${JSON.stringify(details)}`);
    },
  });
  return { monitor, halts, warnings };
}
