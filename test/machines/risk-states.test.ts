// The risk actor's trading states (issue 20, item 1): `active` → `reducing` when a cycle shows it an
// account beyond RISK_MAX_DRAWDOWN; in `reducing` only orders that lower exposure pass (RISK_REDUCING)
// and the engine adds its own reduce-only closes for what is left open; `reducing` ends only by the
// operator's reset or the window dropping the breach's peak (never by prices bouncing back); the kill
// moves any state to `halted`, where no cycle order passes (RISK_HALTED) and a command's close still
// does. Every transition is announced once, with its reason and figures.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { EvaluatedReply, ObservedReply } from '../../machines/messages.js';
import { riskMachine } from '../../machines/risk.machine.js';
import type { RiskInput } from '../../machines/risk.machine.js';
import { signApproval } from '../../src/domain/order-token.js';
import type { OrderRequest } from '../../src/domain/orders.js';
import type { AccountSnapshot } from '../../src/domain/portfolio.js';
import { DEFAULT_RISK_LIMITS } from '../../src/domain/risk/risk-engine.js';
import type { RiskStateChange } from '../../src/domain/risk/trading-state.js';
import { position } from '../domain/risk/builders.js';
import { account, collector, marketView, order, snapshot } from './support.js';

const NOW = 1_700_000_000_000;
const LIMITS = { ...DEFAULT_RISK_LIMITS, maxDrawdown: 0.1 };
const market = marketView(snapshot('BTCUSDT', 100), snapshot('ETHUSDT', 10));
const instruments = [
  { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 },
  { symbol: 'ETHUSDT', kind: 'perp', lotSize: 0.01, tickSize: 0.01, minNotional: 5 },
] as RiskInput['instruments'];

/** Long 2 BTC and short 5 ETH; NAV `nav` against a peak of 10 000. */
const holding = (nav: number, peakNav = 10_000): AccountSnapshot =>
  account({ nav, peakNav, positions: [position('BTCUSDT', 2, 100), position('ETHUSDT', -5, 10)] });

function start(input: Partial<RiskInput> = {}) {
  const changes: RiskStateChange[] = [];
  const risk = createActor(
    riskMachine.provide({ actions: { announceRiskState: (_, change) => void changes.push(change) } }),
    {
      input: {
        limits: LIMITS,
        tokenTtlMs: 30_000,
        sign: (o, epoch, expiresAt) => signApproval(o, { secret: 'k'.repeat(32), epoch, expiresAt }),
        instruments,
        ...input,
      },
    },
  ).start();
  const observed = collector<ObservedReply>();
  const evaluated = collector<EvaluatedReply>();
  const observe = (acct: AccountSnapshot, cycle = 1) =>
    risk.send({ type: 'risk.observe', cycle, account: acct, now: NOW + cycle * 60_000, replyTo: observed.ref });
  const evaluate = (orders: OrderRequest[], acct: AccountSnapshot, purpose?: 'cycle' | 'command', cycle = 1) => {
    risk.send({
      type: 'risk.evaluate',
      cycle,
      ...(purpose ? { purpose } : {}),
      orders,
      account: acct,
      market,
      epoch: 4,
      now: NOW,
      replyTo: evaluated.ref,
    });
    return evaluated.events.at(-1)!;
  };
  return { risk, changes, observed, observe, evaluate };
}

const buy = order({ clientOrderId: 's-1-BTCUSDT-0', qty: 1 });
const drawdownCode = (reply: EvaluatedReply, i: number) => reply.verdicts[i]!.decision.checks[0].code;

