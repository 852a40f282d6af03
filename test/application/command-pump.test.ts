/**
 * A stored command that is not one of the commands this release runs (a payload that fails its
 * schema, a type it does not know, text that is not JSON, another version) is never executed: the
 * queue adapters decode it as malformed, the pump hands only decoded commands to the root actor and
 * passes the malformed ones to `reject`, which completes them as rejected with the reason and an
 * audit entry — on both stores, with the record written straight into the backend.
 */
import { SimulatedClock } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommandRejection } from '../../src/application/command-completion.js';
import { createCommandPump } from '../../src/application/command-pump.js';
import { isMalformed } from '../../src/domain/commands.js';
import type { EventLine } from '../../src/domain/event-lines.js';
import { STORE_KINDS, openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { plantStoredCommand } from '../support/raw-commands.js';

const NOW = Date.UTC(2026, 0, 5, 12);
const INSTRUCTIONS = [{ tool: 'cancel_all_orders', symbol: 'BTCUSDT' }];

/** Each broken in one way; the ids say how. */
const MALFORMED = [
  { id: 'bad-payload', type: 'cancel_all', payload: JSON.stringify({ instructions: 'all of them', actor: 'k1' }) },
  { id: 'bad-type', type: 'flatten_everything', payload: JSON.stringify({ actor: 'k1' }) },
  { id: 'bad-json', type: 'deleverage', payload: '{"symbol": "BTCUSDT", reduce' },
  {
    id: 'bad-version',
    type: 'kill_cancels',
    payload: JSON.stringify({ v: 9, instructions: INSTRUCTIONS, reason: 'r', actor: 'k1' }),
  },
  {
    id: 'bad-pct',
    type: 'deleverage',
    payload: JSON.stringify({
      symbol: 'BTCUSDT',
      reduce_pct: 7,
      prepared: { symbol: 'BTCUSDT', side: 'SELL', qty: 1, type: 'market', reduce_only: true },
      actor: 'k1',
    }),
  },
];

describe.each(STORE_KINDS)('command pump on %s', (kind) => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('never delivers a malformed stored command: it goes to reject, once; a valid one is delivered', async () => {
    t = await openTestStore(kind);
    for (const raw of MALFORMED) await plantStoredCommand(t, raw);
    await t.store.commands.enqueue({
      id: 'good',
      type: 'cancel_all',
      payload: { instructions: [{ tool: 'cancel_all_orders', symbol: 'BTCUSDT' }], actor: 'k1' },
      enqueued_at: new Date(NOW).toISOString(),
    });
    const clock = new SimulatedClock();
    clock.set(NOW);
    const delivered: string[] = [];
    const rejected: string[] = [];
    const pump = createCommandPump(t.store.commands, clock, 'test', async (command) => void rejected.push(command.id));
    await pump.pump((command) => delivered.push(command.id));
    expect(delivered).toEqual(['good']);
    expect(rejected.sort()).toEqual(MALFORMED.map((m) => m.id).sort());
  });

  it('claim and get hand a malformed stored command back as malformed, with why; a pre-version payload decodes', async () => {
    t = await openTestStore(kind);
    for (const raw of MALFORMED) await plantStoredCommand(t, raw);
    // Written by the release before versions: no `v`, and exactly a version 1 payload.
    const legacy = { instructions: INSTRUCTIONS, reason: 'drawdown', actor: 'k1' };
    await plantStoredCommand(t, { id: 'legacy', type: 'kill_cancels', payload: JSON.stringify(legacy) });
    const claimed = await t.store.commands.claim('test', { max: 10, leaseMs: 30_000, now: NOW });
    const byId = new Map(claimed.map((c) => [c.id, c]));
    expect(byId.get('legacy')).toMatchObject({ type: 'kill_cancels', payload: legacy, status: 'claimed' });
    expect(isMalformed(byId.get('legacy')!)).toBe(false);
    const problems = Object.fromEntries(
      MALFORMED.map(({ id }) => {
        const c = byId.get(id)!;
        expect(isMalformed(c), id).toBe(true);
        expect(c).not.toHaveProperty('payload');
        return [id, (c as { problem: string }).problem];
      }),
    );
    expect(problems).toEqual({
      'bad-payload': expect.stringMatching(/cancel_all payload is not a version 1 cancel_all: \/instructions/),
      'bad-type': 'unknown command type "flatten_everything"',
      'bad-json': 'the deleverage payload is not JSON',
      'bad-version': 'the kill_cancels payload is version 9, not the 1 this release runs',
      'bad-pct': expect.stringMatching(/\/reduce_pct/),
    });
    expect(await t.store.commands.get('bad-json')).toMatchObject({ status: 'claimed', problem: problems['bad-json'] });
  });

  it('rejection completes a malformed command as rejected with the reason, audited, and it is not claimed again', async () => {
    t = await openTestStore(kind);
    for (const raw of MALFORMED) await plantStoredCommand(t, raw);
    const clock = new SimulatedClock();
    clock.set(NOW);
    const lines: EventLine[] = [];
    const logged: string[] = [];
    const reject = createCommandRejection({
      store: t.store,
      clock,
      events: { emit: (line) => lines.push(line) },
      log: (message, details) => logged.push(`${message} ${String(details.command)}`),
    });
    const delivered: string[] = [];
    const pump = createCommandPump(t.store.commands, clock, 'test', reject);
    await pump.pump((c) => delivered.push(c.id));
    expect(delivered).toEqual([]);
    for (const { id } of MALFORMED) {
      const stored = await t.store.commands.get(id);
      expect(stored, id).toMatchObject({ status: 'done', result: { status: 'rejected' } });
      expect(stored?.result?.message).toBe((stored as { problem: string }).problem);
    }
    const audited = await t.store.events.query({ kind: 'command_executed', limit: 100 });
    expect(audited.map((e) => [e.body.command_id, (e.body.result as { status: string }).status]).sort()).toEqual(
      MALFORMED.map(({ id }) => [id, 'rejected']).sort(),
    );
    expect(lines.map((l) => l.event)).toEqual(MALFORMED.map(() => 'command_executed'));
    expect(logged).toHaveLength(MALFORMED.length);
    clock.increment(60_000); // past every lease: nothing is handed out again
    await pump.pump((c) => delivered.push(c.id));
    expect(await t.store.commands.claim('other', { max: 10, leaseMs: 30_000, now: NOW + 120_000 })).toEqual([]);
  });
});
