/**
 * The risk engine as an actor: runs the four guards on every proposed order and signs the approved
 * ones. The signer is supplied by the composition root as a closure over the HMAC secret, so the
 * secret never sits in actor context (which the inspector shows).
 */
import { sendTo, setup } from 'xstate';
import type { ApprovedOrder, OrderRequest } from '../src/domain/orders.js';
import { evaluateOrder } from '../src/domain/risk/risk-engine.js';
import type { GuardCheck, GuardName, RiskDecision, RiskLimits } from '../src/domain/risk/risk-engine.js';
import type { EvaluateRequest, EvaluatedReply, Verdict } from './messages.js';
import { safely } from './safely.js';

export type ApprovalSigner = (order: OrderRequest, epoch: number, expiresAt: number) => ApprovedOrder;

export interface RiskInput {
  limits: RiskLimits;
  /** How long an approval stays valid, in ms. */
  tokenTtlMs: number;
  sign: ApprovalSigner;
}

export function review(input: RiskInput, request: EvaluateRequest): EvaluatedReply {
  const verdicts: Verdict[] = request.orders.map((order) =>
    // Any error (bad limits, a failing signer) refuses that order; it never stops the actor system.
    safely(
      (): Verdict => {
        const market = request.market.get(order.symbol);
        const decision = market
          ? evaluateOrder(order, { account: request.account, market, limits: input.limits })
          : refuseAll(`no market data for ${order.symbol}`);
        const approval = decision.approved ? input.sign(order, request.epoch, request.now + input.tokenTtlMs) : null;
        return { order, decision, approval };
      },
      (err) => ({ order, decision: refuseAll(`risk engine error: ${err}`), approval: null }),
    ),
  );
  return { type: 'risk.evaluated', cycle: request.cycle, verdicts };
}

/** When an order cannot be judged (no market data, an error), every guard refuses it. */
function refuseAll(message: string): RiskDecision {
  const refuse = (guard: GuardName): GuardCheck => ({
    guard,
    passed: false,
    code: 'INVALID_ORDER',
    value: null,
    limit: null,
    message,
    metrics: {},
  });
  return {
    approved: false,
    checks: [refuse('drawdown'), refuse('leverage'), refuse('liquidity'), refuse('exposure')],
    impact: null,
  };
}

export const riskMachine = setup({
  types: {} as { context: RiskInput; input: RiskInput; events: EvaluateRequest },
}).createMachine({
  id: 'risk',
  context: ({ input }) => input,
  on: {
    'risk.evaluate': {
      actions: sendTo(
        ({ event }) => event.replyTo,
        ({ context, event }) => review(context, event),
      ),
    },
  },
});
