// Approval tokens: round trip, tampering with any signed field, wrong secret, expiry boundary,
// stale epoch, malformed tokens, and the constant-time comparison's length handling.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonical-json.js';
import type { ApprovedOrder, OrderRequest } from '../../src/domain/orders.js';
import { approvalPayload, constantTimeEqual, signApproval, verifyApproval } from '../../src/domain/order-token.js';

const SECRET = 'test-secret-with-enough-entropy-0123456789';
const order: OrderRequest = {
  clientOrderId: 's1-7-BTCUSDT-0',
  symbol: 'BTCUSDT',
  side: 'BUY',
  qty: 0.026,
  type: 'market',
  limitPrice: null,
  reduceOnly: false,
};
const EXPIRES = 1_700_000_060_000;
const approved = signApproval(order, { secret: SECRET, epoch: 4, expiresAt: EXPIRES });
const verifyAt = (a: ApprovedOrder, overrides: Partial<{ secret: string; now: number; currentEpoch: number }> = {}) =>
  verifyApproval(a, { secret: SECRET, now: EXPIRES - 30_000, currentEpoch: 4, ...overrides });

describe('signApproval', () => {
  it('produces hmac:<64 hex> over the documented canonical payload', () => {
    expect(approved.token).toMatch(/^hmac:[0-9a-f]{64}$/);
    const payload = canonicalJson({
      v: 2,
      clientOrderId: order.clientOrderId,
      symbol: 'BTCUSDT',
      side: 'BUY',
      qty: 0.026,
      type: 'market',
      limitPrice: null,
      reduceOnly: false,
      timeInForce: 'GTC',
      goodTill: null,
      postOnly: false,
      epoch: 4,
      expiresAt: EXPIRES,
    });
    expect(approvalPayload(order, 4, EXPIRES)).toBe(payload);
    expect(payload).toContain('"limitPrice":null');
    expect(approved.token).toBe(`hmac:${createHmac('sha256', SECRET).update(payload).digest('hex')}`);
    expect(approved).toMatchObject({ order, epoch: 4, expiresAt: EXPIRES });
  });

  it('signs the optional order fields with their defaults, so omitting and spelling them out agree', () => {
    const spelled = { ...order, timeInForce: 'GTC' as const, postOnly: false };
    expect(signApproval(spelled, { secret: SECRET, epoch: 4, expiresAt: EXPIRES }).token).toBe(approved.token);
    const gtt = { ...order, timeInForce: 'GTT' as const, goodTill: EXPIRES };
    expect(signApproval(gtt, { secret: SECRET, epoch: 4, expiresAt: EXPIRES }).token).not.toBe(approved.token);
  });

  it('is deterministic and copies the order', () => {
    const mutable = { ...order };
    const a = signApproval(mutable, { secret: SECRET, epoch: 4, expiresAt: EXPIRES });
    mutable.qty = 100;
    expect(a.order.qty).toBe(0.026);
    expect(a.token).toBe(approved.token);
  });

  it('refuses an empty secret, a bad epoch or expiry', () => {
    expect(() => signApproval(order, { secret: '', epoch: 1, expiresAt: EXPIRES })).toThrow(/secret/);
    expect(() => signApproval(order, { secret: SECRET, epoch: -1, expiresAt: EXPIRES })).toThrow(RangeError);
    expect(() => signApproval(order, { secret: SECRET, epoch: 1.5, expiresAt: EXPIRES })).toThrow(RangeError);
    expect(() => signApproval(order, { secret: SECRET, epoch: 1, expiresAt: Number.NaN })).toThrow(RangeError);
  });
});

