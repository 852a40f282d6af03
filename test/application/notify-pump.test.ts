/**
 * The notifier's steps on a real SQLite store and a loopback receiver of the test's own that answers
 * 500 first, then 200: every chosen event arrives once per delivery id with a valid signature.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createKvOutbox } from '../../src/adapters/notify/kv-outbox.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { deliverDue, notifierStatus, queueNew, serialised } from '../../src/application/notify-pump.js';
import { telegramTarget } from '../../src/domain/notifications/telegram.js';
import { parseWebhookTargets, verifySignature } from '../../src/domain/notifications/webhook.js';
import { initialised } from '../support/stores.js';

const dir = mkdtempSync(join(tmpdir(), 'tcs-notify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a receiver down (500) then up gets each delivery once, signed', async () => {
  let up = false;
  const got: { id: string; ok: boolean; kind: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (!up) return void res.writeHead(500).end();
      const sig = String(req.headers['x-tcs-signature']);
      got.push({
        id: String(req.headers['x-tcs-delivery']),
        ok: verifySignature('k', body, sig, Date.now() / 1000),
        kind: (JSON.parse(body) as { kind: string }).kind,
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const store = await initialised(await openSqliteStore({ path: join(dir, 's.db') }));
  try {
    const at = new Date().toISOString();
    await store.events.append({
      kind: 'control',
      at,
      body: { event: 'control.kill', outcome: 'changed', reason: 'r', actor: 'api' },
    });
    await store.events.append({ kind: 'command_executed', at, body: {} });
    await store.events.append({ kind: 'kill_reset', at, body: { reason: 'ok', actor: 'api' } });
    const targets = parseWebhookTargets(`http://127.0.0.1:${port}/hook`);
    const outbox = createKvOutbox(store.kv);
    expect(await queueNew(store.events, outbox, targets)).toBe(2);
    expect(await queueNew(store.events, outbox, targets)).toBe(0);
    let now = Date.now();
    const opts = { secret: 'k', nowMs: () => now, timeoutMs: 1000 };
    expect(await deliverDue(outbox, targets, opts)).toEqual([0, 2]);
    // What /health and /metrics show meanwhile: two waiting since the kill, the target's last error.
    expect(await notifierStatus(outbox, targets, now, 500)).toEqual({
      ts: now,
      intervalMs: 500,
      backlog: 2,
      oldestPendingAt: Date.parse(at),
      targets: [{ id: targets[0]!.id, pending: 2, lastError: 'HTTP 500' }],
    });
    up = true;
    expect(await deliverDue(outbox, targets, opts)).toEqual([0, 0]); // backing off
    now += 1000;
    expect(await deliverDue(outbox, targets, opts)).toEqual([2, 0]);
    now += 60_000;
    expect(await deliverDue(outbox, targets, opts)).toEqual([0, 0]);
    expect(got.map((g) => g.kind)).toEqual(['kill', 'kill_reset']);
    expect(got.every((g) => g.ok)).toBe(true);
    expect(new Set(got.map((g) => g.id)).size).toBe(2);
    expect(await outbox.backlog()).toBe(0);
    expect(await notifierStatus(outbox, targets, now, 500)).toMatchObject({
      backlog: 0,
      oldestPendingAt: null,
      targets: [{ id: targets[0]!.id, pending: 0, lastError: null }],
    });
  } finally {
    await store.close();
    server.close();
  }
});

it('a receiver that redirects is not followed: the signed body never reaches the other address', async () => {
  let elsewhere = 0;
  const other = createServer((_req, res) => {
    elsewhere++;
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/steal`;
  const server = createServer((_req, res) => void res.writeHead(307, { location: otherUrl }).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const store = await initialised(await openSqliteStore({ path: join(dir, 'redirect.db') }));
  try {
    await store.events.append({
      kind: 'control',
      at: new Date().toISOString(),
      body: { event: 'control.kill', outcome: 'changed', reason: 'r', actor: 'api' },
    });
    const targets = parseWebhookTargets(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    const outbox = createKvOutbox(store.kv);
    await queueNew(store.events, outbox, targets);
    expect(await deliverDue(outbox, targets, { secret: 'k', nowMs: () => Date.now(), timeoutMs: 1000 })).toEqual([
      0, 1,
    ]);
    expect(elsewhere).toBe(0);
    expect((await outbox.recent(1))[0]).toMatchObject({ state: 'pending', last_error: 'HTTP 307' });
  } finally {
    await store.close();
    server.close();
    other.close();
  }
});

it('a receiver that never answers costs one bounded timeout per delivery, recorded as such', async () => {
  const held: ServerResponse[] = [];
  const server = createServer((_req, res) => void held.push(res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const store = await initialised(await openSqliteStore({ path: join(dir, 'silent.db') }));
  try {
    await store.events.append({
      kind: 'kill_reset',
      at: new Date().toISOString(),
      body: { reason: 'ok', actor: 'api' },
    });
    const targets = parseWebhookTargets(`http://127.0.0.1:${port}/hook`);
    const outbox = createKvOutbox(store.kv);
    await queueNew(store.events, outbox, targets);
    const started = performance.now();
    expect(await deliverDue(outbox, targets, { secret: 'k', nowMs: () => 0, timeoutMs: 150 })).toEqual([0, 1]);
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await outbox.recent(1))[0]).toMatchObject({ state: 'pending', last_error: 'timeout', attempts: 1 });
  } finally {
    for (const res of held) res.destroy();
    await store.close();
    server.close();
  }
});

it('a Telegram chat is another target of the same outbox: its message text queued, sent, retried on failure', async () => {
  const store = await initialised(await openSqliteStore({ path: join(dir, 'telegram.db') }));
  try {
    await store.events.append({
      kind: 'control',
      at: '2026-11-28T03:12:44.120Z',
      body: { event: 'control.kill', outcome: 'changed', reason: 'exchange down', actor: 'telegram:111' },
    });
    await store.events.append({
      kind: 'kill_reset',
      at: '2026-11-28T03:20:00.000Z',
      body: { reason: 'ok', actor: 'api' },
    });
    const targets = [telegramTarget('111', ['kill'])];
    const outbox = createKvOutbox(store.kv);
    expect(await queueNew(store.events, outbox, targets)).toBe(1); // kinds=kill only
    const sent: { chat: string; text: string }[] = [];
    let answer: string | null = 'Telegram 502';
    let now = 0;
    const opts = {
      secret: '',
      nowMs: () => now,
      timeoutMs: 1000,
      sendTelegram: async (chat: string, text: string) => (sent.push({ chat, text }), answer),
    };
    expect(await deliverDue(outbox, targets, opts)).toEqual([0, 1]);
    expect((await outbox.recent(1))[0]).toMatchObject({ state: 'pending', last_error: 'Telegram 502' });
    answer = null;
    now += 1000;
    expect(await deliverDue(outbox, targets, opts)).toEqual([1, 0]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({
      chat: '111',
      text: 'Trading killed\ncontrol.kill by telegram:111: exchange down\naudit #1 at 2026-11-28T03:12:44.120Z',
    });
    expect(await outbox.backlog()).toBe(0);
  } finally {
    await store.close();
  }
});

it('without a Telegram sender a Telegram delivery stays pending, untried', async () => {
  const store = await initialised(await openSqliteStore({ path: join(dir, 'telegram-off.db') }));
  try {
    await store.events.append({
      kind: 'kill_reset',
      at: new Date().toISOString(),
      body: { reason: 'ok', actor: 'api' },
    });
    const targets = [telegramTarget('111', null)];
    const outbox = createKvOutbox(store.kv);
    await queueNew(store.events, outbox, targets);
    expect(await deliverDue(outbox, targets, { secret: '', nowMs: () => 0, timeoutMs: 1000 })).toEqual([0, 0]);
    expect((await outbox.recent(1))[0]).toMatchObject({ state: 'pending', attempts: 0 });
  } finally {
    await store.close();
  }
});

it("a receiver that never answers holds up only its own deliveries, not another target's", async () => {
  const held: ServerResponse[] = [];
  let silentGaveUp = false; // the notifier's timeout closed the silent post
  const silent = createServer((_req, res) => {
    held.push(res);
    res.on('close', () => (silentGaveUp = true));
  });
  let deliveredWhileHeld: boolean | null = null;
  const good = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // The silent receiver still holds its post open when this one arrives.
      deliveredWhileHeld = held.length === 1 && !silentGaveUp;
      res.writeHead(204).end();
    });
  });
  for (const s of [silent, good]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = (s: typeof good) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`;
  const store = await initialised(await openSqliteStore({ path: join(dir, 'lanes.db') }));
  try {
    await store.events.append({
      kind: 'control',
      at: new Date().toISOString(),
      body: { event: 'control.kill', outcome: 'changed', reason: 'r', actor: 'api' },
    });
    // The silent target first: posted one after the other, the good one would wait out its timeout.
    const targets = parseWebhookTargets(`${url(silent)} ${url(good)}`);
    const outbox = serialised(createKvOutbox(store.kv));
    await queueNew(store.events, outbox, targets);
    const result = await deliverDue(outbox, targets, { secret: 'k', nowMs: () => Date.now(), timeoutMs: 1_500 });
    expect(result).toEqual([1, 1]);
    expect(deliveredWhileHeld).toBe(true);
    const byTarget = Object.fromEntries((await outbox.recent(10)).map((d) => [d.target, [d.state, d.last_error]]));
    expect(byTarget).toEqual({ [targets[0]!.id]: ['pending', 'timeout'], [targets[1]!.id]: ['delivered', null] });
  } finally {
    await store.close();
    for (const res of held) res.destroy();
    silent.close();
    good.close();
  }
});
