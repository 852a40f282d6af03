/**
 * The control use cases, for any front end (today the HTTP API): offer events to the control
 * statechart through the store, prepare instructions, enqueue them as commands for the trading
 * process and audit every call. Each call answers a result (control-results.ts), never an HTTP
 * error; this is the one place the rules for the spec's "not shown" cases are applied.
 */
import { randomUUID } from 'node:crypto';
import type { ControlApplyResult, ControlEvent, ControlRecord } from '../domain/control.js';
import { cancelInstructionsFor, planDeleverage } from '../domain/instructions.js';
import { instrumentOf } from '../domain/instruments.js';
import type { DeleveragePlan } from '../domain/instructions.js';
import type { Instrument } from '../domain/market.js';
import { PORTFOLIO_KEY } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import { readDocument } from '../ports/documents.js';
import { DEFAULT_COMMAND_QUEUE_MAX } from '../ports/command-queue.js';
import type { EnqueueOptions } from '../ports/command-queue.js';
import type { Store } from '../ports/store.js';
import { StoreUnavailableError } from '../ports/store-errors.js';
import type {
  CancelAllResult,
  ControlOutcome,
  DeleveragePreview,
  DeleverageResult,
  FlattenResult,
  KillResult,
  StateConflict,
  TransitionResult,
  UnknownSymbol,
} from './control-results.js';
import { applyControl } from './control-transition.js';
import type { ControlWriteOptions } from './control-transition.js';
import { killPriority } from './kill-priority.js';
import { pullKillSwitch } from './kill-switch.js';
import { KillFlattenNotQueuedError, requestFlatten } from './flatten.js';
import { OpenFlattens } from './open-flattens.js';
import { enqueueAudited } from './audited-enqueue.js';
import { killFlattenId } from '../domain/commands.js';

export const DEFAULT_REASONS = {
  pause: 'paused by operator',
  resume: 'resumed by operator',
  kill: 'kill switch pulled by operator',
  flatten: 'flatten by operator',
} as const;

export type PauseOrResume = Extract<ControlEvent, { type: 'control.pause' | 'control.resume' }>;

export class ControlPlane {
  private readonly bySymbol: Map<string, Instrument>;
  private readonly writes: ControlWriteOptions;
  private readonly bounded: EnqueueOptions;
  private readonly openFlattens = new OpenFlattens();

  constructor(
    private readonly store: Store,
    private readonly instruments: readonly Instrument[],
    private readonly clock: Clock,
    /** Told every statechart outcome (the API counts them in its metrics). */
    private readonly onOutcome: (result: ControlApplyResult) => void = () => {},
    /** How long a change that keeps losing races is retried (default CONTROL_DEADLINE_MS). */
    deadlineMs?: number,
    /**
     * COMMAND_QUEUE_MAX: an operator's command is refused (503) while this many wait, so a flood cannot
     * grow the queue without end; the kill's own commands are never refused.
     */
    commandQueueMax: number = DEFAULT_COMMAND_QUEUE_MAX,
  ) {
    this.bounded = { maxOpen: commandQueueMax };
    this.bySymbol = new Map(instruments.map((i) => [i.symbol, i]));
    this.writes = {
      priority: killPriority(store.kv),
      clock,
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    };
  }

  status(): Promise<ControlRecord> {
    return this.store.control.read();
  }

  /** Pause or resume: `changed: false` when already there, a state conflict when killed. */
  async transition(event: PauseOrResume, actor: string): Promise<ControlOutcome<TransitionResult, StateConflict>> {
    const result = await applyControl(this.store.control, event, { actor, at: this.isoNow() }, this.writes);
    this.onOutcome(result);
    if (result.outcome === 'refused') {
      const verb = event.type === 'control.pause' ? 'pause' : 'resume';
      return {
        ok: false,
        error: 'state_conflict',
        message: `cannot ${verb}: the system is killed; only a manual restart (npm start -- --reset-kill) ends the killed state`,
      };
    }
    const { record } = result;
    return {
      ok: true,
      value: {
        state: record.state,
        previous_state: result.from,
        changed: result.outcome === 'changed',
        epoch: record.epoch,
        reason: record.reason,
        changed_at: record.changed_at,
      },
    };
  }

