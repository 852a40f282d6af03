// Risk engine actor, alone: replies `risk.evaluated` to replyTo with the domain's evaluateOrder
// decision per order, signs only the approved ones through the provided `sign` closure (a recording
// fake) with expiresAt = now + tokenTtlMs, refuses orders without market data, and never holds the
// HMAC secret in its context (only the closure over it).
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { EvaluatedReply } from '../../machines/messages.js';
import { riskMachine } from '../../machines/risk.machine.js';
import type { ApprovalSigner, RiskInput } from '../../machines/risk.machine.js';
import { signApproval, verifyApproval } from '../../src/domain/order-token.js';
import type { OrderRequest } from '../../src/domain/orders.js';
import { DEFAULT_RISK_LIMITS, evaluateOrder } from '../../src/domain/risk/risk-engine.js';
import { account, collector, marketView, order, snapshot } from './support.js';

const SECRET = 'super-secret-hmac-key-do-not-leak-7f3a';
const NOW = 1_700_000_000_000;
const TTL = 30_000;

// BTC at 100 (bid 99.9, ask 100.1, 10 × 10 on each side, 1000 traded); NAV 10 000.
const market = marketView(snapshot('BTCUSDT', 100));
const ok = order({ clientOrderId: 's1-1-BTCUSDT-0', qty: 1 });
const tooBig = order({ clientOrderId: 's1-1-BTCUSDT-1', qty: 60 }); // 0.6× NAV in one symbol > 0.5
const noMarket = order({ clientOrderId: 's1-1-ETHUSDT-2', symbol: 'ETHUSDT', qty: 1 });

function recordingSigner() {
  const calls: { order: OrderRequest; epoch: number; expiresAt: number }[] = [];
  const sign: ApprovalSigner = (o, epoch, expiresAt) => {
    calls.push({ order: o, epoch, expiresAt });
    return signApproval(o, { secret: SECRET, epoch, expiresAt });
  };
  return { sign, calls };
}

function start(input: Partial<RiskInput> = {}) {
  const signer = recordingSigner();
  const risk = createActor(riskMachine, {
    input: { limits: DEFAULT_RISK_LIMITS, tokenTtlMs: TTL, sign: signer.sign, ...input },
  }).start();
  const replies = collector<EvaluatedReply>();
  return { risk, replies, signer };
}

