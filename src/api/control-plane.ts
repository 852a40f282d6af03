/**
 * What the control endpoints do, apart from HTTP: offer events to the control statechart through
 * the store, prepare instructions, enqueue them as commands for the trading process and audit every
 * call. Routes stay thin; this is the one place the rules for "not shown" cases are applied.
 */
import { randomUUID } from 'node:crypto';
import type { ControlApplyResult, ControlEvent, ControlRecord } from '../domain/control.js';
import { pullKillSwitch } from '../application/kill-switch.js';
import { cancelInstructionsFor, planDeleverage } from '../domain/instructions.js';
import type { CancelInstruction, DeleverageOrder } from '../domain/instructions.js';
import type { Instrument } from '../domain/market.js';
import { PORTFOLIO_KEY } from '../domain/runtime-documents.js';
import type { PortfolioDocument } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import { HttpError } from './errors.js';
import { applyControl } from '../application/control-transition.js';

export const DEFAULT_REASONS = {
  pause: 'paused by operator',
  resume: 'resumed by operator',
  kill: 'kill switch pulled by operator',
} as const;

export interface TransitionResult {
  state: ControlRecord['state'];
  previous_state: ControlRecord['state'];
  changed: boolean;
  epoch: number;
  reason: string | null;
  changed_at: string;
}

export interface KillResult {
  action: 'killed';
  reason: string;
  cancel_instructions: CancelInstruction[];
}

export interface DeleverageResult {
  action: 'deleverage';
  symbol: string;
  reduce_pct: number;
  position_qty: number;
  order: DeleverageOrder | null;
  command_id: string | null;
  message: string;
}

export class ControlPlane {
  private readonly bySymbol: Map<string, Instrument>;

  constructor(
    private readonly store: Store,
    private readonly instruments: readonly Instrument[],
    private readonly clock: Clock,
    private readonly onOutcome: (result: ControlApplyResult) => void = () => {},
  ) {
    this.bySymbol = new Map(instruments.map((i) => [i.symbol, i]));
  }

  status(): Promise<ControlRecord> {
    return this.store.control.read();
  }

  /** Pause or resume: 200 with `changed: false` when already there, 409 when killed. */
  async transition(
    event: Extract<ControlEvent, { type: 'control.pause' | 'control.resume' }>,
    actor: string,
  ): Promise<TransitionResult> {
    const result = await this.apply(event, actor);
    if (result.outcome === 'refused') {
      const verb = event.type === 'control.pause' ? 'pause' : 'resume';
      throw new HttpError(
        409,
        'TCS_STATE_CONFLICT',
        `cannot ${verb}: the system is killed; only a manual restart (npm start -- --reset-kill) ends the killed state`,
      );
    }
    return {
      state: result.record.state,
      previous_state: result.from,
      changed: result.outcome === 'changed',
      epoch: result.record.epoch,
      reason: result.record.reason,
      changed_at: result.record.changed_at,
    };
  }

  /** The emergency button: always 200, also when already killed; the cancels are queued once per kill. */
  async kill(reason: string, actor: string): Promise<KillResult> {
    const { result, instructions } = await pullKillSwitch(this.store, this.instruments, reason, {
      actor,
      at: this.isoNow(),
    });
    this.onOutcome(result);
    return { action: 'killed', reason, cancel_instructions: instructions };
  }

  async cancelAll(
    symbols: readonly string[] | null,
    actor: string,
  ): Promise<{ action: 'cancel_all'; cancel_instructions: CancelInstruction[]; command_id: string }> {
    const chosen = symbols === null ? this.instruments : symbols.map((s) => this.instrument(s));
    const instructions = cancelInstructionsFor(chosen);
    const id = `cancel-all-${randomUUID()}`;
    // Audit first: if it fails the call fails and nothing runs, so no command ever runs unaudited.
    await this.audit('cancel_all', actor, { symbols, command_id: id });
    await this.store.commands.enqueue({
      id,
      type: 'cancel_all',
      payload: { instructions, actor },
      enqueued_at: this.isoNow(),
    });
    return { action: 'cancel_all', cancel_instructions: instructions, command_id: id };
  }

  /** Prepares from the last published portfolio; the trading process re-caps it to the live position. */
  async deleverage(symbol: string, reducePct: number, actor: string): Promise<DeleverageResult> {
    const instrument = this.instrument(symbol);
    const portfolio = await this.store.kv.get<PortfolioDocument>(PORTFOLIO_KEY);
    const position = portfolio?.positions.find((p) => p.symbol === symbol);
    const plan = planDeleverage(instrument, position, reducePct);
    if (plan.kind === 'nothing') {
      await this.audit(
        'deleverage',
        actor,
        { symbol, reduce_pct: reducePct, command_id: null, message: plan.message },
        symbol,
      );
      return {
        action: 'deleverage',
        symbol,
        reduce_pct: reducePct,
        position_qty: plan.position_qty,
        order: null,
        command_id: null,
        message: plan.message,
      };
    }
    const id = `deleverage-${randomUUID()}`;
    await this.audit('deleverage', actor, { symbol, reduce_pct: reducePct, command_id: id, order: plan.order }, symbol);
    await this.store.commands.enqueue({
      id,
      type: 'deleverage',
      payload: { symbol, reduce_pct: reducePct, prepared: plan.order, actor },
      enqueued_at: this.isoNow(),
    });
    return {
      action: 'deleverage',
      symbol,
      reduce_pct: reducePct,
      position_qty: plan.position_qty,
      order: plan.order,
      command_id: id,
      message: `reduce-only ${plan.order.side} ${plan.order.qty} ${symbol} queued for the trading process`,
    };
  }

  private async apply(event: ControlEvent, actor: string): Promise<ControlApplyResult> {
    const result = await applyControl(this.store.control, event, { actor, at: this.isoNow() });
    this.onOutcome(result);
    return result;
  }

  private audit(call: string, actor: string, details: Record<string, unknown>, symbol: string | null = null) {
    return this.store.events.append({
      kind: 'control_call',
      at: this.isoNow(),
      symbol,
      body: { call, actor, ...details },
    });
  }

  private instrument(symbol: string): Instrument {
    const instrument = this.bySymbol.get(symbol);
    // The schema's enum already refuses unknown symbols; this guards direct callers.
    if (!instrument) throw new HttpError(422, 'TCS_UNKNOWN_SYMBOL', `unknown symbol ${symbol}: not in the whitelist`);
    return instrument;
  }

  private isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
