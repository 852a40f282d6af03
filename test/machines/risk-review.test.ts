/**
 * Review findings on the risk engine's trading states (issue 20, item 1), each a failing test of the
 * behaviour the README and the issue promise:
 *  - the window cannot end `reducing` once the account rose above the breach's peak while closing;
 *  - the engine's own close still goes out (one lot) after a strategy's close used the cycle's depth;
 *  - a failed audit append also drops the stored state, so a restart forgets `reducing`.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { EvaluatedReply, ObservedReply } from '../../machines/messages.js';
import { review, riskMachine } from '../../machines/risk.machine.js';
import type { RiskInput } from '../../machines/risk.machine.js';
import { createRiskStateRecorder } from '../../src/application/risk-state.js';
import { createRunKv } from '../../src/adapters/memory/run-kv.js';
import { signApproval } from '../../src/domain/order-token.js';
import type { AccountSnapshot } from '../../src/domain/portfolio.js';
import { DEFAULT_RISK_LIMITS } from '../../src/domain/risk/risk-engine.js';
import { startingState } from '../../src/domain/risk/trading-state.js';
import { RISK_STATE_KEY } from '../../src/domain/runtime-documents.js';
import { readDocument } from '../../src/ports/documents.js';
import { position } from '../domain/risk/builders.js';
import { account, collector, marketView, order, snapshot } from './support.js';

const NOW = 1_700_000_000_000;
const LIMITS = { ...DEFAULT_RISK_LIMITS, maxDrawdown: 0.1 };
const instruments = [
  { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 },
] as RiskInput['instruments'];
const input: RiskInput = {
  limits: LIMITS,
  tokenTtlMs: 30_000,
  sign: (o, epoch, expiresAt) => signApproval(o, { secret: 'k'.repeat(32), epoch, expiresAt }),
  instruments,
};

describe('review: reducing and its window', () => {
  it('ends by the window once the breach peak and everything above it left the window, flat at a higher NAV', () => {
    const risk = createActor(riskMachine, {
      input: {
        ...input,
        drawdownWindowMs: 86_400_000,
        tradingState: { state: 'reducing', since: NOW, reason: 'drawdown 11%', peakNav: 10_000 },
      },
    }).start();
    const observed = collector<ObservedReply>();
    const observe = (acct: AccountSnapshot, at: number) =>
      risk.send({ type: 'risk.observe', cycle: 1, account: acct, now: at, replyTo: observed.ref });
    // A rally while the engine still closes: NAV above the breach's peak (the reference rises with it).
    observe(account({ nav: 10_500, peakNav: 10_500, positions: [position('BTCUSDT', 1, 100)] }), NOW + 60_000);
    // Flat since; two windows later the reference is the flat NAV itself: drawdown 0, the breach's
    // peak (10 000) and the rally's (10 500) are both long out of the window.
    observe(account({ nav: 10_400, peakNav: 10_400 }), NOW + 2 * 86_400_000);
    expect(risk.getSnapshot().value).toBe('active');
  });
});

describe("review: the engine's own closes and the cycle's depth", () => {
  it("adds no close of its own once the cycle's closes used the depth limit", () => {
    // Long 80 BTC; the bid side shows 10 levels of 10: RISK_MAX_DEPTH_FRACTION 0.25 allows 25 a cycle.
    const held = account({ nav: 8_900, peakNav: 10_000, positions: [position('BTCUSDT', 80, 100)] });
    const market = marketView(snapshot('BTCUSDT', 100));
    const exit = order({ clientOrderId: 's-1-BTCUSDT-0', side: 'SELL', qty: 80, reduceOnly: true });
    const reply: EvaluatedReply = review(
      input,
      {
        type: 'risk.evaluate',
        purpose: 'cycle',
        cycle: 1,
        orders: [exit],
        account: held,
        market,
        epoch: 1,
        now: NOW,
        replyTo: collector().ref,
      },
      { state: 'reducing', reason: 'drawdown 11%' },
    );
    const sold = reply.verdicts.filter((v) => v.approval !== null).reduce((sum, v) => sum + v.order.qty, 0);
    expect(reply.verdicts[0]!.order.qty).toBe(25); // the strategy's close, scaled to the limit
    expect(sold).toBeLessThanOrEqual(0.25 * 100);
  });
});

describe('review: the stored risk state when the audit append fails', () => {
  it('still stores reducing, so a restart resumes it', async () => {
    const kv = createRunKv();
    const recorder = createRiskStateRecorder({
      store: { events: { append: () => Promise.reject(new Error('SQLITE_BUSY: database is locked')) } } as never,
      kv,
      clock: { now: () => NOW },
      events: { emit: () => {} },
      log: () => {},
    });
    recorder.changed({
      from: 'active',
      to: 'reducing',
      at: NOW,
      reason: 'drawdown 11%',
      drawdown: 0.11,
      nav: 8_900,
      peakNav: 10_000,
      reference: 10_000,
    });
    await recorder.idle();
    const stored = await readDocument(kv, RISK_STATE_KEY);
    expect(startingState(stored ?? null, false, NOW + 1).state).toBe('reducing');
  });
});