describe('the risk actor: active, reducing, halted', () => {
  it('stays active within the limit: same verdicts as before, no closes of its own, nothing announced', () => {
    const { risk, changes, observed, observe, evaluate } = start();
    observe(holding(9_000)); // exactly 10 %: not beyond the limit
    expect(observed.events.at(-1)).toMatchObject({ type: 'risk.observed', cycle: 1, state: 'active' });
    expect(risk.getSnapshot().value).toBe('active');
    // Exactly at the limit no opening fits (its fee and spread would take the account past it).
    expect(evaluate([buy], holding(9_000)).verdicts[0]!.decision.checks[0].code).toBe('DRAWDOWN_LIMIT');
    const reply = evaluate([buy], holding(9_050));
    expect(reply.verdicts).toHaveLength(1);
    expect(reply.verdicts[0]!.approval).not.toBeNull();
    expect(changes).toEqual([]);
  });

  it('a drawdown beyond the limit moves to reducing, announced once with its reason and figures', () => {
    const { risk, changes, observed, observe } = start();
    observe(holding(8_900), 7);
    expect(risk.getSnapshot().value).toBe('reducing');
    expect(observed.events.at(-1)).toMatchObject({ cycle: 7, state: 'reducing' });
    observe(holding(8_800), 8); // still in breach: no second announcement
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      from: 'active',
      to: 'reducing',
      at: NOW + 7 * 60_000,
      nav: 8_900,
      peakNav: 10_000,
    });
    expect(changes[0]!.drawdown).toBeCloseTo(0.11, 10);
    expect(changes[0]!.reason).toMatch(/drawdown 11\.00% .* exceeds RISK_MAX_DRAWDOWN 10\.00%/);
  });

  it('reducing: an order that adds exposure is refused RISK_REDUCING; the engine closes every position itself', () => {
    const { observe, evaluate } = start();
    observe(holding(8_900));
    const reply = evaluate([buy], holding(8_900));
    expect(reply.verdicts[0]!.approval).toBeNull();
    expect(drawdownCode(reply, 0)).toBe('RISK_REDUCING');
    const own = reply.verdicts.filter((v) => v.by === 'risk');
    expect(own.map((v) => [v.order.symbol, v.order.side, v.order.qty, v.order.reduceOnly])).toEqual([
      ['BTCUSDT', 'SELL', 2, true],
      ['ETHUSDT', 'BUY', 5, true],
    ]);
    expect(own.every((v) => v.approval !== null)).toBe(true);
    expect(own.map((v) => v.order.clientOrderId)).toEqual(['rsk-4-1-BTCUSDT', 'rsk-4-1-ETHUSDT']);
  });

  it('reducing: a strategy close passes and the engine closes only what it leaves open', () => {
    const { observe, evaluate } = start();
    observe(holding(8_900));
    const partial = order({ clientOrderId: 's-1-BTCUSDT-0', side: 'SELL', qty: 1.5, reduceOnly: true });
    const reply = evaluate([partial], holding(8_900));
    expect(reply.verdicts[0]!.approval).not.toBeNull();
    const own = reply.verdicts.filter((v) => v.by === 'risk').map((v) => [v.order.symbol, v.order.qty]);
    expect(own).toEqual([
      ['BTCUSDT', 0.5],
      ['ETHUSDT', 5],
    ]);
  });

  it('reducing: a command (flatten, deleverage) gets no closes added; a close the book cannot take is scaled', () => {
    const { observe, evaluate } = start();
    observe(holding(8_900));
    expect(evaluate([], holding(8_900), 'command', 0).verdicts).toEqual([]);
    // 80 BTC against 10 × 10 on the bid: the engine's close is scaled to what the liquidity limit allows.
    const big = account({ nav: 8_900, peakNav: 10_000, positions: [position('BTCUSDT', 80, 100)] });
    const own = evaluate([], big, 'cycle', 2).verdicts;
    expect(own).toHaveLength(1);
    expect(own[0]!.approval).not.toBeNull();
    expect(own[0]!.decision.checks[2].code).toBe('LIQUIDITY_SCALED');
    expect(own[0]!.order.qty).toBeLessThan(80);
  });

  it('reducing does not end when prices bounce back: only the window or a reset end it', () => {
    const { risk, changes, observe } = start();
    observe(holding(8_900));
    observe(holding(9_800), 2); // 2 % from the same peak: still reducing
    expect(risk.getSnapshot().value).toBe('reducing');
    // The window dropped the old peak: the reference is now 9 500 and 9 000 is within 10 % of it.
    observe(holding(9_000, 9_500), 3);
    expect(risk.getSnapshot().value).toBe('active');
    expect(changes.map((c) => `${c.from}→${c.to}`)).toEqual(['active→reducing', 'reducing→active']);
    expect(changes[1]!.reason).toMatch(/RISK_DRAWDOWN_WINDOW: the peak NAV 10000\.00 left the window/);
  });

  it('the window dropping the peak is not enough while the new reference is still breached', () => {
    const { risk, observe } = start();
    observe(holding(8_900));
    observe(holding(8_000, 9_500), 2); // 15.8 % from the new reference
    expect(risk.getSnapshot().value).toBe('reducing');
  });

  it("an operator's reset ends reducing; in active it changes nothing", () => {
    const { risk, changes, observe } = start();
    risk.send({ type: 'risk.reset', reason: 'reviewed', at: NOW, nav: 9_000, peakNav: 9_000 });
    expect(changes).toEqual([]);
    observe(holding(8_900));
    risk.send({ type: 'risk.reset', reason: 'incident 7 reviewed', at: NOW + 1, nav: 8_900, peakNav: 8_900 });
    expect(risk.getSnapshot().value).toBe('active');
    expect(changes[1]).toMatchObject({ from: 'reducing', to: 'active', at: NOW + 1, drawdown: 0 });
    expect(changes[1]!.reason).toBe('drawdown reset by an operator: incident 7 reviewed');
  });

  it('the kill halts from any state; halted refuses every cycle order and passes a command close', () => {
    const { risk, changes, observe, evaluate } = start();
    observe(holding(8_900));
    risk.send({ type: 'risk.halt', reason: 'killed: operator', at: NOW + 5 });
    expect(risk.getSnapshot().value).toBe('halted');
    // Neither a reset nor a recovered account leaves halted.
    risk.send({ type: 'risk.reset', reason: 'x', at: NOW + 6, nav: 10_000, peakNav: 10_000 });
    observe(holding(10_000), 9);
    expect(risk.getSnapshot().value).toBe('halted');
    const close = order({ clientOrderId: 'flt-1', side: 'SELL', qty: 2, reduceOnly: true });
    const cycle = evaluate([buy, close], holding(10_000), 'cycle', 9);
    expect(cycle.verdicts.map((v) => [v.approval === null, v.decision.checks[0].code])).toEqual([
      [true, 'RISK_HALTED'],
      [true, 'RISK_HALTED'],
    ]);
    const command = evaluate([close, buy], holding(10_000), 'command', 0);
    expect(command.verdicts.map((v) => v.approval !== null)).toEqual([true, false]);
    expect(command.verdicts[1]!.decision.checks[0].code).toBe('RISK_HALTED');
    expect(changes.map((c) => `${c.from}→${c.to}`)).toEqual(['active→reducing', 'reducing→halted']);
    expect(changes[1]).toMatchObject({ reason: 'killed: operator', drawdown: null });
  });

  it('starts in the state it is given (a restart keeps reducing and its reference)', () => {
    const since = NOW - 3_600_000;
    const { risk, changes, observe } = start({
      tradingState: { state: 'reducing', since, reason: 'drawdown 12%', peakNav: 10_000 },
    });
    expect(risk.getSnapshot().value).toBe('reducing');
    observe(holding(9_600)); // recovered, same peak: still reducing
    expect(risk.getSnapshot().value).toBe('reducing');
    expect(changes).toEqual([]);
  });
});
