/**
 * What the order manager's jobs do at the venue (the OMS machine decides *whether*; this decides
 * *how*). Submissions: each approval passes the order gate (src/application/order-gate.ts) and only
 * then reaches the venue, with nothing async in between; the reply says truthfully, per order, what
 * reached the venue. Cancels (the kill's, and the cancel-all and kill-cancel commands) are carried
 * out, recorded and, for commands, completed in the queue. Deleverage never comes here as a command:
 * its order is prepared, judged by the risk actor and submitted like any other (machines/deleverage).
 */
import type { Logger } from 'pino';
import type { CommandRecord } from '../domain/commands.js';
import { eventLine } from '../domain/event-lines.js';
import type { MarketView } from '../domain/market.js';
import type { Fill, VenueOrder } from '../domain/orders.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { TradingEvents } from '../ports/trading-events.js';
import type { Venue } from '../ports/venue.js';
import type { SubmissionOutcome } from '../../machines/messages.js';
import type { JobResult, OmsJob } from '../../machines/order-manager.machine.js';
import type { CompleteCommand } from './command-completion.js';
import type { OrderGate } from './order-gate.js';

export interface OrderExecutionDeps {
  venue: Venue;
  store: Store;
  clock: Clock;
  /** The execution mode named on `order_submitted` lines. */
  mode: string;
  events: TradingEvents;
  gate: OrderGate;
  completeCommand: CompleteCommand;
  /** The latest market (the current cycle's, or a fresh read when there is none). */
  market(): Promise<MarketView>;
  /** Publishes the account after anything that changed it outside a cycle. */
  accountChanged(): Promise<void>;
  log: Logger;
}

export type JobExecutor = (job: OmsJob, signal: AbortSignal) => Promise<JobResult>;

export function createOrderExecution(deps: OrderExecutionDeps): JobExecutor {
  const announceResult = (order: VenueOrder, fills: Fill[]) => {
    deps.events.emit(
      order.status === 'rejected' ? eventLine.orderRejected(order) : eventLine.orderSubmitted(order, deps.mode),
    );
    for (const fill of fills) deps.events.emit(eventLine.orderFilled(fill));
  };

  const submit = async (job: Extract<OmsJob, { kind: 'submit' }>, signal: AbortSignal): Promise<JobResult> => {
    const outcomes: SubmissionOutcome[] = [];
    for (const approval of job.approvals) {
      const clientOrderId = approval.order.clientOrderId;
      try {
        const market = await deps.market();
        // Nothing async between the gate's verdict and the venue call.
        const refusal = await deps.gate(approval, signal, job.purpose);
        if (refusal) {
          deps.events.emit(eventLine.orderRefused(clientOrderId, refusal.code));
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
          ...(result.order.rejectReason ? { rejectReason: result.order.rejectReason } : {}),
        });
      } catch (err) {
        // Per order, so the record stays true for the orders before and after this one.
        deps.log.error({ err, clientOrderId }, 'submission failed');
        outcomes.push({ clientOrderId, status: 'refused', code: 'SUBMIT_FAILED', message: (err as Error).message });
      }
    }
    // A cycle's recording step publishes the account; a command's submission is published here.
    if (job.purpose === 'command') await deps.accountChanged();
    return { outcomes };
  };

  const cancel = async (symbols: string[] | undefined, reason: string) => {
    const cancelled = await deps.venue.cancelAll(symbols);
    deps.events.emit(eventLine.ordersCancelled(reason, symbols, cancelled));
    return {
      status: 'done',
      cancelled: cancelled.map((o) => ({ client_order_id: o.clientOrderId, symbol: o.symbol })),
    };
  };

  const runCommand = async (command: CommandRecord): Promise<JobResult> => {
    if (command.status === 'done') return { outcomes: [] };
    if (command.type === 'deleverage') {
      // Routed to its own actor by the root; reaching here is a wiring error, and the lease retries it.
      throw new Error(`deleverage ${command.id} reached the order manager directly; it must go through risk`);
    }
    const { instructions } = command.payload; // decoded and validated by the queue
    try {
      const result = await cancel(
        instructions.map((i) => i.symbol),
        command.type,
      );
      await deps.completeCommand(command, result);
    } catch (err) {
      // Left claimed: the lease expires and the command is retried (at least once, idempotent).
      deps.log.error({ err, command: command.id }, 'command failed; it will be retried after its lease');
      throw err;
    }
    return { outcomes: [] };
  };

  return async (job, signal) => {
    switch (job.kind) {
      case 'submit':
        return submit(job, signal);
      case 'cancel_all': {
        const result = await cancel(undefined, job.reason);
        await deps.store.events.append({
          kind: 'orders_cancelled',
          at: new Date(deps.clock.now()).toISOString(),
          body: { reason: job.reason, ...result },
        });
        await deps.accountChanged();
        return { outcomes: [] };
      }
      case 'command':
        return runCommand(job.command);
    }
  };
}
