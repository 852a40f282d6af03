/**
 * The risk engine as an actor: runs the four guards on every proposed order and signs the approved
 * ones. The orders of one request are judged one after another against the running projected
 * account: each approval joins the pending orders the next one is judged with, so two orders that
 * each pass alone cannot together break a limit. The signer is supplied by the composition root as
 * a closure over the HMAC secret, so the secret never sits in actor context (which the inspector shows).
 */
import { sendTo, setup } from 'xstate';
import type { Instrument, InstrumentKind } from '../src/domain/market.js';
import type { MarginTable } from '../src/domain/margin.js';
import type { ApprovedOrder, OrderRequest } from '../src/domain/orders.js';
import { pendingEntry } from '../src/domain/risk/expected-fill.js';
import { executionPrice } from '../src/domain/risk/order-impact.js';
import { evaluateOrder, refuseAll } from '../src/domain/risk/risk-engine.js';
import type { PendingOrder, RiskLimits } from '../src/domain/risk/risk-engine.js';
import type { EvaluateRequest, EvaluatedReply, Verdict } from './messages.js';
import { safely } from './safely.js';

export type ApprovalSigner = (order: OrderRequest, epoch: number, expiresAt: number) => ApprovedOrder;

export interface RiskInput {
  limits: RiskLimits;
  /** How long an approval stays valid, in ms. */
  tokenTtlMs: number;
  sign: ApprovalSigner;
  /** Lot sizes (to round a scaled close) and kinds (spot needs no margin); optional for tests. */
  instruments?: readonly Instrument[];
  marginTable?: MarginTable;
  /**
   * Fee rate an order is expected to pay (the venue's taker rate): limits are judged on the NAV after
   * it and the spread. Default 0 (tests); the composition root passes the venue's.
   */
  feeRate?: number;
  /** FEED_STALE_MS: market data older than this at the cycle's `now` opens no new exposure; unset = not judged. */
  feedStaleMs?: number;
}

export function review(input: RiskInput, request: EvaluateRequest): EvaluatedReply {
  const instruments = new Map((input.instruments ?? []).map((i) => [i.symbol, i]));
  const kinds = new Map<string, InstrumentKind>([...instruments.values()].map((i) => [i.symbol, i.kind]));
  const marks = new Map([...request.market.values()].map((m) => [m.symbol, m.last]));
  const pending: PendingOrder[] = [];
  const verdicts: Verdict[] = [];
  for (const requested of request.orders) {
    // Any error (bad limits, a failing signer) refuses that order; it never stops the actor system.
    const verdict = safely(
      (): Verdict => {
        const market = request.market.get(requested.symbol);
        const lotSize = instruments.get(requested.symbol)?.lotSize;
        const tickSize = instruments.get(requested.symbol)?.tickSize;
        const decision = market
          ? evaluateOrder(requested, {
              account: request.account,
              market,
              limits: input.limits,
              pending,
              kinds,
              marks,
              ...(input.marginTable ? { marginTable: input.marginTable } : {}),
              ...(lotSize !== undefined ? { lotSize } : {}),
              ...(tickSize !== undefined ? { tickSize } : {}),
              ...(input.feeRate !== undefined ? { feeRate: input.feeRate } : {}),
              ...(input.feedStaleMs !== undefined
                ? { freshness: { now: request.now, staleMs: input.feedStaleMs } }
                : {}),
            })
          : refuseAll(`no market data for ${requested.symbol}`);
        // A close scaled for liquidity is signed at the size the engine allowed.
        const order = decision.scaledQty ? { ...requested, qty: decision.scaledQty } : requested;
        const approval = decision.approved ? input.sign(order, request.epoch, request.now + input.tokenTtlMs) : null;
        // The next order of the cycle is judged after this one: on the book it left and the NAV it cost.
        if (approval && market) {
          const reference = executionPrice(order, market);
          pending.push(
            typeof reference === 'number'
              ? pendingEntry(order, market, reference, pending, {
                  ...(input.feeRate !== undefined ? { feeRate: input.feeRate } : {}),
                  ...(tickSize !== undefined ? { tickSize } : {}),
                })
              : { order, price: market.last },
          );
        }
        return { order, decision, approval };
      },
      (err) => ({ order: requested, decision: refuseAll(`risk engine error: ${err}`), approval: null }),
    );
    verdicts.push(verdict);
  }
  return { type: 'risk.evaluated', cycle: request.cycle, verdicts };
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
