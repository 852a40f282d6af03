/**
 * Refused requests do not fill the log (issue 18, finding 6): a flood of 401s (and of 404s on
 * unknown routes) is written as one aggregated line per window with the counts by reason and the
 * busiest remote addresses, never one line per request and never any part of the presented token,
 * while accepted requests keep Fastify's two request lines. The window's timer is injected, so
 * nothing here sleeps; the real one is unref'd.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/create-api.js';
import { unrefTimers } from '../../src/api/refusal-tally.js';
import type { Timers } from '../../src/application/coalescer.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { generateKey } from '../../src/domain/keys.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

/** setTimeout/clearTimeout that run only when the test says so. */
class ManualTimers implements Timers {
  private next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const handle = this.next++;
    this.pending.set(handle, { fn, ms });
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fire(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const { fn } of due) fn();
  }
}

describe('the log of refused requests', () => {
  let t: TestStore | undefined;
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    await t?.cleanup();
    app = undefined;
    t = undefined;
  });

  const key = generateKey();
  const raw: string[] = [];
  const lines: LogLine[] = [];
  const timers = new ManualTimers();

  async function start(): Promise<FastifyInstance> {
    raw.length = 0;
    lines.length = 0;
    timers.pending.clear();
    t = await openTestStore('sqlite');
    const logger = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          raw.push(line);
          lines.push(JSON.parse(line) as LogLine);
        },
      },
    );
    app = await createApi(
      {
        store: t.store,
        apiKeys: [key],
        instruments: parseInstruments('BTCUSDT,ETHUSDT'),
        defaultMode: 'paper',
        controlRateLimit: 100,
      },
      logger,
      { timers, windowMs: 10_000 },
    );
    await app.ready();
    return app;
  }

  it('2,000 requests with a wrong key: a bounded log, one line with the exact count, no token', async () => {
    const api = await start();
    const wrong = generateKey();
    for (let i = 0; i < 2_000; i++) {
      const res = await api.inject({
        method: 'GET',
        url: '/control/status',
        headers: { authorization: `Bearer ${wrong}` },
      });
      expect(res.statusCode).toBe(401);
    }
    expect(lines.length).toBeLessThanOrEqual(3);
    // One window timer for the whole burst, of the configured length.
    expect([...timers.pending.values()].map((p) => p.ms)).toEqual([10_000]);
    timers.fire();
    const refused = lines.filter((l) => l.msg.startsWith('refused'));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      level: 40,
      refused: { invalid: 2_000 },
      total: 2_000,
      window_s: 10,
      top_addresses: [{ address: '127.0.0.1', requests: 2_000 }],
    });
    expect(lines.length).toBeLessThanOrEqual(4);
    const all = raw.join('');
    expect(all).not.toContain(wrong);
    expect(all).not.toContain(wrong.slice(0, 8));
    expect(all).not.toContain(wrong.slice(-8));
    expect(all).not.toContain(key);
  });

  it('counts every reason apart, over a real socket (two Authorization headers need one)', async () => {
    const api = await start();
    await api.listen({ host: '127.0.0.1', port: 0 });
    const port = (api.server.address() as AddressInfo).port;
    const send = (authorization: string[] | null) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/control/status', agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        if (authorization) req.setHeader('authorization', authorization);
        req.on('error', reject);
        req.end();
      });
    const wrong = generateKey();
    const plan: Array<[string[] | null, number]> = [
      [null, 4], // missing
      [[''], 1], // missing (empty)
      [[`Basic ${Buffer.from('a:b').toString('base64')}`], 2], // malformed
      [[wrong], 2], // malformed: no scheme
      [[`Bearer ${wrong}`], 3], // invalid
      [[`Bearer ${key}`, `Bearer ${wrong}`], 2], // duplicate header
    ];
    for (const [authorization, times] of plan)
      for (let i = 0; i < times; i++) expect(await send(authorization)).toBe(401);
    expect(await send([`Bearer ${key}`])).toBe(200);
    timers.fire();
    const refused = lines.filter((l) => l.msg.startsWith('refused'));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      refused: { missing: 5, malformed: 4, invalid: 3, duplicate_header: 2 },
      total: 14,
    });
    expect(raw.join('')).not.toContain(wrong.slice(0, 8));
  });

  it('accepted requests keep their two lines; refused ones have none of their own', async () => {
    const api = await start();
    await api.inject({ method: 'GET', url: '/control/status', headers: { authorization: 'Bearer nope' } });
    const ok = await api.inject({ method: 'GET', url: '/control/status', headers: { authorization: `Bearer ${key}` } });
    expect(ok.statusCode).toBe(200);
    expect((await api.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect(lines.map((l) => l.msg)).toEqual([
      'incoming request',
      'request completed',
      'incoming request',
      'request completed',
    ]);
    // Each pair belongs to one request, in order.
    expect(lines[0]!.reqId).toBe(lines[1]!.reqId);
    expect(lines[2]!.reqId).toBe(lines[3]!.reqId);
    expect(lines[0]).toMatchObject({ req: { method: 'GET', url: '/control/status' } });
    expect(lines[1]).toMatchObject({ res: { statusCode: 200 } });
  });

  it('a flood of unknown routes is tallied the same way, without the paths', async () => {
    const api = await start();
    for (let i = 0; i < 500; i++) {
      const res = await api.inject({ method: 'GET', url: `/wp-admin/${i}?token=secret${i}` });
      expect(res.statusCode).toBe(404);
    }
    expect(lines).toEqual([]);
    timers.fire();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, refused: { not_found: 500 }, total: 500 });
    expect(raw.join('')).not.toContain('secret');
  });

  it('a window ends with its line; the next refusal opens a new one; nothing is armed while idle', async () => {
    const api = await start();
    expect(timers.pending.size).toBe(0);
    await api.inject({ method: 'GET', url: '/control/status' });
    timers.fire();
    expect(timers.pending.size).toBe(0);
    await api.inject({ method: 'GET', url: '/control/status' });
    await api.inject({ method: 'GET', url: '/control/status' });
    expect(timers.pending.size).toBe(1);
    timers.fire();
    expect(lines.map((l) => l.total)).toEqual([1, 2]);
  });

  it('closing the API writes the open window and disarms its timer', async () => {
    const api = await start();
    for (let i = 0; i < 3; i++) await api.inject({ method: 'POST', url: '/control/kill-switch' });
    expect(lines).toEqual([]);
    await api.close();
    app = undefined;
    expect(timers.pending.size).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ refused: { missing: 3 }, total: 3 });
  });

  it('names the busiest few addresses and tracks at most 1,000 of them per window', async () => {
    const api = await start();
    const from = (remoteAddress: string) => api.inject({ method: 'GET', url: '/control/status', remoteAddress });
    for (let i = 0; i < 5; i++) await from('192.0.2.7');
    for (let i = 0; i < 3; i++) await from('192.0.2.8');
    // 1,200 more addresses, 200 past the bound: each of them past it asserts what the first does
    // (counted, not kept), so not 3,000 as before (2,000 more requests through Fastify's inject).
    for (let i = 0; i < 1_200; i++) await from(`10.0.${Math.floor(i / 250)}.${i % 250}`);
    timers.fire();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      total: 1_208,
      top_addresses: [
        { address: '192.0.2.7', requests: 5 },
        { address: '192.0.2.8', requests: 3 },
        { address: '10.0.0.0', requests: 1 },
      ],
      // Counted all the same; only their addresses are not kept once 1,000 are.
      distinct_addresses: 1_000,
      untracked_requests: 202,
    });
  });

  it('the real window timer does not keep the process alive', () => {
    const handle = unrefTimers.setTimeout(() => {}, 60_000) as NodeJS.Timeout;
    try {
      expect(handle.hasRef()).toBe(false);
    } finally {
      unrefTimers.clearTimeout(handle);
    }
  });
});
