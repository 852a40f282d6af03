/**
 * The inspector link on its own, against a plain `ws` server on loopback: an inspector that comes up
 * after the actors started still gets every live actor's registration and the recent events; nothing
 * answering is said once however many retries fail; a secret in a snapshot is redacted and reported.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { WebSocketServer } from 'ws';
import { connectInspector } from '../../../src/adapters/inspector/websocket-inspector.js';
import type { InspectorLink } from '../../../src/adapters/inspector/websocket-inspector.js';
import { closedPort } from '../../support/ports.js';

const counter = setup({
  types: { context: {} as { n: number; note: string }, events: {} as { type: 'bump' } },
}).createMachine({
  id: 'counter',
  context: { n: 0, note: '' },
  on: { bump: { actions: assign({ n: ({ context }) => context.n + 1 }) } },
});

describe('connectInspector', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function link(port: number, secrets: string[] = []) {
    const warnings: string[] = [];
    const l: InspectorLink = connectInspector({
      url: `ws://127.0.0.1:${port}`,
      secrets,
      warn: (m) => warnings.push(m),
      info: () => {},
      retryMs: 50,
    });
    cleanups.push(() => l.stop());
    return { link: l, warnings };
  }

  async function listen(port: number) {
    const frames: Array<{ type: string; name?: string; event?: { type: string } }> = [];
    const texts: string[] = [];
    const server = new WebSocketServer({ host: '127.0.0.1', port });
    await new Promise((resolve) => server.once('listening', resolve));
    server.on('connection', (ws) =>
      ws.on('message', (data: Buffer) => {
        texts.push(data.toString());
        frames.push(JSON.parse(data.toString()));
      }),
    );
    cleanups.push(() => {
      for (const client of server.clients) client.terminate(); // close() waits for them otherwise
      return new Promise((resolve) => server.close(resolve));
    });
    return { frames, texts, server };
  }

  it('an inspector that comes up late sees the actor registered before it, and the events since; one warning', async () => {
    const port = await closedPort();
    // No inspector there, only a listener that hangs up at once: it counts the link's tries.
    const tries = { count: 0 };
    const hangUp = createServer((socket) => (tries.count++, socket.destroy()));
    await new Promise<void>((resolve) => hangUp.listen(port, '127.0.0.1', resolve));
    const { link: l, warnings } = link(port);
    const actor = createActor(counter, { inspect: l.inspect }).start();
    cleanups.push(() => actor.stop());
    // More events than the package's adapter keeps (200) while no inspector answers, over five tries.
    for (let i = 0; i < 300; i++) actor.send({ type: 'bump' });
    await vi.waitFor(() => expect(tries.count).toBeGreaterThanOrEqual(5), { timeout: 5_000 });
    await new Promise<void>((resolve) => hangUp.close(() => resolve()));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`no Stately inspector at ws://127.0.0.1:${port} .*trading goes on without the inspector`),
    );

    const { frames } = await listen(port);
    await vi.waitFor(() => expect(frames.some((f) => f.type === '@xstate.actor' && f.name === 'counter')).toBe(true), {
      timeout: 5_000,
    });
    actor.send({ type: 'bump' });
    await vi.waitFor(() => expect(frames.filter((f) => f.type === '@xstate.event').length).toBeGreaterThan(100));
    expect(warnings).toHaveLength(1);
  });

  it('a secret that reached actor state is redacted before it is sent, and said once', async () => {
    const port = await closedPort();
    const { texts } = await listen(port);
    const secret = 'sekret-value-0123456789';
    const { link: l, warnings } = link(port, [secret]);
    const actor = createActor(counter, { inspect: l.inspect }).start();
    cleanups.push(() => actor.stop());
    actor.send({ type: 'bump', note: secret } as never); // the event, as inspected, carries it
    await vi.waitFor(() => expect(texts.join('\n')).toContain('[redacted]'), { timeout: 5_000 });
    expect(texts.join('\n')).not.toContain(secret);
    expect(warnings).toEqual([expect.stringMatching(/carried a secret; it was redacted/)]);
  });
});
