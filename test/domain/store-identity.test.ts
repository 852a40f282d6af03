/**
 * Judging a record against what a process remembers: another identity is replaced unless adopted
 * from the one remembered; an older epoch is rolled back; a remembered kill is left only with a kill
 * reset newer than it in the audit trail — a store restored to before the kill and resumed on is
 * rolled back, not trusted (the review's finding: rollback + restarted API + resume undid a kill).
 */
import { describe, expect, it } from 'vitest';
import type { ControlRecord } from '../../src/domain/control.js';
import { judgeHead, judgeRecord, NO_MEMORY } from '../../src/domain/store-identity.js';

const rec = (over: Partial<ControlRecord>): ControlRecord => ({
  state: 'running',
  epoch: 0,
  reason: null,
  changed_at: '2026-01-05T12:00:00.000Z',
  store_id: 'S',
  adopted_from: null,
  ...over,
});
const knows = (epoch: number, killedAt: number | null = null) => ({ storeId: 'S', epoch, killedAt });

describe('judgeRecord', () => {
  it('a process with no memory takes the first record it sees, remembering a kill', () => {
    expect(judgeRecord(NO_MEMORY, rec({ state: 'killed', epoch: 3 }))).toEqual({
      ok: true,
      adopted: false,
      memory: { storeId: 'S', epoch: 3, killedAt: 3 },
    });
  });

  it('another identity is replaced, unless adopted from the remembered one', () => {
    expect(judgeRecord(knows(4), rec({ store_id: 'T', epoch: 9 }))).toMatchObject({ ok: false, kind: 'replaced' });
    expect(judgeRecord(knows(4), rec({ store_id: 'T', adopted_from: 'S', state: 'killed', epoch: 5 }))).toEqual({
      ok: true,
      adopted: true,
      memory: { storeId: 'T', epoch: 5, killedAt: 5 },
    });
  });

  it('an older epoch is rolled back', () => {
    expect(judgeRecord(knows(7), rec({ epoch: 6, state: 'paused' }))).toMatchObject({
      ok: false,
      kind: 'rolled_back',
    });
  });

  it('a remembered kill left without a newer kill reset is rolled back; with one it is trusted', () => {
    const resumedOnARestore = rec({ state: 'running', epoch: 7 });
    expect(judgeRecord(knows(7, 7), resumedOnARestore)).toEqual({ ok: false, kind: 'needs_reset_proof' });
    expect(judgeRecord(knows(7, 7), resumedOnARestore, null)).toMatchObject({ ok: false, kind: 'rolled_back' });
    expect(judgeRecord(knows(7, 7), rec({ state: 'paused', epoch: 9 }), 5)).toMatchObject({
      ok: false,
      kind: 'rolled_back',
    });
    expect(judgeRecord(knows(7, 7), rec({ state: 'running', epoch: 8 }), 8)).toEqual({
      ok: true,
      adopted: false,
      memory: { storeId: 'S', epoch: 8, killedAt: null },
    });
  });

  it('still killed at a later epoch keeps the first kill remembered', () => {
    expect(judgeRecord(knows(7, 7), rec({ state: 'killed', epoch: 7 }))).toMatchObject({
      ok: true,
      memory: { killedAt: 7 },
    });
  });
});

describe('judgeHead', () => {
  const h = (seq: number, c = 'a') => ({ seq, hash: c.repeat(64) });
  const seen = (head: { seq: number; hash: string } | null) => ({ ...knows(4), head });

  it('a process that has seen no trail takes the head it finds', () => {
    expect(judgeHead(seen(null), h(9))).toEqual({ ok: true, memory: seen(h(9)) });
  });

  it('a trail that ends before the head seen is rolled back, at the same epoch', () => {
    expect(judgeHead(seen(h(68)), h(36))).toMatchObject({ ok: false, kind: 'rolled_back' });
  });

  it('the same head is trusted; another entry at the same seq is not', () => {
    expect(judgeHead(seen(h(5)), h(5))).toEqual({ ok: true, memory: seen(h(5)) });
    expect(judgeHead(seen(h(5)), h(5, 'b'))).toMatchObject({ ok: false, kind: 'rolled_back' });
  });

  it('a longer trail is trusted only when it holds the entry seen, and then remembered', () => {
    expect(judgeHead(seen(h(5)), h(9, 'c'), 'a'.repeat(64))).toEqual({ ok: true, memory: seen(h(9, 'c')) });
    expect(judgeHead(seen(h(5)), h(9, 'c'), 'b'.repeat(64))).toMatchObject({ ok: false, kind: 'rolled_back' });
    expect(judgeHead(seen(h(5)), h(9, 'c'), null)).toMatchObject({ ok: false, kind: 'rolled_back' });
  });

  it('a remembered empty trail is on every chain', () => {
    expect(judgeHead(seen({ seq: 0, hash: '0'.repeat(64) }), h(3))).toEqual({ ok: true, memory: seen(h(3)) });
  });
});
