/**
 * The event hub's shared watchers during a store outage: each says once that its read failed and once
 * that it works again, instead of a warning per tick (the machines watcher ticks every 250 ms, the
 * audit tail every 250 ms: 8 lines a second for as long as the store is away).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { EventHub } from '../../src/api/events/event-hub.js';
import { HEARTBEAT_KEY, MACHINES_KEY } from '../../src/domain/runtime-documents.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Store } from '../../src/ports/store.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

/** Records what the hub logs, by level. */
function recordingLog(lines: Array<[string, string]>): FastifyBaseLogger {
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push([level, String(args.find((a) => typeof a === 'string') ?? '')]);
  const log = { warn: at('warn'), info: at('info'), error: at('error'), debug: at('debug'), trace: at('trace') };
  return {
    ...log,
    fatal: at('fatal'),
    level: 'info',
    silent: () => {},
    child: () => log,
  } as unknown as FastifyBaseLogger;
}

describe('event hub during a store outage', () => {
  let t: TestStore | undefined;
  let hub: EventHub | undefined;
  afterEach(async () => {
    await hub?.close();
    await t?.cleanup();
  });

  it('logs each failing watcher once per outage, and once when it works again', async () => {
    t = await openTestStore('sqlite');
    let down = false;
    // Failed reads per watcher: the machine states and heartbeat (by key) and the audit tail.
    const failed = new Map<string, number>();
    const fail = <T>(what: string, real: () => Promise<T>) => {
      if (!down) return real();
      failed.set(what, (failed.get(what) ?? 0) + 1);
      return Promise.reject(new Error('connect ECONNREFUSED'));
    };
    const store: Store = {
      ...t.store,
      kv: { ...t.store.kv, get: (key: string) => fail(key, () => t!.store.kv.get(key)) } as Store['kv'],
      events: { ...t.store.events, query: (q) => fail('events', () => t!.store.events.query(q)) } as Store['events'],
    };
    const lines: Array<[string, string]> = [];
    hub = new EventHub(store, systemClock, recordingLog(lines), {
      tailMs: 20,
      heartbeatMs: 20,
      machinesMs: 20,
      healthMs: 1_000,
      keepAliveMs: 10_000,
    });
    await hub.start();
    down = true;
    // Ten failed ticks of each watcher, counted rather than waited for.
    const watchers = [MACHINES_KEY, HEARTBEAT_KEY, 'events'];
    await vi.waitFor(() => expect(Math.min(...watchers.map((w) => failed.get(w) ?? 0))).toBeGreaterThanOrEqual(10), {
      timeout: 5_000,
    });
    const warnings = lines.filter(([level]) => level === 'warn').map(([, m]) => m);
    expect(warnings.filter((m) => /machine states/.test(m))).toHaveLength(1);
    expect(warnings.filter((m) => /heartbeat/.test(m))).toHaveLength(1);
    expect(warnings.filter((m) => /audit trail/.test(m))).toHaveLength(1);
    down = false;
    await vi.waitFor(
      () =>
        expect(lines.filter(([level, m]) => level === 'info' && /works again/.test(m)).length).toBeGreaterThanOrEqual(
          3,
        ),
      { timeout: 5_000 },
    );
  });
});