describe('risk machine', () => {
  it('replies one verdict per order with the domain decision, in order', () => {
    const { risk, replies } = start();
    const acct = account();
    risk.send({
      type: 'risk.evaluate',
      cycle: 3,
      orders: [ok, tooBig],
      account: acct,
      market,
      epoch: 2,
      now: NOW,
      replyTo: replies.ref,
    });
    expect(replies.events).toHaveLength(1);
    const reply = replies.events[0]!;
    expect(reply.type).toBe('risk.evaluated');
    expect(reply.cycle).toBe(3);
    expect(reply.verdicts.map((v) => v.order)).toEqual([ok, tooBig]);
    expect(reply.verdicts.map((v) => v.decision)).toEqual([
      evaluateOrder(ok, { account: acct, market: market.get('BTCUSDT')!, limits: DEFAULT_RISK_LIMITS, pending: [] }),
      // The second is judged with the first, approved earlier in the request, counted as pending
      // at its expected fill and with what crossing from last to it costs.
      evaluateOrder(tooBig, {
        account: acct,
        market: market.get('BTCUSDT')!,
        limits: DEFAULT_RISK_LIMITS,
        pending: [{ order: ok, price: 100.1, cost: 100.1 - 100 }],
      }),
    ]);
    expect(reply.verdicts.map((v) => v.decision.approved)).toEqual([true, false]);
  });

  it('signs only the approved orders, with the request epoch and expiresAt = now + tokenTtlMs', () => {
    const { risk, replies, signer } = start();
    risk.send({
      type: 'risk.evaluate',
      cycle: 3,
      orders: [tooBig, ok, noMarket],
      account: account(),
      market,
      epoch: 5,
      now: NOW,
      replyTo: replies.ref,
    });
    expect(signer.calls).toEqual([{ order: ok, epoch: 5, expiresAt: NOW + TTL }]);
    const [denied, approved, missing] = replies.events[0]!.verdicts;
    expect(denied!.approval).toBeNull();
    expect(missing!.approval).toBeNull();
    expect(approved!.approval).toEqual(signApproval(ok, { secret: SECRET, epoch: 5, expiresAt: NOW + TTL }));
    expect(verifyApproval(approved!.approval!, { secret: SECRET, now: NOW + TTL, currentEpoch: 5 })).toEqual({
      ok: true,
    });
    expect(verifyApproval(approved!.approval!, { secret: SECRET, now: NOW + TTL + 1, currentEpoch: 5 })).toMatchObject({
      ok: false,
      code: 'TOKEN_EXPIRED',
    });
  });

  it('judges with its own limits, not the defaults', () => {
    const limits = { ...DEFAULT_RISK_LIMITS, maxSymbolExposure: 0.005 }; // 1 BTC at 100 is 0.01× NAV
    const { risk, replies, signer } = start({ limits });
    risk.send({
      type: 'risk.evaluate',
      cycle: 1,
      orders: [ok],
      account: account(),
      market,
      epoch: 1,
      now: NOW,
      replyTo: replies.ref,
    });
    const decision = replies.events[0]!.verdicts[0]!.decision;
    expect(decision).toEqual(evaluateOrder(ok, { account: account(), market: market.get('BTCUSDT')!, limits }));
    expect(decision.approved).toBe(false);
    expect(decision.checks[3]).toMatchObject({ guard: 'exposure', passed: false, code: 'EXPOSURE_SYMBOL' });
    expect(signer.calls).toHaveLength(0);
  });

  it("refuses an order without this cycle's market data on all four guards", () => {
    const { risk, replies, signer } = start();
    risk.send({
      type: 'risk.evaluate',
      cycle: 1,
      orders: [noMarket],
      account: account(),
      market,
      epoch: 1,
      now: NOW,
      replyTo: replies.ref,
    });
    const verdict = replies.events[0]!.verdicts[0]!;
    expect(verdict.decision.approved).toBe(false);
    expect(verdict.decision.impact).toBeNull();
    expect(verdict.decision.checks.map((c) => [c.guard, c.passed, c.code])).toEqual([
      ['drawdown', false, 'INVALID_ORDER'],
      ['leverage', false, 'INVALID_ORDER'],
      ['liquidity', false, 'INVALID_ORDER'],
      ['exposure', false, 'INVALID_ORDER'],
    ]);
    expect(signer.calls).toHaveLength(0);
  });

  it('replies with no verdicts for no orders', () => {
    const { risk, replies } = start();
    risk.send({
      type: 'risk.evaluate',
      cycle: 8,
      orders: [],
      account: account(),
      market,
      epoch: 1,
      now: NOW,
      replyTo: replies.ref,
    });
    expect(replies.events).toEqual([{ type: 'risk.evaluated', cycle: 8, verdicts: [] }]);
  });

  it('keeps no secret string in its context or persisted snapshot (only the signing closure)', () => {
    const { risk, replies } = start();
    risk.send({
      type: 'risk.evaluate',
      cycle: 1,
      orders: [ok],
      account: account(),
      market,
      epoch: 1,
      now: NOW,
      replyTo: replies.ref,
    });
    const context = risk.getSnapshot().context;
    expect(typeof context.sign).toBe('function');
    const strings: string[] = [];
    const walk = (value: unknown, depth: number) => {
      if (depth > 6 || value === null) return;
      if (typeof value === 'string') strings.push(value);
      else if (typeof value === 'object') for (const v of Object.values(value as object)) walk(v, depth + 1);
    };
    walk(context, 0);
    expect(strings.some((s) => s.includes(SECRET))).toBe(false);
    expect(JSON.stringify(context)).not.toContain(SECRET);
    expect(JSON.stringify(risk.getPersistedSnapshot())).not.toContain(SECRET);
    expect(JSON.stringify(replies.events)).not.toContain(SECRET);
  });
});