  /**
   * The emergency button: always succeeds, also when already killed (answering the recorded reason); the
   * cancels are queued once per kill. With `flatten`, the kill is recorded first and then a flatten of
   * every position is queued (once per kill: its id is the kill's epoch), so a kill is never lost or
   * delayed by the flatten. The answer is the spec's, with or without it.
   */
  async kill(reason: string, actor: string, flatten = false): Promise<ControlOutcome<KillResult>> {
    const { result, instructions } = await pullKillSwitch(
      this.store,
      this.instruments,
      reason,
      { actor, at: this.isoNow() },
      this.writes,
    );
    this.onOutcome(result);
    if (flatten) {
      const { epoch } = result.record;
      const request = { id: killFlattenId(epoch), symbols: null, reason, actor, at: this.isoNow() };
      await requestFlatten(this.store, { ...request, via: 'kill_switch' }).catch((err: unknown) => {
        // Only a store failure is "press again"; anything else is a bug and stays a 500.
        throw err instanceof StoreUnavailableError ? new KillFlattenNotQueuedError(epoch, err) : err;
      });
    }
    // The reason the record holds: the one sent when this call killed, the first kill's when the
    // system was already killed (a repeat records nothing, so it must not answer a reason it dropped).
    const recorded = result.record.reason ?? reason;
    return { ok: true, value: { action: 'killed', reason: recorded, cancel_instructions: instructions } };
  }

  /** `symbols: null` means the whole whitelist. */
  async cancelAll(
    symbols: readonly string[] | null,
    actor: string,
  ): Promise<ControlOutcome<CancelAllResult, UnknownSymbol>> {
    const unknown = symbols?.find((s) => !this.bySymbol.has(s));
    if (unknown !== undefined) return unknownSymbol(unknown);
    const chosen = symbols === null ? this.instruments : symbols.map((s) => this.bySymbol.get(s) as Instrument);
    const instructions = cancelInstructionsFor(chosen);
    const id = `cancel-all-${randomUUID()}`;
    // Audit first: if it fails the call fails and nothing runs, so no command ever runs unaudited.
    await this.audit('cancel_all', actor, { symbols, command_id: id });
    await enqueueAudited(
      this.store,
      {
        id,
        type: 'cancel_all',
        payload: { instructions, actor },
        enqueued_at: this.isoNow(),
      },
      this.bounded,
    );
    return { ok: true, value: { action: 'cancel_all', cancel_instructions: instructions, command_id: id } };
  }

  /**
   * Queues a flatten of `symbols` (null: every position), in any state. Always queued: the trading
   * process closes what the live account holds, so an already flat account completes with nothing
   * to do. `positions` are what the last published portfolio shows open, for the operator to check.
   */
  async flatten(
    symbols: readonly string[] | null,
    reason: string,
    actor: string,
  ): Promise<ControlOutcome<FlattenResult, UnknownSymbol>> {
    // Any symbol, listed or not: a position SYMBOLS no longer lists must stay closable.
    const portfolio = await readDocument(this.store.kv, PORTFOLIO_KEY);
    const positions = (portfolio?.positions ?? [])
      .filter((p) => p.qty !== 0 && (symbols === null || symbols.includes(p.symbol)))
      .map((p) => ({ symbol: p.symbol, qty: p.qty }));
    const what = symbols === null ? 'every position' : symbols.join(', ');
    const open = await this.openFlattens.open(this.store.commands, symbols);
    if (open !== null) {
      // Nothing new is queued or audited: the open flatten's own request entry stands for it.
      const message = `a flatten of ${what} is already queued (${open}) and not done yet: this adds nothing to it`;
      return {
        ok: true,
        value: { action: 'flatten', symbols, reason, command_id: open, positions, message, coalesced: true },
      };
    }
    const id = `flatten-${randomUUID()}`;
    await requestFlatten(this.store, { id, symbols, reason, actor, at: this.isoNow(), via: 'flatten' }, this.bounded);
    this.openFlattens.remember(symbols, id);
    const message =
      positions.length === 0
        ? `flatten of ${what} queued; the last published portfolio shows nothing open there (it completes with nothing to do if so)`
        : `flatten of ${what} queued: reduce-only market closes of ${positions.length} position(s), in any state`;
    return { ok: true, value: { action: 'flatten', symbols, reason, command_id: id, positions, message } };
  }

