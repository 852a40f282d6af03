/**
 * The one way out to the venue: the only module that calls the venue's mutators (submit, cancel),
 * as the order manager's jobs (the OMS machine decides *whether* and *when*; this decides *how*).
 * A test (test/project/venue-mutators.test.ts) fails when anything else calls them.
 * Submissions: each approval passes the order gate (src/application/order-gate.ts) and only then
 * reaches the venue, with nothing async in between; the reply says truthfully, per order, what
 * reached the venue. Cancels, whoever asked for them (a cancel-all or kill-cancels command, a safety
 * halt, the drawdown breaker, a halt's end), are carried out the same way: an event line, and one
 * audit entry — the command's completion for a command, `orders_cancelled` otherwise — then the
 * waiter named by the job's receipt, if any, is told. A kill cancels at once (first in line) and its
 * command, keyed the same, completes with that result: one venue call, one audit entry. Deleverage never comes here as a command: its
 * order is prepared, judged by the risk actor and submitted like any other (machines/deleverage).
 */
import type { Logger } from 'pino';
import { eventLine } from '../domain/event-lines.js';
import type { MarketView } from '../domain/market.js';
import type { ApprovedOrder, Fill, VenueOrder } from '../domain/orders.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { TradingEvents } from '../ports/trading-events.js';
import type { Venue } from '../ports/venue.js';
import type { SubmissionOutcome } from '../../machines/messages.js';
import type { CancelJob, JobResult, OmsJob, OmsMode } from '../../machines/order-manager.machine.js';
import { cancelPerSymbol } from './cancel-per-symbol.js';
import type { Sleep } from './cancel-per-symbol.js';
import type { CompleteCommand } from './command-completion.js';
import type { FillAudit } from './fill-audit.js';
import type { JobReceipts } from './job-receipts.js';
import type { OrderGate } from './order-gate.js';

/** Keyed cancels remembered (a kill's cancel until its command completes with it). */
const MAX_KEYS_REMEMBERED = 16;

export interface OrderExecutionDeps {
  venue: Venue;
  store: Store;
  clock: Clock;
  /** The execution mode named on `order_submitted` lines. */
  mode: string;
  events: TradingEvents;
  /** Where fills found by a cancel are told and recorded (not waited for: a kill's cancel never waits on the store). */
  fillAudit: FillAudit;
  gate: OrderGate;
  completeCommand: CompleteCommand;
  /** The latest market (the current cycle's, or a fresh read when there is none). */
  market(): Promise<MarketView>;
  /** Publishes the account after anything that changed it outside a cycle. */
  accountChanged(): Promise<void>;
  /**
   * The same, not waited for: a command's next round, or the kill's command after its cancel made at
   * once, need not wait for the read (at 2–5 s an exchange round trip, each read is two of them).
   */
  accountChangedSoon?(): void;
  /** Where a cancel's waiter outside the actor system is told (the job's receipt). */
  receipts: JobReceipts;
  log: Logger;
  /** How a cancel waits between its tries (tests pass one that does not sleep). */
  sleep?: Sleep;
}

/** What a job runs with: its abort signal and the order manager's mode, read right before each venue call. */
export interface JobContext {
  signal: AbortSignal;
  mode(): OmsMode;
}

export type JobExecutor = (job: OmsJob, context: JobContext) => Promise<JobResult>;

