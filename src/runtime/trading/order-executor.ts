/**
 * What the order manager's jobs do at the venue (the OMS machine decides *whether*; this decides
 * *how*). Submissions: for each approval, re-read the control record from the store, then — with
 * no await in between, so nothing can change under it — check the order manager is still accepting
 * (a pause or kill this process has heard of), verify the token against the stored record in
 * constant time (signature, expiry, epoch still current), refuse a replayed client order id, and
 * only then call the venue. Commands (cancel-all, the kill's
 * cancels, deleverage) are carried out, completed in the queue and recorded as events.
 */
import type { Logger } from 'pino';
import type { Instrument, MarketView } from '../../domain/market.js';
import { floorToLot } from '../../domain/market.js';
import type { Fill, OrderRequest, VenueOrder } from '../../domain/orders.js';
import { oppositeSide } from '../../domain/orders.js';
import { signApproval, verifyApproval } from '../../domain/order-token.js';
import type { ApprovedOrder } from '../../domain/orders.js';
import { evaluateOrder } from '../../domain/risk/risk-engine.js';
import type { RiskLimits } from '../../domain/risk/risk-engine.js';
import type { UsedTokenLedger } from '../../domain/used-token-ledger.js';
import type { Clock } from '../../ports/clock.js';
import type { CommandRecord } from '../../domain/commands.js';
import type { Store } from '../../ports/store.js';
import type { Venue } from '../../ports/venue.js';
import type { SubmissionOutcome } from '../../../machines/messages.js';
import type { JobResult, OmsJob, OmsMode } from '../../../machines/order-manager.machine.js';
import type { EventLines } from './event-lines.js';
import type { TradingMetrics } from './trading-metrics.js';

export interface ExecutorDeps {
  venue: Venue;
  store: Store;
  clock: Clock;
  secret: string;
  mode: string;
  instruments: ReadonlyMap<string, Instrument>;
  riskLimits: RiskLimits;
  tokenTtlMs: number;
  ledger: UsedTokenLedger;
  lines: EventLines;
  metrics: TradingMetrics;
  /** The latest market (the current cycle's, or a fresh read when there is none). */
  market(): Promise<MarketView>;
  /** The order manager's current mode, read synchronously right before each venue call. */
  orderManagerMode(): OmsMode;
  /** Called after anything that changes the account (publishes the portfolio). */
  accountChanged(): Promise<void>;
  log: Logger;
}

export type JobExecutor = (job: OmsJob, signal: AbortSignal) => Promise<JobResult>;

