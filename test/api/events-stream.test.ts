/**
 * GET /control/events against the real API listening on loopback and a real store (SQLite and
 * Redis), read the way the console reads it: fetch with a stream reader and the bearer key.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MACHINES_KEY } from '../../src/domain/runtime-documents.js';
import type { KeyValueStore } from '../../src/ports/key-value-store.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { openSse } from '../support/sse-reader.js';
import type { SseMessage, SseStream } from '../support/sse-reader.js';
import { STORE_KINDS } from '../support/stores.js';

/** Counts the reads of `key` through `kv` from now on (the hub reads through the same object). */
function countReads(kv: KeyValueStore, key: string): { count: number } {
  const reads = { count: 0 };
  const get = kv.get.bind(kv);
  kv.get = ((k: string) => {
    if (k === key) reads.count += 1;
    return get(k);
  }) as KeyValueStore['get'];
  return reads;
}

const FAST = { tailMs: 20, heartbeatMs: 100, machinesMs: 50, healthMs: 500, keepAliveMs: 15_000 };

/** The bound on unsent bytes of the slow-client test. */
const SLOW_CLIENT_BOUND = 256 * 1024;

/**
 * Bytes a client that never reads can have taken off the server's hands before the bound is even
 * reached: the kernel's send buffer (autotuned up to tcp_wmem's maximum) and receive buffer (its
 * default: it grows only as the application reads). Read from this machine's settings, not guessed,
 * so the test sends twice that plus the bound (8.75 MiB with Linux's defaults, 2,240 events) instead
 * of a fixed 16 MB: sending, hashing and parsing every byte is what the test costs. Without
 * /proc, about 16 MB as before.
 */
function socketBuffersBytes(): number {
  try {
    const field = (file: string, i: number) =>
      Number(readFileSync(`/proc/sys/net/ipv4/${file}`, 'utf8').trim().split(/\s+/)[i]);
    const bytes = field('tcp_wmem', 2) + field('tcp_rmem', 1);
    return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : 8 * 1024 * 1024;
  } catch {
    return 8 * 1024 * 1024;
  }
}

