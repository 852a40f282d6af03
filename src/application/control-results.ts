/**
 * What the control plane's use cases answer: a discriminated union per call, `ok: true` with the
 * result or `ok: false` with a reason the caller can act on. Nothing here knows HTTP; the API maps
 * the failures to status codes (src/api/routes/control-failures.ts). Failures of the store itself
 * (I/O, endless contention) are not results: they are thrown, as they are not the operator's doing.
 */
import type { ControlRecord } from '../domain/control.js';
import type { CancelInstruction, DeleverageOrder } from '../domain/instructions.js';

/** Why a control call did nothing. */
export type ControlFailure =
  /** The state machine refused the event (pause or resume when killed). */
  | { ok: false; error: 'state_conflict'; message: string }
  /** A symbol outside the whitelist. */
  | { ok: false; error: 'unknown_symbol'; message: string };

export type ControlOutcome<T, F extends ControlFailure = never> = { ok: true; value: T } | F;

export type StateConflict = Extract<ControlFailure, { error: 'state_conflict' }>;
export type UnknownSymbol = Extract<ControlFailure, { error: 'unknown_symbol' }>;

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

export interface CancelAllResult {
  action: 'cancel_all';
  cancel_instructions: CancelInstruction[];
  command_id: string;
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

export interface FlattenResult {
  action: 'flatten';
  symbols: readonly string[] | null;
  reason: string;
  command_id: string;
  /** Open positions of those symbols in the last published portfolio (signed qty). */
  positions: Array<{ symbol: string; qty: number }>;
  message: string;
  /** True when a flatten of the same symbols was still open: its id is returned, nothing new queued. */
  coalesced?: boolean;
}

/** A deleverage as it would be prepared now; nothing queued, nothing audited. */
export type DeleveragePreview = Omit<DeleverageResult, 'action' | 'command_id'>;
