/**
 * `tcs trade --inspect`, proven against the real thing: @statelyai/inspect's own inspector server
 * (`createInspectorServer`, no browser opened) relays what the trading process sends to a WebSocket
 * receiver of ours, which must see the registration, snapshots and events of the root, every strategy
 * agent, the arbiter, allocator, risk engine and order manager, and never a secret. With no inspector
 * listening, the process says so once and trades as it would without the flag.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInspectorServer } from '@statelyai/inspect/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { generateKey } from '../../src/domain/keys.js';
import { BUILTIN_STRATEGY_NAMES } from '../../src/strategies/registry.js';
import { closedPort } from '../support/ports.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { ALWAYS_LONG, PERMISSIVE_ENV } from '../support/trading.js';

interface Frame {
  type: string;
  name?: string;
  sessionId: string;
  parentId?: string;
}

/** Every built-in strategy plus one that always proposes an order, so risk and the OMS have work. */
const AGENTS = [...BUILTIN_STRATEGY_NAMES, 'btc_always_long'].map((name) => `agent:${name}`);
const CHILDREN = [...AGENTS, 'arbiter', 'allocator', 'risk', 'oms'];

describe('tcs trade --inspect', () => {
  let dir = '';
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function trade(env: Record<string, string>): RunningProcess {
    dir = mkdtempSync(join(tmpdir(), 'tcs-inspect-'));
    const proc = startTcs(
      ['trade', '--inspect'],
      {
        ...PERMISSIVE_ENV,
        STRATEGIES: `${BUILTIN_STRATEGY_NAMES.join(',')},${ALWAYS_LONG}`,
        STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
        CYCLE_SECONDS: '0.2',
        CONTROL_PLANE_TIMEOUT: '0', // no API beside it
        LOG_LEVEL: 'info',
        ...env,
      },
      dir,
    );
    cleanups.push(() => proc.stop());
    return proc;
  }

  it('delivers the actor system to a Stately inspector server: every actor, its snapshots and events, no secret', async () => {
    const port = await closedPort();
    const server = createInspectorServer({ port, autoOpen: false });
    cleanups.push(() => server.stop());
    const texts: string[] = [];
    const receiver = await vi.waitFor(
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}`);
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
      { timeout: 5_000, interval: 50 },
    );
    receiver.on('message', (data: Buffer) => texts.push(data.toString()));
    cleanups.push(() => receiver.terminate());

    const secret = generateKey();
    const proc = trade({ RISK_HMAC_SECRET: secret, STATELY_INSPECT_URL: `ws://127.0.0.1:${port}` });
    await proc.waitFor(/"event":"order_submitted"/, 30_000);
    await proc.waitFor(/"event":"cycle_end","cycle":3,/, 30_000);

    const seen = () => texts.map((t) => JSON.parse(t) as Frame);
    const root = () => seen().find((f) => f.type === '@xstate.actor' && f.name === 'trading' && !f.parentId);
    await vi.waitFor(
      () => {
        const frames = seen();
        const rootId = root()?.sessionId;
        expect(rootId, 'the root actor (systemId trading) registered').toBeDefined();
        const actors = new Map(
          frames.filter((f) => f.type === '@xstate.actor' && f.parentId === rootId).map((f) => [f.name!, f.sessionId]),
        );
        expect([...actors.keys()]).toEqual(expect.arrayContaining(CHILDREN));
        for (const [name, sessionId] of [
          ['trading', rootId!] as const,
          ...CHILDREN.map((c) => [c, actors.get(c)!] as const),
        ]) {
          const kinds = new Set(frames.filter((f) => f.sessionId === sessionId).map((f) => f.type));
          expect(kinds, name).toEqual(new Set(['@xstate.actor', '@xstate.snapshot', '@xstate.event']));
        }
      },
      { timeout: 10_000, interval: 100 },
    );
    // The root's snapshot is the statechart's value (running, cycling or waiting), as the inspector draws it.
    const rootSnapshot = seen().find(
      (f) => f.type === '@xstate.snapshot' && f.sessionId === root()!.sessionId,
    ) as unknown as { snapshot: { value: unknown; status: string } };
    expect(rootSnapshot.snapshot.status).toBe('active');
    expect(JSON.stringify(rootSnapshot.snapshot.value)).toMatch(/running/);

    const all = texts.join('\n');
    expect(all).toContain('hmac:'); // approvals were inspected, signed …
    expect(all).not.toContain(secret); // … and the key that signed them never left the process
    expect(proc.stderr()).not.toMatch(/carried a secret/); // nor was one there to redact
    expect(proc.stderr()).not.toMatch(/no Stately inspector/);
  }, 90_000); // bounded by its own waits (30–60 s); a loaded machine needs more than the default 20 s

  it('with no inspector listening: one warning naming the URL, and trading goes on as without the flag', async () => {
    const url = `ws://127.0.0.1:${await closedPort()}`;
    // Retrying every 100 ms (the test-only knob; 5 s otherwise), so the retries come within a few cycles.
    const proc = trade({ RISK_HMAC_SECRET: generateKey(), STATELY_INSPECT_URL: url, TCS_TEST_INSPECT_RETRY_MS: '100' });
    // Past many quiet retries, on the process's own clock: at 0.2 s a cycle, cycle 10 ends at least
    // 1.8 s after cycle 1 began, and the retry timers share that event loop with the cycle timer.
    await proc.waitFor(/"event":"cycle_end","cycle":10,/, 60_000);

    const warnings = proc.stderr().match(/^tcs: .*Stately inspector.*$/gm) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`no Stately inspector at ${url}`);
    expect(warnings[0]).toContain('trading goes on without the inspector (retrying quietly every 0.1 s)');
    expect(proc.stderr()).not.toMatch(/unhandled|uncaught/i);
    expect(proc.stderr().match(/ECONNREFUSED/g)).toHaveLength(1); // the retries are quiet

    // Stdout is event lines only, and the cycles ran one after another, each ended.
    const lines = proc
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; cycle?: number });
    const ends = lines.filter((l) => l.event === 'cycle_end').map((l) => l.cycle);
    expect(ends.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(lines.some((l) => l.event === 'order_submitted')).toBe(true);

    await proc.stop('SIGTERM');
    expect(await proc.exited).toEqual({ code: 0, signal: null });
  }, 90_000); // bounded by its own waits (30–60 s); a loaded machine needs more than the default 20 s
});