export function createJobExecutor(deps: ExecutorDeps): JobExecutor {
  const iso = () => new Date(deps.clock.now()).toISOString();

  const announceResult = (order: VenueOrder, fills: Fill[]) => {
    if (order.status !== 'rejected') deps.lines.orderSubmitted(order.symbol, order.side, order.qty, deps.mode);
    deps.metrics.orders.inc({ result: order.status });
    for (const fill of fills) {
      deps.metrics.fills.inc({ liquidity: fill.liquidity });
      deps.lines.other('order_filled', {
        symbol: fill.symbol,
        side: fill.side,
        qty: fill.qty,
        price: fill.price,
        fee: fill.fee,
        liquidity: fill.liquidity,
        client_order_id: fill.clientOrderId,
      });
    }
    if (order.status === 'rejected')
      deps.lines.other('order_rejected', {
        symbol: order.symbol,
        client_order_id: order.clientOrderId,
        reason: order.rejectReason ?? 'rejected',
      });
  };

  /**
   * The one gate every order passes; returns a refusal or null. Nothing async after it, so nothing
   * can change between the verdict and the venue call. Cycle orders must be submitted while running
   * and are single-use by client order id; reduce-only command orders pass in every state and rely
   * on the venue's idempotency by client order id instead, so a retried command is not refused.
   */
  const gate = async (
    approval: ApprovedOrder,
    signal: AbortSignal,
    kind: 'cycle' | 'command',
  ): Promise<{ code: string; message: string } | null> => {
    const control = await deps.store.control.read();
    if (signal.aborted) return { code: 'ABORTED', message: 'the job was aborted before submission' };
    if (kind === 'cycle') {
      const mode = deps.orderManagerMode();
      if (mode !== 'accepting')
        return {
          code: mode === 'stopped' ? 'TRADING_KILLED' : 'TRADING_PAUSED',
          message: `the order manager is ${mode}`,
        };
      if (control.state !== 'running')
        return {
          code: control.state === 'killed' ? 'TRADING_KILLED' : 'TRADING_PAUSED',
          message: `system is ${control.state} (store)`,
        };
    }
    const verdict = verifyApproval(approval, {
      secret: deps.secret,
      now: deps.clock.now(),
      currentEpoch: control.epoch,
    });
    if (!verdict.ok) return { code: verdict.code, message: verdict.message };
    if (kind === 'cycle' && !deps.ledger.use(approval.order.clientOrderId)) {
      return { code: 'TOKEN_REPLAYED', message: `client order id ${approval.order.clientOrderId} was already used` };
    }
    return null;
  };

  const submit = async (job: Extract<OmsJob, { kind: 'submit' }>, signal: AbortSignal): Promise<JobResult> => {
    const outcomes: SubmissionOutcome[] = [];
    for (const approval of job.approvals) {
      const clientOrderId = approval.order.clientOrderId;
      try {
        const market = await deps.market();
        // Nothing async between the gate's verdict and the venue call.
        const refusal = await gate(approval, signal, 'cycle');
        if (refusal) {
          deps.metrics.refusals.inc({ code: refusal.code });
          outcomes.push({ clientOrderId, status: 'refused', ...refusal });
          continue;
        }
        const result = await deps.venue.submit(approval.order, market);
        announceResult(result.order, result.fills);
        outcomes.push({
          clientOrderId,
          status: 'submitted',
          venueStatus: result.order.status,
          filledQty: result.order.filledQty,
          avgFillPrice: result.order.avgFillPrice,
          duplicate: result.duplicate,
        });
      } catch (err) {
        // Per order, so the record stays true for the orders before and after this one.
        deps.log.error({ err, clientOrderId }, 'submission failed');
        outcomes.push({ clientOrderId, status: 'refused', code: 'SUBMIT_FAILED', message: (err as Error).message });
      }
    }
    // No publish here: a submission is part of a cycle, whose recording step publishes the account.
    return { outcomes };
  };

  const cancel = async (symbols: string[] | undefined, reason: string): Promise<Record<string, unknown>> => {
    const cancelled = await deps.venue.cancelAll(symbols);
    deps.lines.other('orders_cancelled', {
      reason,
      symbols: symbols ?? 'all',
      count: cancelled.length,
      client_order_ids: cancelled.map((o) => o.clientOrderId),
    });
    return {
      status: 'done',
      cancelled: cancelled.map((o) => ({ client_order_id: o.clientOrderId, symbol: o.symbol })),
    };
  };

  const deleverage = async (command: CommandRecord, signal: AbortSignal): Promise<Record<string, unknown>> => {
    const symbol = String(command.payload.symbol);
    const reducePct = Number(command.payload.reduce_pct);
    const instrument = deps.instruments.get(symbol);
    if (!instrument || !(reducePct > 0 && reducePct <= 1))
      return { status: 'invalid', message: `bad deleverage payload for ${symbol}` };
    const market = await deps.market();
    const account = await deps.venue.account(market);
    const position = account.positions.find((p) => p.symbol === symbol)?.qty ?? 0;
    // Capped at the live position: the API prepared it from a snapshot that may be older.
    const qty = Math.min(floorToLot(Math.abs(position) * reducePct, instrument.lotSize), Math.abs(position));
    if (qty <= 0)
      return {
        status: 'nothing',
        message: position === 0 ? `no open position in ${symbol}` : `reduction below one lot (${instrument.lotSize})`,
        position_qty: position,
      };
    const order: OrderRequest = {
      clientOrderId: `dlv-${command.id}`,
      symbol,
      side: oppositeSide(position > 0 ? 'BUY' : 'SELL'),
      qty,
      type: 'market',
      limitPrice: null,
      reduceOnly: true,
    };
    const snapshot = market.get(symbol);
    if (!snapshot) return { status: 'invalid', message: `no market data for ${symbol}` };
    // One order path: even a reduce-only order goes through the risk engine and a signed token.
    const decision = evaluateOrder(order, { account, market: snapshot, limits: deps.riskLimits });
    if (!decision.approved) {
      return {
        status: 'denied',
        checks: decision.checks
          .filter((c) => !c.passed)
          .map((c) => ({ guard: c.guard, code: c.code, value: c.value, limit: c.limit })),
      };
    }
    // Sign for the current epoch; if a pause or kill lands between signing and the gate's re-read,
    // sign again (a reduce-only order is allowed in every state). Never complete on such a refusal.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const control = await deps.store.control.read();
      const approval = signApproval(order, {
        secret: deps.secret,
        epoch: control.epoch,
        expiresAt: deps.clock.now() + deps.tokenTtlMs,
      });
      const refusal = await gate(approval, signal, 'command');
      if (refusal?.code === 'EPOCH_STALE') continue;
      if (refusal) throw new Error(`deleverage ${command.id} refused: ${refusal.code} ${refusal.message}`);
      const result = await deps.venue.submit(order, market);
      announceResult(result.order, result.fills);
      return {
        status: result.order.status === 'rejected' ? 'rejected' : 'submitted',
        client_order_id: order.clientOrderId,
        side: order.side,
        qty: order.qty,
        venue_status: result.order.status,
        filled_qty: result.order.filledQty,
        reject_reason: result.order.rejectReason ?? null,
        duplicate: result.duplicate,
      };
    }
    throw new Error(`deleverage ${command.id}: the control epoch kept moving; retried after its lease`);
  };

  const runCommand = async (command: CommandRecord, signal: AbortSignal): Promise<JobResult> => {
    if (command.status === 'done') return { outcomes: [] };
    const instructions = Array.isArray(command.payload.instructions)
      ? (command.payload.instructions as Array<{ symbol: string }>)
      : [];
    let result: Record<string, unknown>;
    try {
      result =
        command.type === 'deleverage'
          ? await deleverage(command, signal)
          : await cancel(
              instructions.map((i) => i.symbol),
              command.type,
            );
    } catch (err) {
      // Left claimed: the lease expires and the command is retried (at least once, idempotent).
      deps.log.error({ err, command: command.id }, 'command failed; it will be retried after its lease');
      throw err;
    }
    await deps.store.commands.complete(command.id, result, iso());
    await deps.store.events.append({
      kind: 'command_executed',
      at: iso(),
      symbol: typeof command.payload.symbol === 'string' ? command.payload.symbol : null,
      body: { command_id: command.id, type: command.type, result },
    });
    deps.lines.other('command_executed', { command_id: command.id, type: command.type, status: result.status });
    await deps.accountChanged();
    return { outcomes: [] };
  };

  return async (job, signal) => {
    switch (job.kind) {
      case 'submit':
        return submit(job, signal);
      case 'cancel_all': {
        const result = await cancel(undefined, `kill: ${job.reason}`);
        await deps.store.events.append({
          kind: 'orders_cancelled',
          at: iso(),
          body: { reason: job.reason, ...result },
        });
        await deps.accountChanged();
        return { outcomes: [] };
      }
      case 'command':
        return runCommand(job.command, signal);
    }
  };
}