  /** Prepares from the last published portfolio; the trading process re-caps it to the live position. */
  async deleverage(
    symbol: string,
    reducePct: number,
    actor: string,
  ): Promise<ControlOutcome<DeleverageResult, UnknownSymbol>> {
    const planned = await this.planDeleverage(symbol, reducePct);
    if (!planned.ok) return planned;
    const plan = planned.value;
    const base = { action: 'deleverage', symbol, reduce_pct: reducePct, position_qty: plan.position_qty } as const;
    if (plan.kind === 'nothing') {
      const details = { symbol, reduce_pct: reducePct, command_id: null, message: plan.message };
      await this.audit('deleverage', actor, details, symbol);
      return { ok: true, value: { ...base, order: null, command_id: null, message: plan.message } };
    }
    const id = `deleverage-${randomUUID()}`;
    await this.audit('deleverage', actor, { symbol, reduce_pct: reducePct, command_id: id, order: plan.order }, symbol);
    await enqueueAudited(
      this.store,
      {
        id,
        type: 'deleverage',
        payload: { symbol, reduce_pct: reducePct, prepared: plan.order, actor },
        enqueued_at: this.isoNow(),
      },
      this.bounded,
    );
    const message = `reduce-only ${plan.order.side} ${plan.order.qty} ${symbol} queued for the trading process`;
    return { ok: true, value: { ...base, order: plan.order, command_id: id, message } };
  }

  /**
   * What deleverage would prepare right now, from the same portfolio and rule, without auditing or
   * queuing anything: the console shows it before the operator confirms.
   */
  async previewDeleverage(
    symbol: string,
    reducePct: number,
  ): Promise<ControlOutcome<DeleveragePreview, UnknownSymbol>> {
    const planned = await this.planDeleverage(symbol, reducePct);
    if (!planned.ok) return planned;
    const plan = planned.value;
    const order = plan.kind === 'order' ? plan.order : null;
    const message =
      plan.kind === 'order'
        ? `would queue a reduce-only ${plan.order.side} ${plan.order.qty} ${symbol} (market)`
        : plan.message;
    return { ok: true, value: { symbol, reduce_pct: reducePct, position_qty: plan.position_qty, order, message } };
  }

  private async planDeleverage(
    symbol: string,
    reducePct: number,
  ): Promise<ControlOutcome<DeleveragePlan, UnknownSymbol>> {
    // A refused portfolio (malformed, another version) is a DocumentError: the route answers 503.
    const portfolio = await readDocument(this.store.kv, PORTFOLIO_KEY);
    const position = portfolio?.positions.find((p) => p.symbol === symbol);
    // Any symbol, listed or not: a held one SYMBOLS no longer lists gets the built-in steps; one
    // nobody holds answers "no open position" as a listed one does.
    const instrument = this.bySymbol.get(symbol) ?? instrumentOf(symbol, position?.kind ?? 'perp');
    return { ok: true, value: planDeleverage(instrument, position, reducePct) };
  }

  private audit(call: string, actor: string, details: Record<string, unknown>, symbol: string | null = null) {
    return this.store.events.append({
      kind: 'control_call',
      at: this.isoNow(),
      symbol,
      body: { call, actor, ...details },
    });
  }

  private isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

function unknownSymbol(symbol: string): UnknownSymbol {
  return { ok: false, error: 'unknown_symbol', message: `unknown symbol ${symbol}: not in the whitelist` };
}