describe('verifyApproval', () => {
  it('accepts a fresh token in the current epoch', () => {
    expect(verifyAt(approved)).toEqual({ ok: true });
  });

  it.each<[string, (a: ApprovedOrder) => ApprovedOrder]>([
    ['clientOrderId', (a) => ({ ...a, order: { ...a.order, clientOrderId: 's1-7-BTCUSDT-1' } })],
    ['symbol', (a) => ({ ...a, order: { ...a.order, symbol: 'ETHUSDT' } })],
    ['side', (a) => ({ ...a, order: { ...a.order, side: 'SELL' } })],
    ['qty', (a) => ({ ...a, order: { ...a.order, qty: 0.027 } })],
    ['type', (a) => ({ ...a, order: { ...a.order, type: 'limit' } })],
    ['limitPrice', (a) => ({ ...a, order: { ...a.order, limitPrice: 30_000 } })],
    ['reduceOnly', (a) => ({ ...a, order: { ...a.order, reduceOnly: true } })],
    ['timeInForce', (a) => ({ ...a, order: { ...a.order, timeInForce: 'GTT', goodTill: EXPIRES } })],
    ['goodTill', (a) => ({ ...a, order: { ...a.order, goodTill: EXPIRES } })],
    ['postOnly', (a) => ({ ...a, order: { ...a.order, postOnly: true } })],
    ['epoch', (a) => ({ ...a, epoch: 5 })],
    ['expiresAt', (a) => ({ ...a, expiresAt: a.expiresAt + 60_000 })],
    ['token digit', (a) => ({ ...a, token: a.token.slice(0, -1) + (a.token.endsWith('0') ? '1' : '0') })],
  ])('changing %s → TOKEN_INVALID', (_field, tamper) => {
    // currentEpoch follows the tampered epoch, so only the signature can catch it.
    const tampered = tamper(approved);
    expect(verifyAt(tampered, { currentEpoch: tampered.epoch })).toMatchObject({ ok: false, code: 'TOKEN_INVALID' });
  });

  it('changing any one signed field to any other value is caught (property)', () => {
    const orderArb = fc.record({
      clientOrderId: fc.string({ minLength: 1, maxLength: 20 }),
      symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT', 'SOLUSDT'),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      qty: fc.double({ min: 0.001, max: 1e6, noNaN: true }),
      type: fc.constantFrom('market' as const, 'limit' as const),
      limitPrice: fc.option(fc.double({ min: 0.01, max: 1e6, noNaN: true }), { nil: null }),
      reduceOnly: fc.boolean(),
      timeInForce: fc.constantFrom('GTC' as const, 'GTT' as const),
      goodTill: fc.integer({ min: 0, max: 2e12 }),
      postOnly: fc.boolean(),
    });
    const approvalArb = fc.record({
      order: orderArb,
      epoch: fc.nat(1_000),
      expiresAt: fc.integer({ min: 0, max: 2e12 }),
    });
    const fields = [
      'clientOrderId',
      'symbol',
      'side',
      'qty',
      'type',
      'limitPrice',
      'reduceOnly',
      'timeInForce',
      'goodTill',
      'postOnly',
      'epoch',
      'expiresAt',
    ] as const;
    fc.assert(
      fc.property(approvalArb, approvalArb, fc.constantFrom(...fields), (first, second, field) => {
        const a = signApproval(first.order, { secret: SECRET, epoch: first.epoch, expiresAt: first.expiresAt });
        const forged: ApprovedOrder =
          field === 'epoch' || field === 'expiresAt'
            ? { ...a, [field]: second[field] }
            : { ...a, order: { ...a.order, [field]: second.order[field] } };
        const unchanged = Object.is(
          field === 'epoch' || field === 'expiresAt' ? first[field] : first.order[field],
          field === 'epoch' || field === 'expiresAt' ? second[field] : second.order[field],
        );
        const result = verifyApproval(forged, {
          secret: SECRET,
          now: Math.min(a.expiresAt, forged.expiresAt),
          currentEpoch: forged.epoch,
        });
        if (unchanged) expect(result).toEqual({ ok: true });
        else expect(result).toMatchObject({ ok: false, code: 'TOKEN_INVALID' });
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a token made with another secret', () => {
    const other = signApproval(order, { secret: 'another-secret', epoch: 4, expiresAt: EXPIRES });
    expect(verifyAt(other)).toMatchObject({ ok: false, code: 'TOKEN_INVALID' });
    expect(verifyAt(approved, { secret: 'another-secret' })).toMatchObject({ ok: false, code: 'TOKEN_INVALID' });
  });

  it('is valid up to and including expiresAt, expired one ms later', () => {
    expect(verifyAt(approved, { now: EXPIRES })).toEqual({ ok: true });
    expect(verifyAt(approved, { now: EXPIRES + 1 })).toMatchObject({ ok: false, code: 'TOKEN_EXPIRED' });
  });

  it('refuses a token from another control epoch as EPOCH_STALE', () => {
    expect(verifyAt(approved, { currentEpoch: 5 })).toMatchObject({
      ok: false,
      code: 'EPOCH_STALE',
      message: expect.stringContaining('epoch 4'),
    });
    expect(verifyAt(approved, { currentEpoch: 3 })).toMatchObject({ ok: false, code: 'EPOCH_STALE' });
  });

  it('fails closed on a NaN clock reading', () => {
    expect(verifyAt(approved, { now: Number.NaN })).toMatchObject({ ok: false, code: 'TOKEN_EXPIRED' });
  });

  it('reports a stale epoch before expiry when both apply', () => {
    expect(verifyAt(approved, { currentEpoch: 5, now: EXPIRES + 1 })).toMatchObject({ code: 'EPOCH_STALE' });
  });

  it.each([
    ['empty', ''],
    ['no prefix', approved.token.slice(5)],
    ['wrong prefix', `sha:${approved.token.slice(5)}`],
    ['short', approved.token.slice(0, -2)],
    ['long', `${approved.token}00`],
    ['upper-case hex', approved.token.toUpperCase().replace('HMAC:', 'hmac:')],
    ['non-hex', `hmac:${'z'.repeat(64)}`],
    ['trailing newline', `${approved.token}\n`],
  ])('malformed token (%s) → TOKEN_MALFORMED without throwing', (_name, token) => {
    expect(verifyAt({ ...approved, token })).toMatchObject({ ok: false, code: 'TOKEN_MALFORMED' });
  });

  it('a non-string token or unencodable order is malformed, not a crash', () => {
    expect(verifyAt({ ...approved, token: 42 as unknown as string })).toMatchObject({ code: 'TOKEN_MALFORMED' });
    expect(verifyAt({ ...approved, order: { ...order, qty: Number.NaN } })).toMatchObject({ code: 'TOKEN_MALFORMED' });
  });

  it('throws on an empty secret (configuration error)', () => {
    expect(() => verifyAt(approved, { secret: '' })).toThrow(/secret/);
  });
});

describe('constantTimeEqual', () => {
  it('compares equal-length buffers', () => {
    expect(constantTimeEqual(Buffer.from('abcd'), Buffer.from('abcd'))).toBe(true);
    expect(constantTimeEqual(Buffer.from('abcd'), Buffer.from('abce'))).toBe(false);
  });

  it('returns false for different lengths instead of throwing', () => {
    expect(constantTimeEqual(Buffer.from('abcd'), Buffer.from('abc'))).toBe(false);
    expect(constantTimeEqual(Buffer.alloc(0), Buffer.from('a'))).toBe(false);
  });
});