describe.each(STORE_KINDS)('the live event stream (%s store)', (kind) => {
  let api: TestApi | null = null;
  const streams: SseStream[] = [];
  afterEach(async () => {
    for (const s of streams.splice(0)) await s.cancel();
    await api?.close();
    api = null;
  });

  async function start(limits?: { maxBufferedBytes?: number }): Promise<{ api: TestApi; base: string }> {
    api = await openTestApi(kind, { eventStream: { timings: FAST, ...(limits ? { limits } : {}) } });
    const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
    return { api, base };
  }
  async function connect(base: string, headers: Record<string, string>): Promise<SseStream> {
    const s = await openSse(`${base}/control/events`, headers);
    streams.push(s);
    return s;
  }
  const post = (base: string, t: TestApi, path: string, reason: string) =>
    fetch(`${base}/control/${path}`, {
      method: 'POST',
      headers: { ...t.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ reason }),
    });
  const isControl = (epoch: number) => (m: SseMessage) =>
    m.event === 'control' && (m.data as { epoch: number }).epoch === epoch;

  it('refuses a request without a key or with a wrong one (401, no stream)', async () => {
    const { base } = await start();
    const none = await fetch(`${base}/control/events`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { code: string }).code).toBe('TCS_UNAUTHORIZED');
    const wrong = await fetch(`${base}/control/events`, { headers: { authorization: 'Bearer not-the-key' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toContain('application/json');
  });

  it('starts with a snapshot and delivers a control change as a `control` event with an id', async () => {
    const { api: t, base } = await start();
    const s = await connect(base, t.auth);
    expect(s.status).toBe(200);
    expect(s.response.headers.get('content-type')).toContain('text/event-stream');
    const snapshot = await s.waitFor((m) => m.event === 'snapshot');
    expect(snapshot.data).toMatchObject({ control: { state: 'running', epoch: 0 } });
    expect((await post(base, t, 'pause', 'stream test')).status).toBe(200);
    const change = await s.waitFor(isControl(1));
    expect(change.data).toMatchObject({ state: 'paused', epoch: 1, reason: 'stream test', from: 'running' });
    expect(change.id).toBe(String((change.data as { seq: number }).seq));
  });

  it('replays what a reconnecting client missed (Last-Event-ID), in order and without duplicates, then goes live', async () => {
    const { api: t, base } = await start();
    const first = await connect(base, t.auth);
    await post(base, t, 'pause', 'one');
    const seen = await first.waitFor(isControl(1));
    await first.cancel();

    await post(base, t, 'resume', 'two');
    await t.store.events.append({
      kind: 'command_executed',
      at: new Date().toISOString(),
      symbol: 'BTCUSDT',
      body: { command_id: 'c-1', type: 'cancel_all', result: { status: 'ok' } },
    });
    await post(base, t, 'pause', 'three');

    const again = await connect(base, { ...t.auth, 'last-event-id': seen.id! });
    await again.waitFor(isControl(3));
    await post(base, t, 'resume', 'four');
    await again.waitFor(isControl(4));

    const audited = again.messages.filter(
      (m) => m.event !== 'snapshot' && m.event !== 'heartbeat' && m.event !== 'health',
    );
    const ids = audited.map((m) => Number(m.id));
    expect(ids[0]).toBeGreaterThan(Number(seen.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const controls = audited.filter((m) => m.event === 'control').map((m) => (m.data as { reason: string }).reason);
    expect(controls).toEqual(['two', 'three', 'four']);
    expect(audited.find((m) => m.event === 'command')?.data).toMatchObject({ command_id: 'c-1', status: 'ok' });
  });

  it('sends a `machines` event when the published machine states change, and the latest in the snapshot', async () => {
    const { api: t, base } = await start();
    const s = await connect(base, t.auth);
    const snapshot = await s.waitFor((m) => m.event === 'snapshot');
    expect(snapshot.data).toMatchObject({
      machines: { published_at: null, cycle: null, active: { trading: [], cycle: [], 'order-manager': [] } },
    });
    const active = {
      trading: ['trading', 'trading.control', 'trading.control.paused'],
      cycle: [],
      'order-manager': ['oms', 'oms.mode', 'oms.mode.halted', 'oms.work', 'oms.work.idle'],
    };
    const ts = Date.UTC(2026, 0, 5, 12, 0, 1);
    await t.store.kv.set(MACHINES_KEY, { ts, cycle: null, active });
    const event = await s.waitFor((m) => m.event === 'machines');
    expect(event.data).toEqual({ published_at: new Date(ts).toISOString(), cycle: null, active });
    // Sent once per change: the same document read again sends nothing (five more reads of it: what
    // the first ones would have sent has had the later ticks to arrive).
    const reads = countReads(t.store.kv, MACHINES_KEY);
    await vi.waitFor(() => expect(reads.count).toBeGreaterThanOrEqual(5));
    expect(s.messages.filter((m) => m.event === 'machines')).toHaveLength(1);
    const running = { ...active, trading: ['trading', 'trading.control', 'trading.control.running'] };
    await t.store.kv.set(MACHINES_KEY, { ts: ts + 100, cycle: 3, active: running });
    const next = await s.waitFor((m) => m.event === 'machines' && (m.data as { cycle: number | null }).cycle === 3);
    expect((next.data as { active: unknown }).active).toEqual(running);
    // A client connecting now gets the latest in its snapshot.
    const late = await connect(base, t.auth);
    const lateSnapshot = await late.waitFor((m) => m.event === 'snapshot');
    expect((lateSnapshot.data as { machines: { cycle: number } }).machines.cycle).toBe(3);
  });

  it('refuses a Last-Event-ID it never issued (422)', async () => {
    const { api: t, base } = await start();
    const res = await fetch(`${base}/control/events`, { headers: { ...t.auth, 'last-event-id': 'abc' } });
    expect(res.status).toBe(422);
  });

  it('drops a client that does not read, while a reading client gets everything and status answers', async () => {
    const { api: t, base } = await start({ maxBufferedBytes: SLOW_CLIENT_BOUND });
    const slow = await connect(base, t.auth); // never read until the end
    const fast = await connect(base, t.auth);
    await fast.waitFor((m) => m.event === 'snapshot');
    const filler = 'x'.repeat(4096);
    // Twice what loopback socket buffers plus the bound can hold (the slow client is dropped after
    // some 1,000 events with Linux's defaults): each event is more than its 4 KiB filler.
    const total = Math.ceil((2 * (socketBuffersBytes() + SLOW_CLIENT_BOUND)) / filler.length);
    let last = 0;
    for (let i = 0; i < total; i++) {
      const entry = await t.store.events.append({
        kind: 'command_executed',
        at: new Date().toISOString(),
        symbol: null,
        body: { command_id: `c-${i}`, type: 'cancel_all', result: { status: 'ok', filler } },
      });
      last = entry.seq;
      if (i % 50 === 0) await fast.waitFor((m) => m.id === String(entry.seq), 20_000);
    }
    await fast.waitFor((m) => m.id === String(last), 20_000);
    const status = await fetch(`${base}/control/status`, { headers: t.auth });
    expect(status.status).toBe(200);

    // The slow client's stream ends (dropped) having received fewer than all the events.
    expect(await slow.waitForEnd(20_000)).toBe(true);
    const slowCount = slow.messages.filter((m) => m.event === 'command').length;
    expect(slowCount).toBeLessThan(total);
    expect(fast.messages.filter((m) => m.event === 'command')).toHaveLength(total);
  }, 120_000);

  it('ends every stream when the server closes', async () => {
    const { api: t, base } = await start();
    const s = await connect(base, t.auth);
    await s.waitFor((m) => m.event === 'snapshot');
    await t.app.close();
    expect(await s.waitForEnd(5_000)).toBe(true);
  });
});