export function createOrderExecution(deps: OrderExecutionDeps): JobExecutor {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const publishSoon = async (): Promise<void> => {
    if (deps.accountChangedSoon) deps.accountChangedSoon();
    else await deps.accountChanged();
  };
  const announceResult = (order: VenueOrder, fills: Fill[]) => {
    deps.events.emit(
      order.status === 'rejected' ? eventLine.orderRejected(order) : eventLine.orderSubmitted(order, deps.mode),
    );
    for (const fill of fills) deps.events.emit(eventLine.orderFilled(fill));
  };

  const submitOne = async (
    approval: ApprovedOrder,
    job: Extract<OmsJob, { kind: 'submit' }>,
    { signal, mode }: JobContext,
  ): Promise<SubmissionOutcome> => {
    const clientOrderId = approval.order.clientOrderId;
    try {
      const market = await deps.market();
      // Nothing async between the gate's verdict and the venue call.
      const refusal = await deps.gate(approval, signal, job.purpose, mode);
      if (refusal) {
        deps.events.emit(eventLine.orderRefused(clientOrderId, refusal.code));
        return { clientOrderId, status: 'refused', ...refusal };
      }
      const result = await deps.venue.submit(approval.order, market);
      announceResult(result.order, result.fills);
      return {
        clientOrderId,
        status: 'submitted',
        venueStatus: result.order.status,
        filledQty: result.order.filledQty,
        avgFillPrice: result.order.avgFillPrice,
        duplicate: result.duplicate,
        ...(result.order.rejectReason ? { rejectReason: result.order.rejectReason } : {}),
      };
    } catch (err) {
      // Per order, so the record stays true for the orders before and after this one.
      deps.log.error({ err, clientOrderId }, 'submission failed');
      return { clientOrderId, status: 'refused', code: 'SUBMIT_FAILED', message: (err as Error).message };
    }
  };

  const submit = async (job: Extract<OmsJob, { kind: 'submit' }>, context: JobContext): Promise<JobResult> => {
    // One symbol's orders one after the other, always; different symbols' side by side on a venue that
    // takes them so (a live exchange: a kill's closes of two symbols wait one round trip, not two).
    const lanes = deps.venue.parallelSymbols ? bySymbol(job.approvals) : [job.approvals.map((a, i) => ({ a, i }))];
    const outcomes: SubmissionOutcome[] = new Array<SubmissionOutcome>(job.approvals.length);
    await Promise.all(
      lanes.map(async (lane) => {
        for (const { a, i } of lane) outcomes[i] = await submitOne(a, job, context);
      }),
    );
    // A cycle's recording step publishes the account; a command's submission is published here.
    if (job.purpose === 'command') await publishSoon();
    return { outcomes };
  };

  // Cancels already made, by key (the kill's, made at once, then its command): bounded, the newest kept.
  const madeByKey = new Map<string, VenueOrder[]>();
  const remember = (key: string, cancelled: VenueOrder[]) => {
    madeByKey.set(key, cancelled);
    if (madeByKey.size > MAX_KEYS_REMEMBERED) madeByKey.delete(madeByKey.keys().next().value!);
  };

  /** The venue call of a cancel, once per key: a later job with the same key gets the first's result. */
  const cancelAtVenue = async (job: CancelJob): Promise<VenueOrder[]> => {
    const made = job.key === null ? undefined : madeByKey.get(job.key);
    if (made) return made;
    // Per symbol, each retried within seconds: a kill's cancels get through a 503 storm (issue 32).
    const cancelled = await cancelPerSymbol((s) => deps.venue.cancelAll(s), job.symbols, sleep);
    // An order that filled on its way to being cancelled is a fill, not a cancel (a live venue finds it).
    // Its event line is emitted at once; its audit entry is written behind, never holding the cancel up.
    void deps.fillAudit.record(deps.venue.takeFills?.() ?? [], 'cancel');
    deps.events.emit(eventLine.ordersCancelled(job.reason, job.symbols ? [...job.symbols] : undefined, cancelled));
    if (job.key !== null) remember(job.key, cancelled);
    return cancelled;
  };

  const cancel = async (job: CancelJob): Promise<JobResult> => {
    const { command } = job;
    try {
      const cancelled = await cancelAtVenue(job);
      const result = {
        status: 'done',
        cancelled: cancelled.map((o) => ({ client_order_id: o.clientOrderId, symbol: o.symbol })),
      };
      if (command) await deps.completeCommand(command, result);
      // A keyed cancel without its command (the kill's, made at once) is audited by the command.
      else if (job.key === null)
        await deps.store.events.append({
          kind: 'orders_cancelled',
          at: new Date(deps.clock.now()).toISOString(),
          body: { reason: job.reason, symbols: job.symbols, ...result },
        });
      // A command's completion published the account already.
      if (!command) await publishSoon();
      deps.receipts.settle(job.receipt, cancelled);
    } catch (err) {
      // A command is left claimed: its lease expires and it is retried (at least once, idempotent).
      if (command) deps.log.error({ err, command: command.id }, 'command failed; it will be retried after its lease');
      deps.receipts.fail(job.receipt, err);
      throw err;
    }
    return { outcomes: [] };
  };

  return (job, context) => (job.kind === 'submit' ? submit(job, context) : cancel(job));
}

/** The approvals by symbol, each with its place in the job, in the job's order within a symbol. */
function bySymbol(approvals: readonly ApprovedOrder[]): Array<Array<{ a: ApprovedOrder; i: number }>> {
  const lanes = new Map<string, Array<{ a: ApprovedOrder; i: number }>>();
  approvals.forEach((a, i) => {
    const lane = lanes.get(a.order.symbol) ?? [];
    lane.push({ a, i });
    lanes.set(a.order.symbol, lane);
  });
  return [...lanes.values()];
}
