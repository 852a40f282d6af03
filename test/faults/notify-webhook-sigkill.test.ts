/**
 * `tcs notify` as a real process (issue 35, "Done when"): a loopback receiver of the test's own
 * answers 500 while "down"; the notifier is SIGKILLed while it retries, more events are written
 * while it is dead, the receiver comes up, and a new notifier delivers every chosen event exactly once
 * per delivery id, each signature valid. It also refuses to start without targets or a long
 * enough secret (exit 2), and names no URL in its output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { verifySignature } from '../../src/domain/notifications/webhook.js';
import type { Store } from '../../src/ports/store.js';
import { exitWithin, startTcs } from '../support/processes.js';
import { initialised } from '../support/stores.js';

const SECRET = 'n'.repeat(40);
const dir = mkdtempSync(join(tmpdir(), 'tcs-notify-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A kill and its reset: two chosen events (kill, kill_reset) and one that is not (command_executed). */
async function killAndReset(store: Store, i: number): Promise<void> {
  const at = new Date().toISOString();
  await store.events.append({
    kind: 'control',
    at,
    body: { event: 'control.kill', outcome: 'changed', reason: `drill ${i}`, actor: 'api' },
  });
  await store.events.append({ kind: 'command_executed', at, body: {} });
  await store.events.append({ kind: 'kill_reset', at, body: { reason: `drill ${i} over`, actor: 'api' } });
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('tcs notify', () => {
  it('delivers every event once per delivery id, signed, across a SIGKILL while the receiver was down', async () => {
    let up = false;
    let refused = 0;
    const got: { delivery: string; valid: boolean; kind: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (!up) {
          refused += 1;
          return void res.writeHead(500).end();
        }
        got.push({
          delivery: String(req.headers['x-tcs-delivery']),
          valid: verifySignature(SECRET, body, String(req.headers['x-tcs-signature']), Date.now() / 1000),
          kind: (JSON.parse(body) as { kind: string }).kind,
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?token=hidden`;
    const path = join(dir, 'store.db');
    const store = await initialised(await openSqliteStore({ path }));
    const env = { STORE_URL: `sqlite:${path}`, NOTIFY_WEBHOOK_URLS: url, NOTIFY_WEBHOOK_SECRET: SECRET };
    try {
      for (let i = 0; i < 5; i++) await killAndReset(store, i);
      const first = startTcs(['notify'], env, dir);
      await until(() => refused >= 11, 20_000, 'the first notifier tries every delivery');
      await first.stop('SIGKILL');
      for (let i = 5; i < 8; i++) await killAndReset(store, i);
      up = true;
      const second = startTcs(['notify'], env, dir);
      // 8 drills × 2 chosen events, and yesterday's daily summary (NOTIFY_DAILY_AT defaults to 00:00,
      // queued by the first notifier, not again by the second); the first 11 back off a few seconds.
      await until(() => new Set(got.map((g) => g.delivery)).size >= 17, 30_000, 'every delivery arrives');
      await second.stop('SIGTERM');
      expect((await second.exited).code).toBe(0);
      const ids = got.map((g) => g.delivery);
      expect(new Set(ids).size).toBe(ids.length); // none twice
      expect(ids).toHaveLength(17);
      expect(got.filter((g) => g.kind === 'daily_summary')).toHaveLength(1);
      expect(got.every((g) => g.valid)).toBe(true);
      expect(got.filter((g) => g.kind === 'kill')).toHaveLength(8);
      expect(got.filter((g) => g.kind === 'kill_reset')).toHaveLength(8);
      for (const out of [first.stdout() + first.stderr(), second.stdout() + second.stderr()]) {
        expect(out).toContain('notifier_started');
        expect(out).not.toContain('hidden');
        expect(out).not.toContain('127.0.0.1');
      }
    } finally {
      await store.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 90_000);

  it('refuses to start without a target or with a short secret, naming the variable (exit 2)', async () => {
    const path = join(dir, 'store.db');
    const none = startTcs(['notify'], { STORE_URL: `sqlite:${path}`, NOTIFY_WEBHOOK_SECRET: SECRET }, dir);
    expect((await exitWithin(none, 20_000)).code).toBe(2);
    expect(none.stderr()).toContain('NOTIFY_WEBHOOK_URLS is empty');
    const short = startTcs(
      ['notify'],
      { STORE_URL: `sqlite:${path}`, NOTIFY_WEBHOOK_URLS: 'https://example.invalid/x', NOTIFY_WEBHOOK_SECRET: 'short' },
      dir,
    );
    expect((await exitWithin(short, 20_000)).code).toBe(2);
    expect(short.stderr()).toContain('NOTIFY_WEBHOOK_SECRET must be at least 32 characters');
  }, 60_000);
});
